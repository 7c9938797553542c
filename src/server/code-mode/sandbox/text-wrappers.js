// @ts-check
/* global Blob, WebAssembly -- sandbox globals (workerd) */
/** Sandbox JavaScript: the allocation budget's wrappers of strings, regular expressions, JSON, encoders, `structuredClone`, `Blob`, `Object.keys`, promises and WebAssembly memories */

/**
 * Installed by `installAllocationBudget` (allocation-budget.js), with that function's `charge`,
 * `replace`, `toStr` and captured built-ins. A receiver or an argument is converted to a
 * string once, here, and the built-in gets the string: a `toString` cannot answer one size to the
 * charge and another to the built-in. Estimates: 2 bytes a character of the result (an upper bound
 * of the result's length where it is not known, as for a replacement applied to every match).
 */

/**
 * @param {import("./allocation-budget.js").BudgetKit} kit what installAllocationBudget took before the program could
 * replace anything, and its charge
 */
export function installTextWrappers(kit) {
  const {
    isFinite,
    getOwn,
    apply,
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
    OriginalObject,
  } = kit;
  const SP = String.prototype,
    RP = RegExp.prototype,
    OriginalJSON = JSON;
  const REPLACE = Symbol.replace,
    SPLIT = Symbol.split,
    MATCH = Symbol.match;
  const charCodeAt = SP.charCodeAt,
    includes = SP.includes,
    globalOf = getOwn(RP, "global").get;
  const stringValueOf = SP.valueOf,
    numberValueOf = Number.prototype.valueOf,
    ObjectPrototype = Object.prototype,
    RegExpPrototype = RP;
  const MapPrototype = Map.prototype,
    SetPrototype = Set.prototype,
    mapForEach = Map.prototype.forEach,
    setForEach = Set.prototype.forEach;
  const weakMapGet = WeakMap.prototype.get,
    weakMapSet = WeakMap.prototype.set;
  const hasSlot = (valueOf, v) => {
    try {
      apply(valueOf, v, []);
      return true;
    } catch {
      return false;
    }
  };
  const thisString = (self, name) => {
    if (self === undefined || self === null) throw new TypeError("String.prototype." + OriginalString(name) + " called on null or undefined");
    return toStr(self);
  };
  // A regular expression whose flags and exec are the built-ins' (RegExp.prototype's are frozen below), so reading its flags here reads what the built-in will.
  const plainRegExp = (rx) => isObject(rx) && !isProxy(rx) && getProto(rx) === RegExpPrototype && ownKeys(rx).length === 1;
  for (const key of ["exec", "flags", "global", "ignoreCase", "multiline", "dotAll", "unicode", "unicodeSets", "sticky", "hasIndices", "source"]) {
    if (getOwn(RP, key)) define(RP, key, { configurable: false });
  }
  const perChar = (object, key, bytes) =>
    replace(
      object,
      key,
      (original) =>
        ({
          m() {
            const s = thisString(this, key);
            charge(s.length * bytes);
            return apply(original, s, arguments);
          },
        }).m,
    );
  for (const key of ["toUpperCase", "toLowerCase", "toLocaleUpperCase", "toLocaleLowerCase", "normalize", "toWellFormed"]) if (SP[key]) perChar(SP, key, 2);
  perChar(SP, ITERATOR, 8);
  replace(
    SP,
    "repeat",
    (original) =>
      ({
        repeat(count) {
          const s = thisString(this, "repeat"),
            n = trunc(+count) || 0;
          if (n >= 0 && isFinite(n)) charge(s.length * n * 2);
          return apply(original, s, [n]);
        },
      }).repeat,
  );
  for (const key of ["padStart", "padEnd"]) {
    replace(
      SP,
      key,
      (original) =>
        ({
          m(maxLength, fill) {
            const s = thisString(this, key),
              n = toLength(maxLength),
              f = fill === undefined ? undefined : toStr(fill);
            if (n > s.length && f !== "") charge(n * 2);
            return apply(original, s, [n, f]);
          },
        }).m,
    );
  }
  replace(
    SP,
    "concat",
    (original) =>
      ({
        concat() {
          const s = thisString(this, "concat"),
            parts = [];
          let total = s.length;
          for (let i = 0; i < arguments.length; i++) {
            const part = toStr(arguments[i]);
            put(parts, i, part);
            total += part.length;
          }
          charge(total * 2);
          return apply(original, s, parts);
        },
      }).concat,
  );
  replace(
    SP,
    "split",
    (original) =>
      ({
        split(separator, limit) {
          if (this === undefined || this === null) throw new TypeError("String.prototype.split called on null or undefined");
          if (separator !== undefined && separator !== null) {
            const splitter = separator[SPLIT];
            if (splitter !== undefined && splitter !== null) return apply(splitter, separator, [this, limit]);
          }
          const s = toStr(this),
            most = limit === undefined ? 4294967295 : limit >>> 0,
            sep = separator === undefined ? undefined : toStr(separator);
          charge(min(s.length + 1, most) * 8);
          return apply(original, s, [sep, most]);
        },
      }).split,
  );
  // The most a replacement can give: the text, the replacement per match, and for each "$" a copy of
  // the text (captures), or of the text per match for the patterns of the text before and after a match.
  const replacedBytes = (s, matches, r) => {
    let dollars = 0,
      context = false;
    for (let i = 0; i < r.length; i++) {
      if (apply(charCodeAt, r, [i]) !== 36) continue;
      dollars++;
      const next = apply(charCodeAt, r, [i + 1]);
      if (next === 96 || next === 39) context = true;
    }
    return (s.length + matches * r.length + dollars * s.length + (context ? matches * s.length : 0)) * 2;
  };
  // A function replacement: each piece it gives is charged as it comes.
  const chargedReplacer = (f) =>
    function () {
      const out = toStr(apply(f, undefined, arguments));
      charge(out.length * 2);
      return out;
    };
  const isRegExpObject = (x) => {
    try {
      return typeof apply(globalOf, x, []) === "boolean";
    } catch {
      return false;
    }
  };
  for (const all of [false, true]) {
    const key = all ? "replaceAll" : "replace";
    replace(
      SP,
      key,
      (original) =>
        ({
          m(pattern, replacement) {
            if (this === undefined || this === null) throw new TypeError("String.prototype." + key + " called on null or undefined");
            if (pattern !== undefined && pattern !== null) {
              if (all && isObject(pattern)) {
                const matcher = pattern[MATCH];
                if (matcher !== undefined ? !!matcher : isRegExpObject(pattern)) {
                  const flags = pattern.flags;
                  if (flags === undefined || flags === null || !apply(includes, toStr(flags), ["g"]))
                    throw new TypeError("replaceAll must be called with a global RegExp");
                }
              }
              const replacer = pattern[REPLACE];
              if (replacer !== undefined && replacer !== null) return apply(replacer, pattern, [this, replacement]);
            }
            const s = toStr(this),
              p = toStr(pattern);
            if (typeof replacement === "function") {
              charge(s.length * 2);
              return apply(original, s, [p, chargedReplacer(replacement)]);
            }
            const r = toStr(replacement);
            charge(replacedBytes(s, all ? (p.length > 0 ? trunc(s.length / p.length) : s.length + 1) : 1, r));
            return apply(original, s, [p, r]);
          },
        }).m,
    );
  }
  replace(
    RP,
    REPLACE,
    (original) =>
      ({
        m(string, replacement) {
          const s = toStr(string),
            global = plainRegExp(this) ? apply(globalOf, this, []) : true;
          if (typeof replacement === "function") {
            charge(s.length * 2);
            return apply(original, this, [s, chargedReplacer(replacement)]);
          }
          const r = toStr(replacement);
          charge(replacedBytes(s, global ? s.length + 1 : 1, r));
          return apply(original, this, [s, r]);
        },
      }).m,
  );
  replace(
    RP,
    MATCH,
    (original) =>
      ({
        m(string) {
          const s = toStr(string);
          if (!plainRegExp(this) || apply(globalOf, this, [])) charge((s.length + 1) * 8);
          return apply(original, this, [s]);
        },
      }).m,
  );
  replace(
    RP,
    SPLIT,
    (original) =>
      ({
        m(string, limit) {
          const s = toStr(string);
          charge((s.length + 1) * 8);
          return apply(original, this, [s, limit]);
        },
      }).m,
  );
  replace(
    String,
    "raw",
    () =>
      ({
        raw(template) {
          if (template === undefined || template === null) throw new TypeError("String.raw needs a template object");
          const literals = template.raw;
          if (literals === undefined || literals === null) throw new TypeError("String.raw needs a template object with raw strings");
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
        },
      }).raw,
  );
  // JSON.stringify charges every value as the built-in visits it, through a replacer (the program's own runs first).
  replace(
    OriginalJSON,
    "stringify",
    (original) =>
      ({
        stringify(value, replacer, space) {
          if (isArray(replacer)) {
            // A property list: charged after the call (the list cannot be combined with a charging replacer).
            const out = apply(original, OriginalJSON, [value, replacer, space]);
            if (typeof out === "string") charge(out.length * 2);
            return out;
          }
          const user = typeof replacer === "function" ? replacer : undefined;
          if (isObject(space)) space = hasSlot(numberValueOf, space) ? +space : hasSlot(stringValueOf, space) ? toStr(space) : space;
          const gap = typeof space === "number" ? min(10, max(0, trunc(space) || 0)) : typeof space === "string" ? min(10, space.length) : 0;
          const depths = gap > 0 ? new WeakMap() : undefined;
          const visit = function (key, v) {
            if (user) v = apply(user, this, [key, v]);
            if (isObject(v) && !isArray(v) && !isProxy(v) && getProto(v) !== ObjectPrototype) {
              if (hasSlot(stringValueOf, v)) v = toStr(v);
              else if (hasSlot(numberValueOf, v)) v = +v;
            }
            let depth = 0;
            if (depths) {
              depth = (apply(weakMapGet, depths, [this]) ?? 0) + 1;
              if (isObject(v)) apply(weakMapSet, depths, [v, depth]);
            }
            charge((key.length + 4 + depth * gap + (typeof v === "string" ? v.length : isObject(v) ? 2 : 24)) * 2);
            return v;
          };
          return apply(original, OriginalJSON, [value, visit, space]);
        },
      }).stringify,
  );
  replace(
    OriginalJSON,
    "parse",
    (original) =>
      ({
        parse(text, reviver) {
          const s = toStr(text);
          charge(s.length * 4);
          return apply(original, OriginalJSON, [s, reviver]);
        },
      }).parse,
  );
  // structuredClone: a copy is at most what already exists, so its size is charged after the call, read off the copy (fresh data, no getters).
  const sizeOf = (root) => {
    let total = 0;
    const seen = new Set();
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
      if (apply(setHas, seen, [v])) return;
      apply(setAdd, seen, [v]);
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
        apply(mapForEach, v, [
          (value, key) => {
            total += 16;
            visit(key);
            visit(value);
          },
        ]);
      else if (proto === SetPrototype)
        apply(setForEach, v, [
          (value) => {
            total += 8;
            visit(value);
          },
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
      (original) =>
        ({
          structuredClone() {
            const copy = apply(original, undefined, arguments);
            charge(sizeOf(copy));
            return copy;
          },
        }).structuredClone,
    );
  }
  if (typeof TextEncoder === "function") {
    replace(
      TextEncoder.prototype,
      "encode",
      (original) =>
        ({
          encode(input) {
            const s = input === undefined ? "" : toStr(input);
            charge(s.length * 3);
            return apply(original, this, [s]);
          },
        }).encode,
    );
  }
  if (typeof TextDecoder === "function") {
    replace(
      TextDecoder.prototype,
      "decode",
      (original) =>
        ({
          decode(input) {
            charge(max(bufferBytes(input), 0) * 2);
            return apply(original, this, arguments);
          },
        }).decode,
    );
  }
  /** @type {[string, number][]} */
  const perInputChar = [
    ["btoa", 2],
    ["atob", 2],
    ["encodeURI", 9],
    ["encodeURIComponent", 9],
    ["escape", 9],
    ["decodeURI", 2],
    ["decodeURIComponent", 2],
    ["unescape", 2],
  ];
  for (let i = 0; i < perInputChar.length; i++) {
    const key = perInputChar[i][0],
      bytes = perInputChar[i][1];
    if (typeof globalThis[key] !== "function") continue;
    replace(
      globalThis,
      key,
      (original) =>
        ({
          m(input) {
            if (arguments.length === 0) return apply(original, undefined, []);
            const s = toStr(input);
            charge(s.length * bytes);
            return apply(original, undefined, [s]);
          },
        }).m,
    );
  }
  // Blob and File: the parts are read once into an array of strings, buffers and blobs, charged, and that array is what the constructor gets.
  const blobSize = typeof Blob === "function" && getOwn(Blob.prototype, "size") ? getOwn(Blob.prototype, "size").get : undefined;
  const sizeOfBlob = (x) => {
    try {
      return blobSize ? apply(blobSize, x, []) : -1;
    } catch {
      return -1;
    }
  };
  for (const name of ["Blob", "File"]) {
    constructorOf(globalThis, name, (args) => {
      if (args[0] === undefined || args[0] === null || typeof args[0] !== "object") return { bytes: 0, args };
      const parts = apply(arrayFrom, OriginalArray, [args[0]]),
        copy = [parts];
      let bytes = 0;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i],
          buffer = isObject(part) ? bufferBytes(part) : -1,
          blob = buffer < 0 && isObject(part) ? sizeOfBlob(part) : -1;
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
      (original) =>
        ({
          json(data) {
            apply(chargedStringify, OriginalJSON, [data]);
            return apply(original, this, arguments);
          },
        }).json,
    );
  }
  // Own keys of an array, a typed array or a string: one string (or entry) per index.
  const indexed = (o) => (typeof o === "string" ? o.length : isArray(o) && !isProxy(o) ? o.length : max(typedLength(o), 0));
  /** @type {[object, string, number][]} */
  const perIndex = [
    [Object, "keys", 24],
    [Object, "getOwnPropertyNames", 24],
    [Object, "values", 8],
    [Object, "entries", 56],
    [Reflect, "ownKeys", 24],
  ];
  for (let i = 0; i < perIndex.length; i++) {
    const owner = perIndex[i][0],
      key = perIndex[i][1],
      bytes = perIndex[i][2];
    replace(
      owner,
      key,
      (original) =>
        ({
          m(o) {
            charge(indexed(o) * bytes);
            return apply(original, owner, arguments);
          },
        }).m,
    );
  }
  replace(
    Object,
    "assign",
    (original) =>
      ({
        assign(_target) {
          let n = 0;
          for (let i = 1; i < arguments.length; i++) n += indexed(arguments[i]);
          charge(n * 24);
          return apply(original, OriginalObject, arguments);
        },
      }).assign,
  );
  // Promise combinators make a promise and two functions per element of an array (its iterator charges 8 bytes only).
  for (const key of ["all", "allSettled", "any", "race"]) {
    if (typeof Promise[key] !== "function") continue;
    replace(
      Promise,
      key,
      (original) =>
        ({
          m(values) {
            charge((isArray(values) && !isProxy(values) ? values.length : 0) * 160);
            return apply(original, this, arguments);
          },
        }).m,
    );
  }
  // WebAssembly memories and tables (no module needed to make one): 64 KiB a page, 8 bytes an element, charged on creation and growth.
  if (typeof WebAssembly === "object" && WebAssembly !== null) {
    for (const [name, unit] of /** @type {[string, number][]} */ ([
      ["Memory", 65536],
      ["Table", 8],
    ])) {
      constructorOf(WebAssembly, name, (args) => {
        const d = args[0],
          copy = {};
        if (!isObject(d)) return { bytes: 0, args };
        for (const key of ["element", "initial", "minimum", "maximum", "shared", "index", "address"]) {
          const v = d[key];
          if (v !== undefined) put(copy, key, v);
        }
        const copied = [copy];
        for (let i = 1; i < args.length; i++) put(copied, i, args[i]);
        return { bytes: toLength(copy.initial ?? copy.minimum) * unit, args: copied };
      });
      replace(
        WebAssembly[name].prototype,
        "grow",
        (original) =>
          ({
            grow(delta) {
              const n = +delta;
              charge(toLength(n) * unit);
              return apply(original, this, arguments.length > 1 ? [n, arguments[1]] : [n]);
            },
          }).grow,
      );
    }
  }
}
