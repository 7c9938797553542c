// Written by `npm run build:sandbox` from sandbox/allocation-budget.js and the wrappers it imports: edit those, then run it
// (test/unit/server/code-mode/sandbox-modules.test.ts fails while this file and they disagree).
/** Code mode's allocation budget: the sandbox module that wraps the built-ins whose one call allocates in proportion to an argument. */

/** The module's name in a sandbox; its one export is `installAllocationBudget(maxBytes)`. */
export const ALLOCATION_BUDGET_FILE = "allocation-budget.js";

/** The source of the sandbox module `allocation-budget.js` (see sandbox/allocation-budget.js). */
export const ALLOCATION_BUDGET_MODULE = `function installArrayWrappers(kit) {
  const {
    constructorOf,
    trunc,
    replace,
    pin,
    put,
    charge,
    apply: apply2,
    originalOf,
    perElement,
    fix,
    ITERATOR,
    max,
    span,
    min,
    unpin,
    toStr,
    setHas,
    setAdd,
    setDelete,
    OriginalObject,
    isObject,
    SPREADABLE,
    isArray
  } = kit;
  const P = Array.prototype;
  constructorOf(globalThis, "Array", (args) => {
    const n = args[0];
    const one2 = args.length === 1 && typeof n === "number" && n >= 0 && n <= 4294967295 && trunc(n) === n;
    return { bytes: (one2 ? n : args.length) * 8, args };
  });
  replace(
    Array,
    "from",
    (original) => ({
      from(items) {
        const pinned = pin(items, true), args = [pinned.target];
        for (let i = 1; i < arguments.length; i++) put(args, i, arguments[i]);
        charge(pinned.length * 8);
        return apply2(original, originalOf(this), args);
      }
    }).from
  );
  replace(
    Array,
    "of",
    (original) => ({
      of() {
        charge(arguments.length * 8);
        return apply2(original, originalOf(this), arguments);
      }
    }).of
  );
  if (typeof Array.fromAsync === "function") {
    replace(
      Array,
      "fromAsync",
      (original) => ({
        fromAsync(items, mapFn, thisArg) {
          const pinned = pin(items, true);
          charge(pinned.length * 8);
          return apply2(original, originalOf(this), [pinned.target, mapFn, thisArg]);
        }
      }).fromAsync
    );
  }
  for (const key of ["fill", "map", "filter", "sort", "toSorted", "toReversed", "with", "keys", "entries", "values"]) perElement(P, key, 8);
  fix(P, ITERATOR, P.values);
  perElement(P, "toSpliced", 8, (n, args) => max(args.length - 2, 0) * 8);
  replace(
    P,
    "slice",
    (original) => ({
      slice(start, end) {
        const pinned = pin(this);
        charge(span(pinned.length, start, end) * 8);
        return apply2(original, pinned.target, arguments);
      }
    }).slice
  );
  replace(
    P,
    "splice",
    (original) => ({
      splice(start, count) {
        const pinned = pin(this), n = pinned.length;
        const end = arguments.length < 2 ? void 0 : typeof count === "number" && typeof start === "number" ? (trunc(start) < 0 ? max(n + trunc(start), 0) : min(trunc(start), n)) + max(trunc(count) || 0, 0) : n;
        charge((arguments.length === 0 ? 0 : span(n, start, end)) * 8 + max(arguments.length - 2, 0) * 8);
        return unpin(apply2(original, pinned.target, arguments), pinned, this);
      }
    }).splice
  );
  for (const key of ["push", "unshift"])
    replace(
      P,
      key,
      (original) => ({
        m() {
          charge(arguments.length * 8);
          return apply2(original, this, arguments);
        }
      }).m
    );
  const joining = /* @__PURE__ */ new Set();
  const joinOf = (local) => ({
    join(separator) {
      const pinned = pin(this), o = pinned.target, n = pinned.length;
      const sep = local || separator === void 0 ? "," : toStr(separator);
      if (apply2(setHas, joining, [o])) return "";
      charge(max(n - 1, 0) * sep.length * 2);
      apply2(setAdd, joining, [o]);
      try {
        let out = "";
        for (let i = 0; i < n; i++) {
          const v = o[i];
          const piece = v === void 0 || v === null ? "" : toStr(local ? v.toLocaleString() : v);
          charge(piece.length * 2 + 1);
          out = i === 0 ? piece : out + sep + piece;
        }
        return out;
      } finally {
        apply2(setDelete, joining, [o]);
      }
    }
  }).join;
  replace(P, "join", () => joinOf(false));
  replace(P, "toLocaleString", () => joinOf(true));
  replace(
    P,
    "concat",
    () => ({
      concat() {
        const out = [];
        let n = 0;
        for (let i = -1; i < arguments.length; i++) {
          const e = i < 0 ? OriginalObject(this) : arguments[i];
          const spreadable = isObject(e) ? e[SPREADABLE] !== void 0 ? !!e[SPREADABLE] : isArray(e) : false;
          if (!spreadable) {
            charge(8);
            put(out, n++, e);
            continue;
          }
          const pinned = pin(e), len = pinned.length, o = pinned.target;
          charge(len * 8);
          for (let k = 0; k < len; k++, n++) if (k in o) put(out, n, o[k]);
        }
        out.length = n;
        return out;
      }
    }).concat
  );
  function flatten(out, source, length, depth) {
    for (let k = 0; k < length; k++) {
      if (!(k in source)) continue;
      const e = source[k];
      if (depth > 0 && isArray(e)) {
        const pinned = pin(e);
        charge(pinned.length * 8);
        flatten(out, pinned.target, pinned.length, depth - 1);
      } else {
        put(out, out.length, e);
      }
    }
    return out;
  }
  replace(
    P,
    "flat",
    () => ({
      flat(depth) {
        const pinned = pin(OriginalObject(this)), d = depth === void 0 ? 1 : trunc(+depth) || 0;
        charge(pinned.length * 8);
        return flatten([], pinned.target, pinned.length, d);
      }
    }).flat
  );
  replace(
    P,
    "flatMap",
    () => ({
      flatMap(mapper, thisArg) {
        const pinned = pin(OriginalObject(this)), o = pinned.target, out = [];
        if (typeof mapper !== "function") throw new TypeError("flatMap: the mapper is not a function");
        charge(pinned.length * 8);
        for (let k = 0; k < pinned.length; k++) {
          if (!(k in o)) continue;
          const e = apply2(mapper, thisArg, [o[k], k, this]);
          if (isArray(e)) {
            const inner = pin(e);
            charge(inner.length * 8);
            flatten(out, inner.target, inner.length, 0);
          } else put(out, out.length, e);
        }
        return out;
      }
    }).flatMap
  );
}

function installBodyWrappers(kit) {
  const { constructorOf, maxBytes, isObject, bufferBytes, getOwn, apply: apply2 } = kit;
  const refused = (args) => ({ bytes: maxBytes + 1, args });
  for (const name of ["DecompressionStream", "CompressionStream"]) constructorOf(globalThis, name, refused);
  const blobSize = typeof Blob === "function" && getOwn(Blob.prototype, "size") ? getOwn(Blob.prototype, "size").get : void 0;
  const sizeOf = (body) => {
    if (body === void 0 || body === null) return 0;
    if (typeof body === "string") return body.length * 2;
    if (!isObject(body)) return -1;
    const bytes = bufferBytes(body);
    if (bytes >= 0) return bytes;
    try {
      return blobSize ? apply2(blobSize, body, []) : -1;
    } catch {
      return -1;
    }
  };
  if (typeof Response === "function") {
    constructorOf(globalThis, "Response", (args) => {
      const bytes = sizeOf(args[0]);
      return bytes < 0 ? refused(args) : { bytes: bytes * 3, args };
    });
  }
  if (typeof Request === "function") {
    constructorOf(globalThis, "Request", (args) => {
      const init = isObject(args[1]) ? { ...args[1] } : args[1];
      const withBody = typeof args[0] !== "string" || isObject(init) && init.body !== void 0 && init.body !== null;
      return withBody ? refused(args) : { bytes: 0, args: init === void 0 ? [args[0]] : [args[0], init] };
    });
  }
}

function installBufferWrappers(kit) {
  const {
    TypedArrayPrototype,
    constructorOf,
    isObject,
    bufferBytes,
    typedLength,
    pin,
    put,
    apply: apply2,
    taBytes,
    replace,
    charge,
    max,
    perElement,
    fix,
    ITERATOR,
    toStr,
    getOwn,
    toLength,
    span
  } = kit;
  const TP = TypedArrayPrototype;
  for (const name of [
    "Int8Array",
    "Uint8Array",
    "Uint8ClampedArray",
    "Int16Array",
    "Uint16Array",
    "Int32Array",
    "Uint32Array",
    "Float16Array",
    "Float32Array",
    "Float64Array",
    "BigInt64Array",
    "BigUint64Array"
  ]) {
    const size = globalThis[name] ? globalThis[name].BYTES_PER_ELEMENT : 0;
    constructorOf(globalThis, name, (args) => {
      const first = args[0];
      if (!isObject(first)) return { bytes: typeof first === "number" && first > 0 ? first * size : 0, args };
      if (bufferBytes(first) >= 0 && typedLength(first) < 0) return { bytes: 0, args };
      const pinned = pin(first, true), copy = [pinned.target];
      for (let i = 1; i < args.length; i++) put(copy, i, args[i]);
      return { bytes: pinned.length * size, args: copy };
    });
  }
  const elementBytes = (x) => {
    const n = typedLength(x);
    return n > 0 ? apply2(taBytes, x, []) / n : 8;
  };
  for (const key of ["map", "filter", "slice", "toSorted", "toReversed", "with", "sort"]) {
    replace(
      TP,
      key,
      (original) => ({
        m() {
          const n = typedLength(this);
          charge(max(n, 0) * (key === "filter" ? 8 : elementBytes(this)));
          return apply2(original, this, arguments);
        }
      }).m
    );
  }
  for (const key of ["keys", "entries", "values"]) perElement(TP, key, 8);
  fix(TP, ITERATOR, TP.values);
  for (const key of ["join", "toLocaleString"]) {
    replace(
      TP,
      key,
      (original) => ({
        m(separator) {
          const sep = key === "join" && separator !== void 0 ? toStr(separator) : separator;
          charge(max(typedLength(this), 0) * (key === "join" && sep !== void 0 ? sep.length + 24 : 48) * 2);
          return apply2(original, this, key === "join" ? [sep] : arguments);
        }
      }).m
    );
  }
  for (const key of ["toBase64", "toHex"]) if (typeof Uint8Array.prototype[key] === "function") perElement(Uint8Array.prototype, key, 4);
  for (const name of ["ArrayBuffer", "SharedArrayBuffer"]) {
    const Buffer = globalThis[name];
    if (typeof Buffer !== "function") continue;
    const bytesOf = getOwn(Buffer.prototype, "byteLength").get;
    constructorOf(globalThis, name, (args) => {
      const copy = [+args[0]];
      for (let i = 1; i < args.length; i++) put(copy, i, args[i]);
      return { bytes: toLength(copy[0]), args: copy };
    });
    replace(
      Buffer.prototype,
      "slice",
      (original) => ({
        slice(start, end) {
          charge(span(apply2(bytesOf, this, []), start, end));
          return apply2(original, this, arguments);
        }
      }).slice
    );
    for (const key of ["resize", "grow", "transfer", "transferToFixedLength"]) {
      if (typeof Buffer.prototype[key] !== "function") continue;
      replace(
        Buffer.prototype,
        key,
        (original) => ({
          m(length) {
            const now = apply2(bytesOf, this, []), next = length === void 0 ? now : +length;
            charge(toLength(next) - (key === "resize" || key === "grow" ? now : 0));
            return apply2(original, this, length === void 0 ? [] : [next]);
          }
        }).m
      );
    }
  }
}

function installIteratorWrappers(kit) {
  const { replace, charge, apply: apply2, ownKeys, getProto, OriginalObject } = kit;
  const perStep = (iterator, bytes) => {
    const proto = getProto(iterator);
    replace(
      proto,
      "next",
      (original) => ({
        next() {
          charge(bytes);
          return apply2(original, this, arguments);
        }
      }).next
    );
  };
  perStep(apply2(String.prototype.matchAll, "", [/x/g]), 64);
  perStep((/* @__PURE__ */ new Map()).entries(), 24);
  perStep((/* @__PURE__ */ new Set()).values(), 16);
  if (typeof Intl === "object" && typeof Intl.Segmenter === "function") perStep(new Intl.Segmenter().segment("")[Symbol.iterator](), 96);
  const grows = (proto, key, bytes) => {
    const has = proto.has;
    replace(
      proto,
      key,
      (original) => ({
        [key](entry) {
          if (!apply2(has, this, [entry])) charge(bytes);
          return apply2(original, this, arguments);
        }
      })[key]
    );
  };
  grows(Map.prototype, "set", 24);
  grows(Set.prototype, "add", 16);
  grows(WeakMap.prototype, "set", 24);
  grows(WeakSet.prototype, "add", 16);
  replace(
    Object,
    "getOwnPropertyDescriptors",
    (original) => ({
      getOwnPropertyDescriptors(object) {
        if (object !== null && object !== void 0) charge(ownKeys(OriginalObject(object)).length * 96);
        return apply2(original, this, arguments);
      }
    }).getOwnPropertyDescriptors
  );
  for (const key of ["fromCharCode", "fromCodePoint"]) {
    replace(
      String,
      key,
      (original) => ({
        [key]() {
          charge(arguments.length * 2);
          return apply2(original, this, arguments);
        }
      })[key]
    );
  }
}

var MAX_CODE_POINT = 1114111;
var MAX_DEPTH = 100;
var apply = Reflect.apply;
var charCodeAt = String.prototype.charCodeAt;
var range = (lo, hi, next) => ({ lo, hi, next });
var ALL = range(0, MAX_CODE_POINT, null);
function union(a, b) {
  if (a === null) return b;
  if (b === null) return a;
  const head = { next: null };
  let end = head;
  let open = null;
  while (a !== null || b !== null) {
    let take;
    if (b === null || a !== null && a.lo <= b.lo) {
      take = /** @type {Range} */
      a;
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
function overlaps(a, b) {
  while (a !== null && b !== null) {
    if (a.hi < b.lo) a = a.next;
    else if (b.hi < a.lo) b = b.next;
    else return true;
  }
  return false;
}
function complement(a) {
  const head = { next: null };
  let end = head;
  let from = 0;
  for (let r = a; r !== null; r = r.next) {
    if (r.lo > from) end = end.next = range(from, r.lo - 1, null);
    from = r.hi + 1;
  }
  if (from <= MAX_CODE_POINT) end.next = range(from, MAX_CODE_POINT, null);
  return head.next;
}
function normalise(list) {
  if (list === null || list.next === null) return list === null ? null : range(list.lo, list.hi, null);
  let left = null;
  let right = null;
  for (let r = (
    /** @type {Ranges} */
    list
  ), odd = true; r !== null; r = r.next, odd = !odd) {
    if (odd) left = range(r.lo, r.hi, left);
    else right = range(r.lo, r.hi, right);
  }
  return union(normalise(left), normalise(right));
}
function fold(a) {
  let more = null;
  for (let r = a; r !== null; r = r.next) {
    for (let from = 65; from <= 97; from += 32) {
      const lo = r.lo > from ? r.lo : from, hi = r.hi < from + 25 ? r.hi : from + 25, shift = from === 65 ? 32 : -32;
      if (lo <= hi) more = range(lo + shift, hi + shift, more);
    }
  }
  return union(a, normalise(more));
}
var one = (c) => range(c, c, null);
function ranges(...pairs) {
  let list = null;
  for (let i = pairs.length - 2; i >= 0; i -= 2) list = range(
    /** @type {number} */
    pairs[i],
    /** @type {number} */
    pairs[i + 1],
    list
  );
  return list;
}
var DIGIT = ranges(48, 57);
var WORD = ranges(48, 57, 65, 90, 95, 95, 97, 122);
var SPACE = ranges(9, 13, 32, 32, 160, 160, 5760, 5760, 8192, 8202, 8232, 8233, 8239, 8239, 8287, 8287, 12288, 12288, 65279, 65279);
var LINE_ENDS = ranges(10, 10, 13, 13, 8232, 8233);
var NOTHING = { empty: true, first: null, last: null, head: null, tail: null, headU: null, tailU: null, alternatives: null };
var character = (set) => ({ empty: false, first: set, last: set, head: null, tail: null, headU: null, tailU: null, alternatives: null });
var then = (a, b) => ({
  empty: a.empty && b.empty,
  first: a.empty ? union(a.first, b.first) : a.first,
  last: b.empty ? union(a.last, b.last) : b.last,
  head: a.empty ? union(a.head, b.head) : a.head,
  headU: a.empty ? union(a.headU, b.headU) : a.headU,
  tail: b.empty ? union(a.tail, b.tail) : b.tail,
  tailU: b.empty ? union(a.tailU, b.tailU) : b.tailU,
  alternatives: null
});
var or = (a, b) => ({
  empty: a.empty || b.empty,
  first: union(a.first, b.first),
  last: union(a.last, b.last),
  head: union(a.head, b.head),
  headU: union(a.headU, b.headU),
  tail: union(a.tail, b.tail),
  tailU: union(a.tailU, b.tailU),
  alternatives: null
});
function catastrophicPart(source, flags) {
  let ignoreCase = false, unicode = false, sets = false, dotAll = false;
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i];
    if (f === "i") ignoreCase = true;
    else if (f === "u") unicode = true;
    else if (f === "v") unicode = sets = true;
    else if (f === "s") dotAll = true;
  }
  const s = source;
  const ch = (i) => i < s.length ? s[i] : "";
  let at = 0, depth = 0, found = "";
  const code = (i) => (
    /** @type {number} */
    apply(charCodeAt, s, [i])
  );
  const fail = () => {
    throw new SyntaxError("unreadable");
  };
  const folded = (set) => ignoreCase ? fold(set) : set;
  const codePoint = () => {
    const c = code(at++);
    if (unicode && c >= 55296 && c <= 56319 && at < s.length) {
      const d = code(at);
      if (d >= 56320 && d <= 57343) {
        at++;
        return (c - 55296) * 1024 + (d - 56320) + 65536;
      }
    }
    return c;
  };
  const hex = (count) => {
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
  const skipPast = (close) => {
    while (at < s.length && ch(at) !== close) at++;
    if (at >= s.length) fail();
    at++;
  };
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
        if (k >= 65 && k <= 90 || k >= 97 && k <= 122) {
          at++;
          return one(k % 32);
        }
        return one(92);
      }
      case "x": {
        const start = at, n = hex(2);
        if (n >= 0) return one(n);
        at = start;
        return one(120);
      }
      case "u": {
        if (unicode && ch(at) === "{") {
          at++;
          let n2 = 0;
          while (at < s.length && ch(at) !== "}") {
            const v = hex(1);
            if (v < 0) fail();
            n2 = n2 * 16 + v;
            if (n2 > MAX_CODE_POINT) fail();
          }
          skipPast("}");
          return one(n2);
        }
        const start = at, n = hex(4);
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
  const characterClass = () => {
    let negated = false;
    if (ch(at) === "^") {
      negated = true;
      at++;
    }
    let list = null;
    let all = null;
    let nested = false;
    for (; ; ) {
      if (at >= s.length) fail();
      const c = ch(at);
      if (c === "]") {
        at++;
        break;
      }
      if (sets && c === "[") {
        nested = true;
        let inner = 1;
        at++;
        while (inner > 0) {
          if (at >= s.length) fail();
          const d = ch(at++);
          if (d === "\\\\") at++;
          else if (d === "[") inner++;
          else if (d === "]") inner--;
        }
        continue;
      }
      let item;
      let low = -1;
      if (c === "\\\\") {
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
        let upper;
        if (ch(at) === "\\\\") {
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
  const number = () => {
    let n = -1;
    while (at < s.length && code(at) >= 48 && code(at) <= 57) {
      n = (n < 0 ? 0 : n) * 10 + (code(at) - 48);
      if (n > 1e9) n = 1e9;
      at++;
    }
    return n;
  };
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
  const check = (body, max, start, end = at) => {
    if (found !== "" || max < 3) return;
    const always = max > 16;
    const tail = always ? body.tail : body.tailU, head = always ? body.head : body.headU;
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
  const alternation = () => {
    let shape = sequence();
    if (ch(at) !== "|") return shape;
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
  const sequence = () => {
    let shape = null;
    while (at < s.length && ch(at) !== "|" && ch(at) !== ")") {
      const next = term();
      shape = shape === null ? next : then(shape, next);
    }
    return shape ?? NOTHING;
  };
  const term = () => {
    const start = at;
    const c = ch(at++);
    let atom;
    let zeroWidth = false;
    if (c === "^" || c === "$") {
      atom = NOTHING;
      zeroWidth = true;
    } else if (c === ".") atom = character(dotAll ? ALL : complement(LINE_ENDS));
    else if (c === "[") atom = character(characterClass());
    else if (c === "\\\\") {
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
      alternatives: null
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

var MAX_VERDICTS = 512;
function installRegExpWrappers(kit) {
  const { replace, constructorOf, apply: apply2, getOwn, limitError, mapGet, mapSet } = kit;
  const RP = RegExp.prototype;
  const sourceOf = getOwn(RP, "source").get;
  const slice = String.prototype.slice;
  const FLAGS = "isuv";
  const flagGetters = [getOwn(RP, "ignoreCase").get, getOwn(RP, "dotAll").get, getOwn(RP, "unicode").get, getOwn(RP, "unicodeSets")?.get];
  const verdicts = /* @__PURE__ */ new Map();
  let kept = 0;
  const passed = /* @__PURE__ */ new WeakSet(), passedHas = WeakSet.prototype.has, passedAdd = WeakSet.prototype.add, passedDelete = WeakSet.prototype.delete;
  function check(rx, above) {
    if (apply2(passedHas, passed, [rx])) return;
    let source, flags;
    try {
      source = apply2(sourceOf, rx, []);
      flags = "";
      for (let i = 0; i < 4; i++) {
        const getter = flagGetters[i];
        if (getter !== void 0 && apply2(getter, rx, [])) flags += FLAGS[i];
      }
    } catch {
      return;
    }
    const key = flags + "/" + source;
    let part = apply2(mapGet, verdicts, [key]);
    if (part === void 0) {
      part = catastrophicPart(source, flags);
      if (kept < MAX_VERDICTS) {
        kept++;
        apply2(mapSet, verdicts, [key, part]);
      }
    }
    if (part === "") {
      apply2(passedAdd, passed, [rx]);
      return;
    }
    const shown = (text) => text.length > 200 ? apply2(slice, text, [0, 200]) + "\\u2026" : text;
    throw limitError(
      "execute stopped: the regular expression /" + shown(source) + "/" + flags + " can backtrack catastrophically (" + shown(part) + " repeats a part whose repetitions can split the same text in more than one way); make each repetition start with a character the one before cannot end with",
      above
    );
  }
  replace(RP, "exec", (original) => {
    const exec = {
      exec() {
        check(this, exec);
        return apply2(original, this, arguments);
      }
    }.exec;
    return exec;
  });
  constructorOf(globalThis, "RegExp", (args) => ({ bytes: 0, args }), check);
  if (typeof RP.compile === "function") {
    replace(
      RP,
      "compile",
      (original) => ({
        compile() {
          apply2(passedDelete, passed, [this]);
          const compiled = apply2(original, this, arguments);
          apply2(passedDelete, passed, [this]);
          return compiled;
        }
      }).compile
    );
  }
  if (typeof URLPattern === "function") {
    constructorOf(globalThis, "URLPattern", () => {
      throw limitError(
        "execute stopped: URLPattern is not available to a program (its regular expressions run where they cannot be checked); match URLs with URL and a regular expression",
        void 0
      );
    });
  }
}

function installTextWrappers(kit) {
  const {
    isFinite,
    getOwn,
    apply: apply2,
    OriginalString,
    toStr,
    isObject,
    isProxy,
    getProto,
    ownKeys,
    define,
    replace,
    charge,
    ITERATOR,
    trunc,
    toLength,
    put,
    min,
    isArray,
    max,
    maxBytes,
    setHas,
    setAdd,
    bufferBytes,
    constructorOf,
    arrayFrom,
    OriginalArray,
    typedLength,
    OriginalObject
  } = kit;
  const SP = String.prototype, RP = RegExp.prototype, OriginalJSON = JSON;
  const REPLACE = Symbol.replace, SPLIT = Symbol.split, MATCH = Symbol.match;
  const charCodeAt2 = SP.charCodeAt, includes = SP.includes, globalOf = getOwn(RP, "global").get;
  const stringValueOf = SP.valueOf, numberValueOf = Number.prototype.valueOf, ObjectPrototype = Object.prototype, RegExpPrototype = RP;
  const MapPrototype = Map.prototype, SetPrototype = Set.prototype, mapForEach = Map.prototype.forEach, setForEach = Set.prototype.forEach;
  const weakMapGet = WeakMap.prototype.get, weakMapSet = WeakMap.prototype.set;
  const hasSlot = (valueOf, v) => {
    try {
      apply2(valueOf, v, []);
      return true;
    } catch {
      return false;
    }
  };
  const thisString = (self, name) => {
    if (self === void 0 || self === null) throw new TypeError("String.prototype." + OriginalString(name) + " called on null or undefined");
    return toStr(self);
  };
  const plainRegExp = (rx) => isObject(rx) && !isProxy(rx) && getProto(rx) === RegExpPrototype && ownKeys(rx).length === 1;
  for (const key of ["exec", "flags", "global", "ignoreCase", "multiline", "dotAll", "unicode", "unicodeSets", "sticky", "hasIndices", "source"]) {
    if (getOwn(RP, key)) define(RP, key, { configurable: false });
  }
  const perChar = (object, key, bytes) => replace(
    object,
    key,
    (original) => ({
      m() {
        const s = thisString(this, key);
        charge(s.length * bytes);
        return apply2(original, s, arguments);
      }
    }).m
  );
  for (const key of ["toUpperCase", "toLowerCase", "toLocaleUpperCase", "toLocaleLowerCase", "normalize", "toWellFormed"]) if (SP[key]) perChar(SP, key, 2);
  perChar(SP, ITERATOR, 8);
  replace(
    SP,
    "repeat",
    (original) => ({
      repeat(count) {
        const s = thisString(this, "repeat"), n = trunc(+count) || 0;
        if (n >= 0 && isFinite(n)) charge(s.length * n * 2);
        return apply2(original, s, [n]);
      }
    }).repeat
  );
  for (const key of ["padStart", "padEnd"]) {
    replace(
      SP,
      key,
      (original) => ({
        m(maxLength, fill) {
          const s = thisString(this, key), n = toLength(maxLength), f = fill === void 0 ? void 0 : toStr(fill);
          if (n > s.length && f !== "") charge(n * 2);
          return apply2(original, s, [n, f]);
        }
      }).m
    );
  }
  replace(
    SP,
    "concat",
    (original) => ({
      concat() {
        const s = thisString(this, "concat"), parts = [];
        let total = s.length;
        for (let i = 0; i < arguments.length; i++) {
          const part = toStr(arguments[i]);
          put(parts, i, part);
          total += part.length;
        }
        charge(total * 2);
        return apply2(original, s, parts);
      }
    }).concat
  );
  replace(
    SP,
    "split",
    (original) => ({
      split(separator, limit) {
        if (this === void 0 || this === null) throw new TypeError("String.prototype.split called on null or undefined");
        if (separator !== void 0 && separator !== null) {
          const splitter = separator[SPLIT];
          if (splitter !== void 0 && splitter !== null) return apply2(splitter, separator, [this, limit]);
        }
        const s = toStr(this), most = limit === void 0 ? 4294967295 : limit >>> 0, sep = separator === void 0 ? void 0 : toStr(separator);
        charge(min(s.length + 1, most) * 8);
        return apply2(original, s, [sep, most]);
      }
    }).split
  );
  const replacedBytes = (s, matches, r) => {
    let dollars = 0, context = false;
    for (let i = 0; i < r.length; i++) {
      if (apply2(charCodeAt2, r, [i]) !== 36) continue;
      dollars++;
      const next = apply2(charCodeAt2, r, [i + 1]);
      if (next === 96 || next === 39) context = true;
    }
    return (s.length + matches * r.length + dollars * s.length + (context ? matches * s.length : 0)) * 2;
  };
  const chargedReplacer = (f) => function() {
    const out = toStr(apply2(f, void 0, arguments));
    charge(out.length * 2);
    return out;
  };
  const isRegExpObject = (x) => {
    try {
      return typeof apply2(globalOf, x, []) === "boolean";
    } catch {
      return false;
    }
  };
  for (const all of [false, true]) {
    const key = all ? "replaceAll" : "replace";
    replace(
      SP,
      key,
      (original) => ({
        m(pattern, replacement) {
          if (this === void 0 || this === null) throw new TypeError("String.prototype." + key + " called on null or undefined");
          if (pattern !== void 0 && pattern !== null) {
            if (all && isObject(pattern)) {
              const matcher = pattern[MATCH];
              if (matcher !== void 0 ? !!matcher : isRegExpObject(pattern)) {
                const flags = pattern.flags;
                if (flags === void 0 || flags === null || !apply2(includes, toStr(flags), ["g"]))
                  throw new TypeError("replaceAll must be called with a global RegExp");
              }
            }
            const replacer = pattern[REPLACE];
            if (replacer !== void 0 && replacer !== null) return apply2(replacer, pattern, [this, replacement]);
          }
          const s = toStr(this), p = toStr(pattern);
          if (typeof replacement === "function") {
            charge(s.length * 2);
            return apply2(original, s, [p, chargedReplacer(replacement)]);
          }
          const r = toStr(replacement);
          charge(replacedBytes(s, all ? p.length > 0 ? trunc(s.length / p.length) : s.length + 1 : 1, r));
          return apply2(original, s, [p, r]);
        }
      }).m
    );
  }
  replace(
    RP,
    REPLACE,
    (original) => ({
      m(string, replacement) {
        const s = toStr(string), global = plainRegExp(this) ? apply2(globalOf, this, []) : true;
        if (typeof replacement === "function") {
          charge(s.length * 2);
          return apply2(original, this, [s, chargedReplacer(replacement)]);
        }
        const r = toStr(replacement);
        charge(replacedBytes(s, global ? s.length + 1 : 1, r));
        return apply2(original, this, [s, r]);
      }
    }).m
  );
  replace(
    RP,
    MATCH,
    (original) => ({
      m(string) {
        const s = toStr(string);
        if (!plainRegExp(this) || apply2(globalOf, this, [])) charge((s.length + 1) * 8);
        return apply2(original, this, [s]);
      }
    }).m
  );
  replace(
    RP,
    SPLIT,
    (original) => ({
      m(string, limit) {
        const s = toStr(string);
        charge((s.length + 1) * 8);
        return apply2(original, this, [s, limit]);
      }
    }).m
  );
  replace(
    String,
    "raw",
    () => ({
      raw(template) {
        if (template === void 0 || template === null) throw new TypeError("String.raw needs a template object");
        const literals = template.raw;
        if (literals === void 0 || literals === null) throw new TypeError("String.raw needs a template object with raw strings");
        const n = toLength(literals.length);
        let out = "";
        for (let i = 0; i < n; i++) {
          const piece = toStr(literals[i]);
          charge(piece.length * 2 + 1);
          out += piece;
          if (i + 1 === n) break;
          if (i + 1 < arguments.length) {
            const sub = toStr(arguments[i + 1]);
            charge(sub.length * 2);
            out += sub;
          }
        }
        return out;
      }
    }).raw
  );
  replace(
    OriginalJSON,
    "stringify",
    (original) => ({
      stringify(value, replacer, space) {
        if (isArray(replacer)) {
          const out = apply2(original, OriginalJSON, [value, replacer, space]);
          if (typeof out === "string") charge(out.length * 2);
          return out;
        }
        const user = typeof replacer === "function" ? replacer : void 0;
        if (isObject(space)) space = hasSlot(numberValueOf, space) ? +space : hasSlot(stringValueOf, space) ? toStr(space) : space;
        const gap = typeof space === "number" ? min(10, max(0, trunc(space) || 0)) : typeof space === "string" ? min(10, space.length) : 0;
        const depths = gap > 0 ? /* @__PURE__ */ new WeakMap() : void 0;
        const visit = function(key, v) {
          if (user) v = apply2(user, this, [key, v]);
          if (isObject(v) && !isArray(v) && !isProxy(v) && getProto(v) !== ObjectPrototype) {
            if (hasSlot(stringValueOf, v)) v = toStr(v);
            else if (hasSlot(numberValueOf, v)) v = +v;
          }
          let depth = 0;
          if (depths) {
            depth = (apply2(weakMapGet, depths, [this]) ?? 0) + 1;
            if (isObject(v)) apply2(weakMapSet, depths, [v, depth]);
          }
          charge((key.length + 4 + depth * gap + (typeof v === "string" ? v.length : isObject(v) ? 2 : 24)) * 2);
          return v;
        };
        return apply2(original, OriginalJSON, [value, visit, space]);
      }
    }).stringify
  );
  replace(
    OriginalJSON,
    "parse",
    (original) => ({
      parse(text, reviver) {
        const s = toStr(text);
        charge(s.length * 4);
        return apply2(original, OriginalJSON, [s, reviver]);
      }
    }).parse
  );
  const sizeOf = (root) => {
    let total = 0;
    const seen = /* @__PURE__ */ new Set();
    const visit = (v) => {
      if (total > maxBytes) return;
      if (typeof v === "string") {
        total += v.length * 2;
        return;
      }
      if (!isObject(v)) {
        total += 8;
        return;
      }
      if (apply2(setHas, seen, [v])) return;
      apply2(setAdd, seen, [v]);
      const bytes = bufferBytes(v);
      if (bytes >= 0) {
        total += bytes;
        return;
      }
      if (isArray(v)) {
        total += v.length * 8;
        for (let i = 0; i < v.length && total <= maxBytes; i++) visit(v[i]);
        return;
      }
      const proto = getProto(v);
      if (proto === MapPrototype)
        apply2(mapForEach, v, [
          (value, key) => {
            total += 16;
            visit(key);
            visit(value);
          }
        ]);
      else if (proto === SetPrototype)
        apply2(setForEach, v, [
          (value) => {
            total += 8;
            visit(value);
          }
        ]);
      const keys = ownKeys(v);
      total += 16 + keys.length * 16;
      for (let i = 0; i < keys.length && total <= maxBytes; i++) visit(v[keys[i]]);
    };
    visit(root);
    return total;
  };
  if (typeof structuredClone === "function") {
    replace(
      globalThis,
      "structuredClone",
      (original) => ({
        structuredClone() {
          const copy = apply2(original, void 0, arguments);
          charge(sizeOf(copy));
          return copy;
        }
      }).structuredClone
    );
  }
  if (typeof TextEncoder === "function") {
    replace(
      TextEncoder.prototype,
      "encode",
      (original) => ({
        encode(input) {
          const s = input === void 0 ? "" : toStr(input);
          charge(s.length * 3);
          return apply2(original, this, [s]);
        }
      }).encode
    );
  }
  if (typeof TextDecoder === "function") {
    replace(
      TextDecoder.prototype,
      "decode",
      (original) => ({
        decode(input) {
          charge(max(bufferBytes(input), 0) * 2);
          return apply2(original, this, arguments);
        }
      }).decode
    );
  }
  const perInputChar = [
    ["btoa", 2],
    ["atob", 2],
    ["encodeURI", 9],
    ["encodeURIComponent", 9],
    ["escape", 9],
    ["decodeURI", 2],
    ["decodeURIComponent", 2],
    ["unescape", 2]
  ];
  for (let i = 0; i < perInputChar.length; i++) {
    const key = perInputChar[i][0], bytes = perInputChar[i][1];
    if (typeof globalThis[key] !== "function") continue;
    replace(
      globalThis,
      key,
      (original) => ({
        m(input) {
          if (arguments.length === 0) return apply2(original, void 0, []);
          const s = toStr(input);
          charge(s.length * bytes);
          return apply2(original, void 0, [s]);
        }
      }).m
    );
  }
  const blobSize = typeof Blob === "function" && getOwn(Blob.prototype, "size") ? getOwn(Blob.prototype, "size").get : void 0;
  const sizeOfBlob = (x) => {
    try {
      return blobSize ? apply2(blobSize, x, []) : -1;
    } catch {
      return -1;
    }
  };
  for (const name of ["Blob", "File"]) {
    constructorOf(globalThis, name, (args) => {
      if (args[0] === void 0 || args[0] === null || typeof args[0] !== "object") return { bytes: 0, args };
      const parts = apply2(arrayFrom, OriginalArray, [args[0]]), copy = [parts];
      let bytes = 0;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i], buffer = isObject(part) ? bufferBytes(part) : -1, blob = buffer < 0 && isObject(part) ? sizeOfBlob(part) : -1;
        if (buffer >= 0) bytes += buffer;
        else if (blob < 0) {
          const s = toStr(part);
          put(parts, i, s);
          bytes += s.length * 3;
        }
      }
      for (let i = 1; i < args.length; i++) put(copy, i, args[i]);
      return { bytes, args: copy };
    });
  }
  if (typeof Response === "function" && typeof Response.json === "function") {
    const chargedStringify = OriginalJSON.stringify;
    replace(
      Response,
      "json",
      (original) => ({
        json(data) {
          apply2(chargedStringify, OriginalJSON, [data]);
          return apply2(original, this, arguments);
        }
      }).json
    );
  }
  const indexed = (o) => typeof o === "string" ? o.length : isArray(o) && !isProxy(o) ? o.length : max(typedLength(o), 0);
  const perIndex = [
    [Object, "keys", 24],
    [Object, "getOwnPropertyNames", 24],
    [Object, "values", 8],
    [Object, "entries", 56],
    [Reflect, "ownKeys", 24]
  ];
  for (let i = 0; i < perIndex.length; i++) {
    const owner = perIndex[i][0], key = perIndex[i][1], bytes = perIndex[i][2];
    replace(
      owner,
      key,
      (original) => ({
        m(o) {
          charge(indexed(o) * bytes);
          return apply2(original, owner, arguments);
        }
      }).m
    );
  }
  replace(
    Object,
    "assign",
    (original) => ({
      assign(_target) {
        let n = 0;
        for (let i = 1; i < arguments.length; i++) n += indexed(arguments[i]);
        charge(n * 24);
        return apply2(original, OriginalObject, arguments);
      }
    }).assign
  );
  for (const key of ["all", "allSettled", "any", "race"]) {
    if (typeof Promise[key] !== "function") continue;
    replace(
      Promise,
      key,
      (original) => ({
        m(values) {
          charge((isArray(values) && !isProxy(values) ? values.length : 0) * 160);
          return apply2(original, this, arguments);
        }
      }).m
    );
  }
  if (typeof WebAssembly === "object" && WebAssembly !== null) {
    for (
      const [name, unit] of
      /** @type {[string, number][]} */
      [
        ["Memory", 65536],
        ["Table", 8]
      ]
    ) {
      constructorOf(WebAssembly, name, (args) => {
        const d = args[0], copy = {};
        if (!isObject(d)) return { bytes: 0, args };
        for (const key of ["element", "initial", "minimum", "maximum", "shared", "index", "address"]) {
          const v = d[key];
          if (v !== void 0) put(copy, key, v);
        }
        const copied = [copy];
        for (let i = 1; i < args.length; i++) put(copied, i, args[i]);
        return { bytes: toLength(copy.initial ?? copy.minimum) * unit, args: copied };
      });
      replace(
        WebAssembly[name].prototype,
        "grow",
        (original) => ({
          grow(delta) {
            const n = +delta;
            charge(toLength(n) * unit);
            return apply2(original, this, arguments.length > 1 ? [n, arguments[1]] : [n]);
          }
        }).grow
      );
    }
  }
}

var installed = false;
function installAllocationBudget(maxBytes) {
  if (installed) throw new TypeError("the allocation budget is installed once per run");
  installed = true;
  const R = Reflect, apply2 = R.apply, construct = R.construct, reflectGet = R.get, ownKeys = R.ownKeys;
  const define = Object.defineProperty, getOwn = Object.getOwnPropertyDescriptor, getProto = Object.getPrototypeOf;
  const OriginalProxy = Proxy, OriginalError = Error, capture = (
    /** @type {{ captureStackTrace?: (error: Error, above: Function) => void }} */
    OriginalError.captureStackTrace
  ), OriginalArray = Array, OriginalString = String;
  const arrayFrom = Array.from, isArray = Array.isArray, isView = ArrayBuffer.isView, trunc = Math.trunc, min = Math.min, max = Math.max, isFinite = Number.isFinite;
  const weakHas = WeakSet.prototype.has, weakAdd = WeakSet.prototype.add, setHas = Set.prototype.has, setAdd = Set.prototype.add;
  const setDelete = Set.prototype.delete, mapGet = Map.prototype.get, mapSet = Map.prototype.set, OriginalObject = Object;
  const ITERATOR = Symbol.iterator, SPECIES = Symbol.species, SPREADABLE = Symbol.isConcatSpreadable;
  const TypedArrayPrototype = getProto(Uint8Array.prototype);
  const taLength = getOwn(TypedArrayPrototype, "length").get, taBytes = getOwn(TypedArrayPrototype, "byteLength").get;
  const abBytes = getOwn(ArrayBuffer.prototype, "byteLength").get, dvBytes = getOwn(DataView.prototype, "byteLength").get;
  const message = "execute stopped: the program allocated more than " + maxBytes + " bytes (the allocation limit)";
  let used = 0, over = false, active = false;
  function charge(bytes) {
    if (!active) return;
    if (!over) {
      if (!(bytes <= 0)) used += bytes;
      if (!(used <= maxBytes)) over = true;
    }
    if (over) throw limitError(message, charge);
  }
  function limitError(text, above) {
    const e = new OriginalError(text);
    define(e, "name", { value: "LimitError", writable: true, configurable: true });
    if (capture) capture(e, above);
    return e;
  }
  const proxies = /* @__PURE__ */ new WeakSet();
  const isProxy = (x) => apply2(weakHas, proxies, [x]);
  const toStr = (v) => {
    if (typeof v === "string") return v;
    if (typeof v === "symbol") throw new TypeError("Cannot convert a Symbol value to a string");
    return OriginalString(v);
  };
  const toLength = (v) => {
    const n = +v;
    return n > 0 ? min(trunc(n), 9007199254740991) : 0;
  };
  const isObject = (x) => typeof x === "object" && x !== null || typeof x === "function";
  const typedLength = (x) => {
    if (!isView(x)) return -1;
    try {
      return apply2(taLength, x, []);
    } catch {
      return -1;
    }
  };
  const sabBytes = typeof SharedArrayBuffer === "function" ? getOwn(SharedArrayBuffer.prototype, "byteLength").get : void 0;
  const bufferBytes = (x) => {
    if (isView(x)) {
      try {
        return apply2(taBytes, x, []);
      } catch {
        return apply2(dvBytes, x, []);
      }
    }
    try {
      return apply2(abBytes, x, []);
    } catch {
      try {
        return sabBytes ? apply2(sabBytes, x, []) : -1;
      } catch {
        return -1;
      }
    }
  };
  function pin(x, iterable) {
    if (isArray(x) && !isProxy(x)) return { target: x, length: x.length };
    const typed = typedLength(x);
    if (typed >= 0) return { target: x, length: typed };
    if (typeof x === "string") return { target: x, length: x.length };
    if (!isObject(x)) return { target: x, length: 0 };
    const iterator = iterable ? x[ITERATOR] : void 0;
    if (iterator !== void 0 && iterator !== null)
      return {
        target: {
          [ITERATOR]() {
            return apply2(iterator, x, []);
          }
        },
        length: 0
      };
    const length = toLength(x.length);
    const target = new OriginalProxy(x, { get: (t, key) => key === "length" ? length : key === ITERATOR && iterable ? void 0 : reflectGet(t, key) });
    return { target, length };
  }
  const put = (a, i, value) => define(a, i, { value, writable: true, enumerable: true, configurable: true });
  const unpin = (result, pinned, x) => result === pinned.target && pinned.target !== x ? x : result;
  const span = (length, start, end) => {
    if (start !== void 0 && typeof start !== "number" || end !== void 0 && typeof end !== "number") return length;
    const at = (v, d) => {
      if (v === void 0) return d;
      const n = trunc(v) || 0;
      return n < 0 ? max(length + n, 0) : min(n, length);
    };
    return max(at(end, length) - at(start, 0), 0);
  };
  const fix = (object, key, value) => define(object, key, { value, writable: false, enumerable: false, configurable: false });
  const ownerOf = (object, key) => {
    let owner = object;
    while (owner !== null && !getOwn(owner, key)) owner = getProto(owner);
    return owner;
  };
  function replace(object, key, make) {
    const owner = ownerOf(object, key);
    const original = owner === null ? void 0 : getOwn(owner, key).value;
    if (typeof original !== "function") throw new TypeError("the allocation budget cannot wrap " + OriginalString(key));
    const wrapper = make(original);
    define(wrapper, "name", { value: typeof key === "symbol" ? "[" + key.description + "]" : key, configurable: true });
    define(wrapper, "length", { value: original.length, configurable: true });
    fix(owner, key, wrapper);
  }
  const perElement = (object, key, bytes, extra) => replace(
    object,
    key,
    (original) => ({
      m() {
        const pinned = pin(this);
        charge(pinned.length * bytes + (extra ? extra(pinned.length, arguments) : 0));
        return unpin(apply2(original, pinned.target, arguments), pinned, this);
      }
    }).m
  );
  const originals = /* @__PURE__ */ new Map();
  function constructorOf(global, name, estimate, check) {
    const owner = ownerOf(global, name), original = owner === null ? void 0 : getOwn(owner, name).value;
    if (typeof original !== "function") return;
    const traps = {
      apply(target, self, args) {
        const a = estimate(args);
        charge(a.bytes);
        const made = apply2(target, self, a.args);
        if (check) check(made, traps.apply);
        return made;
      },
      construct(target, args, newTarget) {
        const a = estimate(args);
        charge(a.bytes);
        const made = construct(target, a.args, newTarget === wrapper ? target : newTarget);
        if (check) check(made, traps.construct);
        return made;
      },
      get(target, key, receiver) {
        return key === SPECIES ? void 0 : reflectGet(target, key, receiver);
      }
    };
    const wrapper = new OriginalProxy(original, traps);
    apply2(mapSet, originals, [wrapper, original]);
    define(original.prototype, "constructor", { value: wrapper, writable: true, enumerable: false, configurable: false });
    define(owner, name, { value: wrapper, writable: false, enumerable: false, configurable: false });
  }
  const originalOf = (self) => apply2(mapGet, originals, [self]) ?? self;
  const kit = {
    limitError,
    mapGet,
    mapSet,
    isFinite,
    constructorOf,
    trunc,
    replace,
    pin,
    put,
    charge,
    apply: apply2,
    originalOf,
    perElement,
    fix,
    ITERATOR,
    max,
    span,
    min,
    unpin,
    toStr,
    setHas,
    setAdd,
    setDelete,
    OriginalObject,
    isObject,
    SPREADABLE,
    isArray,
    TypedArrayPrototype,
    bufferBytes,
    typedLength,
    taBytes,
    getOwn,
    toLength,
    OriginalString,
    isProxy,
    getProto,
    ownKeys,
    define,
    maxBytes,
    arrayFrom,
    OriginalArray
  };
  installArrayWrappers(kit);
  installBufferWrappers(kit);
  installTextWrappers(kit);
  installBodyWrappers(kit);
  installIteratorWrappers(kit);
  installRegExpWrappers(kit);
  const revocable = OriginalProxy.revocable;
  const RecordedProxy = function Proxy2(target, handler) {
    if (new.target === void 0) throw new TypeError("Constructor Proxy requires 'new'");
    const p = new OriginalProxy(target, handler);
    apply2(weakAdd, proxies, [p]);
    return p;
  };
  define(RecordedProxy, "prototype", { value: void 0 });
  fix(
    RecordedProxy,
    "revocable",
    {
      revocable(target, handler) {
        const r = apply2(revocable, OriginalProxy, [target, handler]);
        apply2(weakAdd, proxies, [r.proxy]);
        return r;
      }
    }.revocable
  );
  fix(globalThis, "Proxy", RecordedProxy);
  active = true;
  let renewed = false;
  return {
    renew() {
      if (!renewed) {
        renewed = true;
        used = 0;
        over = false;
      }
    }
  };
}
export {
  installAllocationBudget
};
`;
