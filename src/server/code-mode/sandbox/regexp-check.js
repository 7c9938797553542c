// @ts-check
/**
 * Sandbox JavaScript: tells whether a regular expression can backtrack catastrophically, from its source and flags.
 * `catastrophicPart(source, flags)` gives "" for a pattern the engine matches without exponential backtracking, or
 * the part of it that is the reason. It refuses a repetition whose repetitions can split the same text in more than
 * one way: its body ends with a repetition that could also take what the next round starts with (`(a+)+`,
 * `(\w+\s?)*`, `(a*)*`), starts with one that could take what the previous round ended with (`(\s?\w+)*`), or is a
 * choice whose alternatives can start alike (`(a|aa)+`, `(\r\n|\r|\n)+`). A repetition whose rounds are told apart by
 * a character (`[a-z]+(?:-[a-z]+)*`, `(\.\d+)*`) passes. Unbounded repetitions (and counts over 16) are held to all
 * of this; a count of 3 to 16 only where the inner repetition is unbounded (`(a+){10}`). It is a heuristic: quadratic
 * backtracking (`/\s+$/` on a long run of spaces) is not refused. It runs in the sandbox while the program runs, so it
 * calls no method a program can replace: its lists are object literals, and it reads strings by index.
 */

const MAX_CODE_POINT = 0x10ffff;
const MAX_DEPTH = 100;
const apply = Reflect.apply,
  charCodeAt = String.prototype.charCodeAt;

/** @typedef {{ lo: number; hi: number; next: Ranges }} Range */
/** @typedef {Range | null} Ranges A set of characters: ranges sorted by `lo`, apart and not adjacent (null: none). */

/** @param {number} lo @param {number} hi @param {Ranges} next @returns {Range} */
const range = (lo, hi, next) => ({ lo, hi, next });
const ALL = range(0, MAX_CODE_POINT, null);
/** @param {Ranges} a @param {Ranges} b @returns {Ranges} */
function union(a, b) {
  if (a === null) return b;
  if (b === null) return a;
  /** @type {{ next: Ranges }} */
  const head = { next: null };
  /** @type {{ next: Ranges } | Range} */
  let end = head;
  /** @type {Range | null} */
  let open = null;
  while (a !== null || b !== null) {
    /** @type {Range} */
    let take;
    if (b === null || (a !== null && a.lo <= b.lo)) {
      take = /** @type {Range} */ (a);
      a = take.next;
    } else {
      take = b;
      b = take.next;
    }
    if (open !== null && take.lo <= open.hi + 1) {
      if (take.hi > open.hi) open.hi = take.hi;
    } else {
      open = range(take.lo, take.hi, null);
      end.next = open;
      end = open;
    }
  }
  return head.next;
}
/** @param {Ranges} a @param {Ranges} b */
function overlaps(a, b) {
  while (a !== null && b !== null) {
    if (a.hi < b.lo) a = a.next;
    else if (b.hi < a.lo) b = b.next;
    else return true;
  }
  return false;
}
/** @param {Ranges} a @returns {Ranges} */
function complement(a) {
  /** @type {{ next: Ranges }} */
  const head = { next: null };
  /** @type {{ next: Ranges } | Range} */
  let end = head;
  let from = 0;
  for (let r = a; r !== null; r = r.next) {
    if (r.lo > from) end = end.next = range(from, r.lo - 1, null);
    from = r.hi + 1;
  }
  if (from <= MAX_CODE_POINT) end.next = range(from, MAX_CODE_POINT, null);
  return head.next;
}
/** A list of ranges in any order, as a set (merge sort, so a class of many ranges costs n log n). @param {Ranges} list @returns {Ranges} */
function normalise(list) {
  if (list === null || list.next === null) return list === null ? null : range(list.lo, list.hi, null);
  /** @type {Ranges} */
  let left = null;
  /** @type {Ranges} */
  let right = null;
  for (let r = /** @type {Ranges} */ (list), odd = true; r !== null; r = r.next, odd = !odd) {
    if (odd) left = range(r.lo, r.hi, left);
    else right = range(r.lo, r.hi, right);
  }
  return union(normalise(left), normalise(right));
}
/** ASCII letters of either case added (an approximation of the `i` flag's folding). @param {Ranges} a @returns {Ranges} */
function fold(a) {
  /** @type {Ranges} */
  let more = null;
  for (let r = a; r !== null; r = r.next) {
    // A-Z to a-z and back.
    for (let from = 65; from <= 97; from += 32) {
      const lo = r.lo > from ? r.lo : from,
        hi = r.hi < from + 25 ? r.hi : from + 25,
        shift = from === 65 ? 32 : -32;
      if (lo <= hi) more = range(lo + shift, hi + shift, more);
    }
  }
  return union(a, normalise(more));
}
/** @param {number} c */
const one = (c) => range(c, c, null);
/** @param {...number} pairs lo, hi, lo, hi… in order @returns {Ranges} */
function ranges(...pairs) {
  /** @type {Ranges} */
  let list = null;
  for (let i = pairs.length - 2; i >= 0; i -= 2) list = range(/** @type {number} */ (pairs[i]), /** @type {number} */ (pairs[i + 1]), list);
  return list;
}
const DIGIT = ranges(48, 57);
const WORD = ranges(48, 57, 65, 90, 95, 95, 97, 122);
const SPACE = ranges(9, 13, 32, 32, 160, 160, 5760, 5760, 8192, 8202, 8232, 8233, 8239, 8239, 8287, 8287, 12288, 12288, 65279, 65279);
const LINE_ENDS = ranges(10, 10, 13, 13, 8232, 8233);

/**
 * What a part of a pattern can match, as far as splitting goes: its first and last characters, whether it can match
 * nothing, and the characters a repetition at its start (`head`) or end (`tail`) could take one more of (`U`: only
 * unbounded repetitions).
 * @typedef {{ empty: boolean; first: Ranges; last: Ranges; head: Ranges; tail: Ranges; headU: Ranges; tailU: Ranges; alternatives: Alternatives }} Shape
 */
/** @typedef {{ first: Ranges; next: Alternatives } | null} Alternatives The first characters of each alternative of a choice that is the whole part. */

/** @type {Shape} */
const NOTHING = { empty: true, first: null, last: null, head: null, tail: null, headU: null, tailU: null, alternatives: null };
/** @param {Ranges} set @returns {Shape} */
const character = (set) => ({ empty: false, first: set, last: set, head: null, tail: null, headU: null, tailU: null, alternatives: null });
/** One part, then another. @param {Shape} a @param {Shape} b @returns {Shape} */
const then = (a, b) => ({
  empty: a.empty && b.empty,
  first: a.empty ? union(a.first, b.first) : a.first,
  last: b.empty ? union(a.last, b.last) : b.last,
  head: a.empty ? union(a.head, b.head) : a.head,
  headU: a.empty ? union(a.headU, b.headU) : a.headU,
  tail: b.empty ? union(a.tail, b.tail) : b.tail,
  tailU: b.empty ? union(a.tailU, b.tailU) : b.tailU,
  alternatives: null,
});
/** One part or another. @param {Shape} a @param {Shape} b @returns {Shape} */
const or = (a, b) => ({
  empty: a.empty || b.empty,
  first: union(a.first, b.first),
  last: union(a.last, b.last),
  head: union(a.head, b.head),
  headU: union(a.headU, b.headU),
  tail: union(a.tail, b.tail),
  tailU: union(a.tailU, b.tailU),
  alternatives: null,
});

/**
 * The part of a regular expression that can make the engine backtrack exponentially, or "" when there is none.
 * A pattern it cannot read (nested more than 100 groups deep, or not valid) is answered as a whole: refused.
 * @param {string} source the pattern, as `RegExp.prototype.source` gives it
 * @param {string} flags its flags
 * @returns {string}
 */
export function catastrophicPart(source, flags) {
  let ignoreCase = false,
    unicode = false,
    sets = false,
    dotAll = false;
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i];
    if (f === "i") ignoreCase = true;
    else if (f === "u") unicode = true;
    else if (f === "v") unicode = sets = true;
    else if (f === "s") dotAll = true;
  }
  const s = source;
  // A character of the pattern, "" past its end (never read from a prototype a program may have given indices).
  const ch = (/** @type {number} */ i) => (i < s.length ? s[i] : "");
  let at = 0,
    depth = 0,
    found = "";
  const code = (/** @type {number} */ i) => /** @type {number} */ (apply(charCodeAt, s, [i]));
  /** @returns {never} */
  const fail = () => {
    throw new SyntaxError("unreadable");
  };
  /** @param {Ranges} set */
  const folded = (set) => (ignoreCase ? fold(set) : set);
  // One character of the source (a surrogate pair, in unicode mode) as its code point; moves past it.
  const codePoint = () => {
    const c = code(at++);
    if (unicode && c >= 0xd800 && c <= 0xdbff && at < s.length) {
      const d = code(at);
      if (d >= 0xdc00 && d <= 0xdfff) {
        at++;
        return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
      }
    }
    return c;
  };
  const hex = (/** @type {number} */ count) => {
    let n = 0;
    for (let k = 0; k < count; k++) {
      const c = at < s.length ? code(at) : -1;
      const v = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (v < 0) return -1;
      n = n * 16 + v;
      at++;
    }
    return n;
  };
  const skipPast = (/** @type {string} */ close) => {
    while (at < s.length && ch(at) !== close) at++;
    if (at >= s.length) fail();
    at++;
  };
  // After a backslash: the set an escape stands for; null where it stands for no character (an assertion).
  /** @param {boolean} inClass @returns {Ranges | "any" | "none"} */
  const escape = (inClass) => {
    if (at >= s.length) fail();
    const c = ch(at++);
    switch (c) {
      case "d":
        return DIGIT;
      case "D":
        return complement(DIGIT);
      case "w":
        return WORD;
      case "W":
        return complement(WORD);
      case "s":
        return SPACE;
      case "S":
        return complement(SPACE);
      case "b":
        return inClass ? one(8) : "none";
      case "B":
        return "none";
      case "n":
        return one(10);
      case "r":
        return one(13);
      case "t":
        return one(9);
      case "v":
        return one(11);
      case "f":
        return one(12);
      case "0":
        return one(0);
      case "c": {
        const k = at < s.length ? code(at) : -1;
        if ((k >= 65 && k <= 90) || (k >= 97 && k <= 122)) {
          at++;
          return one(k % 32);
        }
        return one(92);
      }
      case "x": {
        const start = at,
          n = hex(2);
        if (n >= 0) return one(n);
        at = start;
        return one(120);
      }
      case "u": {
        if (unicode && ch(at) === "{") {
          at++;
          let n = 0;
          while (at < s.length && ch(at) !== "}") {
            const v = hex(1);
            if (v < 0) fail();
            n = n * 16 + v;
            if (n > MAX_CODE_POINT) fail();
          }
          skipPast("}");
          return one(n);
        }
        const start = at,
          n = hex(4);
        if (n >= 0) return one(n);
        at = start;
        return one(117);
      }
      case "p":
      case "P":
        if (unicode) {
          if (ch(at) !== "{") fail();
          skipPast("}");
          return ALL;
        }
        return one(code(at - 1));
      case "k":
        if (unicode || ch(at) === "<") {
          if (inClass) return one(107);
          if (ch(at) !== "<") fail();
          skipPast(">");
          return "any";
        }
        return one(107);
      default: {
        const k = code(at - 1);
        if (k >= 49 && k <= 57) {
          if (inClass) return one(k);
          while (at < s.length && code(at) >= 48 && code(at) <= 57) at++;
          return "any";
        }
        at--;
        return one(codePoint());
      }
    }
  };
  // After "[": the class, through its "]".
  const characterClass = () => {
    let negated = false;
    if (ch(at) === "^") {
      negated = true;
      at++;
    }
    /** @type {Ranges} */
    let list = null;
    /** @type {Ranges} */
    let all = null;
    let nested = false;
    for (;;) {
      if (at >= s.length) fail();
      const c = ch(at);
      if (c === "]") {
        at++;
        break;
      }
      if (sets && c === "[") {
        // A class of the v flag's set notation (nested classes, &&, --): taken as any character.
        nested = true;
        let inner = 1;
        at++;
        while (inner > 0) {
          if (at >= s.length) fail();
          const d = ch(at++);
          if (d === "\\") at++;
          else if (d === "[") inner++;
          else if (d === "]") inner--;
        }
        continue;
      }
      /** @type {Ranges | "any" | "none"} */
      let item;
      let low = -1;
      if (c === "\\") {
        at++;
        item = escape(true);
        if (item !== null && item !== "any" && item !== "none" && item.next === null && item.lo === item.hi) low = item.lo;
      } else {
        low = codePoint();
        item = one(low);
      }
      if (low >= 0 && ch(at) === "-" && at + 1 < s.length && ch(at + 1) !== "]") {
        const back = at;
        at++;
        /** @type {Ranges | "any" | "none"} */
        let upper;
        if (ch(at) === "\\") {
          at++;
          upper = escape(true);
        } else upper = one(codePoint());
        if (upper !== null && upper !== "any" && upper !== "none" && upper.next === null && upper.lo === upper.hi) {
          if (upper.lo < low) fail();
          list = range(low, upper.lo, list);
          continue;
        }
        at = back;
      }
      if (item === "any") all = ALL;
      else if (item !== "none") for (let r = item; r !== null; r = r.next) list = range(r.lo, r.hi, list);
    }
    let set = nested ? ALL : union(normalise(list), all);
    set = folded(set);
    return negated ? complement(set) : set;
  };
  // A count of a quantifier in braces, capped (a count this big is unbounded for the purpose).
  const number = () => {
    let n = -1;
    while (at < s.length && code(at) >= 48 && code(at) <= 57) {
      n = (n < 0 ? 0 : n) * 10 + (code(at) - 48);
      if (n > 1e9) n = 1e9;
      at++;
    }
    return n;
  };
  /** @returns {{ min: number; max: number } | null} */
  const quantifier = () => {
    const c = ch(at);
    if (c === "*" || c === "+" || c === "?") {
      at++;
      if (ch(at) === "?") at++;
      return c === "*" ? { min: 0, max: Infinity } : c === "+" ? { min: 1, max: Infinity } : { min: 0, max: 1 };
    }
    if (c !== "{") return null;
    const start = at;
    at++;
    const min = number();
    let max = min;
    if (min >= 0 && ch(at) === ",") {
      at++;
      const m = number();
      max = m < 0 ? Infinity : m;
    }
    if (min < 0 || ch(at) !== "}") {
      if (unicode) fail();
      at = start;
      return null;
    }
    at++;
    if (ch(at) === "?") at++;
    return { min, max };
  };
  /** Checks a repetition of a part; records the first reason found. @param {Shape} body @param {number} max @param {number} start */
  const check = (body, max, start, end = at) => {
    if (found !== "" || max < 3) return;
    const always = max > 16;
    const tail = always ? body.tail : body.tailU,
      head = always ? body.head : body.headU;
    let bad = overlaps(tail, body.first) || overlaps(head, body.last);
    if (!bad && always) {
      for (let a = body.alternatives; a !== null && !bad; a = a.next) {
        for (let b = a.next; b !== null && !bad; b = b.next) bad = overlaps(a.first, b.first);
      }
    }
    if (bad) {
      let text = "";
      for (let i = start; i < end; i++) text += ch(i);
      found = text;
    }
  };
  /** A choice (through ")" or the end). @returns {Shape} */
  const alternation = () => {
    let shape = sequence();
    if (ch(at) !== "|") return shape;
    /** @type {Alternatives} */
    let alternatives = { first: shape.first, next: null };
    while (ch(at) === "|") {
      at++;
      const next = sequence();
      alternatives = { first: next.first, next: alternatives };
      shape = or(shape, next);
    }
    shape.alternatives = alternatives;
    return shape;
  };
  /** Terms until "|", ")" or the end. @returns {Shape} */
  const sequence = () => {
    /** @type {Shape | null} */
    let shape = null;
    while (at < s.length && ch(at) !== "|" && ch(at) !== ")") {
      const next = term();
      shape = shape === null ? next : then(shape, next);
    }
    return shape ?? NOTHING;
  };
  /** An atom and its quantifier. @returns {Shape} */
  const term = () => {
    const start = at;
    const c = ch(at++);
    /** @type {Shape} */
    let atom;
    let zeroWidth = false;
    if (c === "^" || c === "$") {
      atom = NOTHING;
      zeroWidth = true;
    } else if (c === ".") atom = character(dotAll ? ALL : complement(LINE_ENDS));
    else if (c === "[") atom = character(characterClass());
    else if (c === "\\") {
      const set = escape(false);
      if (set === "none") {
        atom = NOTHING;
        zeroWidth = true;
      } else if (set === "any") atom = { ...character(ALL), empty: true };
      else atom = character(folded(set));
    } else if (c === "(") {
      let look = false;
      if (ch(at) === "?") {
        const d = ch(at + 1);
        if (d === ":") at += 2;
        else if (d === "=" || d === "!") {
          at += 2;
          look = true;
        } else if (d === "<" && (ch(at + 2) === "=" || ch(at + 2) === "!")) {
          at += 3;
          look = true;
        } else if (d === "<") {
          at += 2;
          skipPast(">");
        } else {
          // Modifiers, (?i:…) or (?-i:…): the i flag inside is taken as the whole pattern's.
          at++;
          while (at < s.length && ch(at) !== ":") {
            if (ch(at) === "i") ignoreCase = true;
            at++;
          }
          if (at >= s.length) fail();
          at++;
        }
      }
      if (++depth > MAX_DEPTH) fail();
      const inner = alternation();
      depth--;
      if (ch(at) !== ")") fail();
      at++;
      if (look) {
        atom = NOTHING;
        zeroWidth = true;
      } else atom = inner;
    } else if (c === ")" || c === "*" || c === "+" || c === "?" || c === "|") fail();
    else {
      at--;
      atom = character(folded(one(codePoint())));
    }
    const q = quantifier();
    if (q === null) return atom;
    if (zeroWidth) return NOTHING;
    check(atom, q.max, start);
    const varying = q.max > q.min;
    const unbounded = q.max === Infinity;
    return {
      empty: atom.empty || q.min === 0,
      first: atom.first,
      last: atom.last,
      head: varying ? union(atom.first, atom.head) : atom.head,
      tail: varying ? union(atom.first, atom.tail) : atom.tail,
      headU: unbounded ? union(atom.first, atom.headU) : atom.headU,
      tailU: unbounded ? union(atom.first, atom.tailU) : atom.tailU,
      alternatives: null,
    };
  };
  try {
    alternation();
    if (at !== s.length) fail();
  } catch {
    return s.length > 200 ? "the whole pattern" : s;
  }
  return found;
}
