/** Code mode's allocation budget: the sandbox module that wraps the built-ins whose one call allocates in proportion to an argument. */

import { TEXT_WRAPPERS } from "./allocation-budget-text.ts";

/** The module's name in a sandbox; its one export is `installAllocationBudget(maxBytes)`. */
export const ALLOCATION_BUDGET_FILE = "allocation-budget.js";

/**
 * The core of the module (JavaScript run in the sandbox before the program, not in the server): the
 * charge, the length snapshot, and the wrappers of arrays, typed arrays and buffers. Every built-in
 * it uses later is taken now, so a program that replaces one changes nothing here. A receiver or an
 * argument that is not a genuine array or typed array is read once (its `length` and iterator) and
 * handed to the built-in as a snapshot, so a getter cannot answer one size to the charge and another
 * to the built-in. Estimates: 8 bytes an array element or iterated value, 2 a character, a typed
 * array's own bytes. Nothing is credited back when memory is collected: the budget is cumulative.
 */
const CORE = `
let installed = false;
export function installAllocationBudget(maxBytes) {
  if (installed) throw new TypeError("the allocation budget is installed once per run");
  installed = true;
  const R = Reflect, apply = R.apply, construct = R.construct, reflectGet = R.get, ownKeys = R.ownKeys;
  const define = Object.defineProperty, getOwn = Object.getOwnPropertyDescriptor, getProto = Object.getPrototypeOf;
  const OriginalProxy = Proxy, OriginalError = Error, capture = Error.captureStackTrace, OriginalArray = Array, OriginalString = String;
  const arrayFrom = Array.from, isArray = Array.isArray, isView = ArrayBuffer.isView, trunc = Math.trunc, min = Math.min, max = Math.max, isFinite = Number.isFinite;
  const weakHas = WeakSet.prototype.has, weakAdd = WeakSet.prototype.add, setHas = Set.prototype.has, setAdd = Set.prototype.add;
  const setDelete = Set.prototype.delete, mapGet = Map.prototype.get, mapSet = Map.prototype.set, OriginalObject = Object;
  const ITERATOR = Symbol.iterator, SPECIES = Symbol.species, SPREADABLE = Symbol.isConcatSpreadable;
  const TypedArrayPrototype = getProto(Uint8Array.prototype);
  const taLength = getOwn(TypedArrayPrototype, "length").get, taBytes = getOwn(TypedArrayPrototype, "byteLength").get;
  const abBytes = getOwn(ArrayBuffer.prototype, "byteLength").get, dvBytes = getOwn(DataView.prototype, "byteLength").get;
  const message = "execute stopped: the program allocated more than " + maxBytes + " bytes (the allocation limit)";
  // Off while the wrappers are put in place (installing iterates arrays of its own), on before the program runs.
  let used = 0, over = false, active = false;
  function charge(bytes) {
    if (!active) return;
    if (!over) { if (!(bytes <= 0)) used += bytes; if (!(used <= maxBytes)) over = true; }
    if (over) {
      const e = new OriginalError(message);
      define(e, "name", { value: "LimitError", writable: true, configurable: true });
      if (capture) capture(e, charge);
      throw e;
    }
  }
  const proxies = new WeakSet();
  const isProxy = (x) => apply(weakHas, proxies, [x]);
  const toStr = (v) => { if (typeof v === "string") return v; if (typeof v === "symbol") throw new TypeError("Cannot convert a Symbol value to a string"); return OriginalString(v); };
  const toLength = (v) => { const n = +v; return n > 0 ? min(trunc(n), 9007199254740991) : 0; };
  const isObject = (x) => (typeof x === "object" && x !== null) || typeof x === "function";
  const typedLength = (x) => { if (!isView(x)) return -1; try { return apply(taLength, x, []); } catch { return -1; } };
  const sabBytes = typeof SharedArrayBuffer === "function" ? getOwn(SharedArrayBuffer.prototype, "byteLength").get : undefined;
  // The bytes of a buffer or a view; -1 when x is neither.
  const bufferBytes = (x) => {
    if (isView(x)) { try { return apply(taBytes, x, []); } catch { return apply(dvBytes, x, []); } }
    try { return apply(abBytes, x, []); } catch { try { return sabBytes ? apply(sabBytes, x, []) : -1; } catch { return -1; } }
  };
  // A value as a built-in will see it: genuine arrays and typed arrays as they are (their length
  // is an internal slot), anything else through a proxy that answers its length and iterator as read once now.
  function pin(x, iterable) {
    if (isArray(x) && !isProxy(x)) return { target: x, length: x.length };
    const typed = typedLength(x);
    if (typed >= 0) return { target: x, length: typed };
    if (typeof x === "string") return { target: x, length: x.length };
    if (!isObject(x)) return { target: x, length: 0 };
    // Where the built-in prefers an iterator (Array.from, typed array constructors), an iterable is handed over
    // as an object whose one iterator is the one read now (its values are charged as they come).
    const iterator = iterable ? x[ITERATOR] : undefined;
    if (iterator !== undefined && iterator !== null) return { target: { [ITERATOR]() { return apply(iterator, x, []); } }, length: 0 };
    const length = toLength(x.length);
    const target = new OriginalProxy(x, { get: (t, key) => (key === "length" ? length : key === ITERATOR && iterable ? undefined : reflectGet(t, key)) });
    return { target, length };
  }
  // Sets an element of an array of ours as the spec's CreateDataProperty does (a setter a program puts on Array.prototype is not called).
  const put = (a, i, value) => define(a, i, { value, writable: true, enumerable: true, configurable: true });
  const unpin = (result, pinned, x) => (result === pinned.target && pinned.target !== x ? x : result);
  // The relative span [start, end) of a length, as Array.prototype.slice computes it, when both are plain numbers.
  const span = (length, start, end) => {
    if ((start !== undefined && typeof start !== "number") || (end !== undefined && typeof end !== "number")) return length;
    const at = (v, d) => { if (v === undefined) return d; const n = trunc(v) || 0; return n < 0 ? max(length + n, 0) : min(n, length); };
    return max(at(end, length) - at(start, 0), 0);
  };
  const fix = (object, key, value) => define(object, key, { value, writable: false, enumerable: false, configurable: false });
  // Replaces a built-in where it is defined (for the global scope's functions, on its prototype), so no path reaches the original.
  const ownerOf = (object, key) => { let owner = object; while (owner !== null && !getOwn(owner, key)) owner = getProto(owner); return owner; };
  function replace(object, key, make) {
    const owner = ownerOf(object, key);
    const original = owner === null ? undefined : getOwn(owner, key).value;
    if (typeof original !== "function") throw new TypeError("the allocation budget cannot wrap " + OriginalString(key));
    const wrapper = make(original);
    define(wrapper, "name", { value: typeof key === "symbol" ? "[" + key.description + "]" : key, configurable: true });
    define(wrapper, "length", { value: original.length, configurable: true });
    fix(owner, key, wrapper);
  }
  // A method charged per element of its receiver: (receiver length) x perElement, plus extra(args).
  const perElement = (object, key, bytes, extra) => replace(object, key, (original) => ({ m() {
    const pinned = pin(this);
    charge(pinned.length * bytes + (extra ? extra(pinned.length, arguments) : 0));
    return unpin(apply(original, pinned.target, arguments), pinned, this);
  } }).m);
  // A constructor behind a proxy: charged by estimate(args) before it builds; Symbol.species reads
  // undefined, so methods that make a copy (charged themselves) build the plain kind, not through it.
  const originals = new Map();
  function constructorOf(global, name, estimate) {
    const owner = ownerOf(global, name), original = owner === null ? undefined : getOwn(owner, name).value;
    if (typeof original !== "function") return;
    const wrapper = new OriginalProxy(original, {
      apply(target, self, args) { const a = estimate(args); charge(a.bytes); return apply(target, self, a.args); },
      construct(target, args, newTarget) { const a = estimate(args); charge(a.bytes); return construct(target, a.args, newTarget === wrapper ? target : newTarget); },
      get(target, key, receiver) { return key === SPECIES ? undefined : reflectGet(target, key, receiver); },
    });
    apply(mapSet, originals, [wrapper, original]);
    define(original.prototype, "constructor", { value: wrapper, writable: true, enumerable: false, configurable: false });
    define(owner, name, { value: wrapper, writable: false, enumerable: false, configurable: false });
  }
  const originalOf = (self) => apply(mapGet, originals, [self]) ?? self;
`;

/** Arrays: the constructor, `from`/`of`, the copying methods, and `join`/`concat`/`flat` done here, so each element is read once. */
const ARRAY_WRAPPERS = `
  const P = Array.prototype;
  constructorOf(globalThis, "Array", (args) => {
    const n = args[0];
    const one = args.length === 1 && typeof n === "number" && n >= 0 && n <= 4294967295 && trunc(n) === n;
    return { bytes: (one ? n : args.length) * 8, args };
  });
  replace(Array, "from", (original) => ({ from(items) {
    const pinned = pin(items, true), args = [pinned.target];
    for (let i = 1; i < arguments.length; i++) put(args, i, arguments[i]);
    charge(pinned.length * 8);
    return apply(original, originalOf(this), args);
  } }).from);
  replace(Array, "of", (original) => ({ of() { charge(arguments.length * 8); return apply(original, originalOf(this), arguments); } }).of);
  if (typeof Array.fromAsync === "function") {
    replace(Array, "fromAsync", (original) => ({ fromAsync(items, mapFn, thisArg) { const pinned = pin(items, true); charge(pinned.length * 8); return apply(original, originalOf(this), [pinned.target, mapFn, thisArg]); } }).fromAsync);
  }
  for (const key of ["fill", "map", "filter", "sort", "toSorted", "toReversed", "with", "keys", "entries", "values"]) perElement(P, key, 8);
  fix(P, ITERATOR, P.values);
  perElement(P, "toSpliced", 8, (n, args) => max(args.length - 2, 0) * 8);
  replace(P, "slice", (original) => ({ slice(start, end) {
    const pinned = pin(this);
    charge(span(pinned.length, start, end) * 8);
    return apply(original, pinned.target, arguments);
  } }).slice);
  replace(P, "splice", (original) => ({ splice(start, count) {
    const pinned = pin(this), n = pinned.length;
    const end = arguments.length < 2 ? undefined : typeof count === "number" && typeof start === "number" ? (trunc(start) < 0 ? max(n + trunc(start), 0) : min(trunc(start), n)) + max(trunc(count) || 0, 0) : n;
    charge((arguments.length === 0 ? 0 : span(n, start, end)) * 8 + max(arguments.length - 2, 0) * 8);
    return unpin(apply(original, pinned.target, arguments), pinned, this);
  } }).splice);
  for (const key of ["push", "unshift"]) replace(P, key, (original) => ({ m() { charge(arguments.length * 8); return apply(original, this, arguments); } }).m);
  const joining = new Set();
  const joinOf = (local) => ({ join(separator) {
    const pinned = pin(this), o = pinned.target, n = pinned.length;
    const sep = local || separator === undefined ? "," : toStr(separator);
    if (apply(setHas, joining, [o])) return "";
    charge(max(n - 1, 0) * sep.length * 2);
    apply(setAdd, joining, [o]);
    try {
      let out = "";
      for (let i = 0; i < n; i++) {
        const v = o[i];
        const piece = v === undefined || v === null ? "" : toStr(local ? v.toLocaleString() : v);
        charge(piece.length * 2 + 1);
        out = i === 0 ? piece : out + sep + piece;
      }
      return out;
    } finally { apply(setDelete, joining, [o]); }
  } }).join;
  replace(P, "join", () => joinOf(false));
  replace(P, "toLocaleString", () => joinOf(true));
  replace(P, "concat", () => ({ concat() {
    const out = [];
    let n = 0;
    for (let i = -1; i < arguments.length; i++) {
      const e = i < 0 ? OriginalObject(this) : arguments[i];
      const spreadable = isObject(e) ? (e[SPREADABLE] !== undefined ? !!e[SPREADABLE] : isArray(e)) : false;
      if (!spreadable) { charge(8); put(out, n++, e); continue; }
      const pinned = pin(e), len = pinned.length, o = pinned.target;
      charge(len * 8);
      for (let k = 0; k < len; k++, n++) if (k in o) put(out, n, o[k]);
    }
    out.length = n;
    return out;
  } }).concat);
  function flatten(out, source, length, depth) {
    for (let k = 0; k < length; k++) {
      if (!(k in source)) continue;
      const e = source[k];
      if (depth > 0 && isArray(e)) { const pinned = pin(e); charge(pinned.length * 8); flatten(out, pinned.target, pinned.length, depth - 1); }
      else { put(out, out.length, e); }
    }
    return out;
  }
  replace(P, "flat", () => ({ flat(depth) {
    const pinned = pin(OriginalObject(this)), d = depth === undefined ? 1 : trunc(+depth) || 0;
    charge(pinned.length * 8);
    return flatten([], pinned.target, pinned.length, d);
  } }).flat);
  replace(P, "flatMap", () => ({ flatMap(mapper, thisArg) {
    const pinned = pin(OriginalObject(this)), o = pinned.target, out = [];
    if (typeof mapper !== "function") throw new TypeError("flatMap: the mapper is not a function");
    charge(pinned.length * 8);
    for (let k = 0; k < pinned.length; k++) {
      if (!(k in o)) continue;
      const e = apply(mapper, thisArg, [o[k], k, this]);
      if (isArray(e)) { const inner = pin(e); charge(inner.length * 8); flatten(out, inner.target, inner.length, 0); }
      else put(out, out.length, e);
    }
    return out;
  } }).flatMap);
`;

/** Typed arrays and buffers: constructors (length, array-like or iterable), copies, iterators, `resize`. */
const BUFFER_WRAPPERS = `
  const TP = TypedArrayPrototype;
  for (const name of ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"]) {
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
  const elementBytes = (x) => { const n = typedLength(x); return n > 0 ? apply(taBytes, x, []) / n : 8; };
  for (const key of ["map", "filter", "slice", "toSorted", "toReversed", "with", "sort"]) {
    replace(TP, key, (original) => ({ m() { const n = typedLength(this); charge(max(n, 0) * (key === "filter" ? 8 : elementBytes(this))); return apply(original, this, arguments); } }).m);
  }
  for (const key of ["keys", "entries", "values"]) perElement(TP, key, 8);
  fix(TP, ITERATOR, TP.values);
  for (const key of ["join", "toLocaleString"]) {
    replace(TP, key, (original) => ({ m(separator) {
      const sep = key === "join" && separator !== undefined ? toStr(separator) : separator;
      charge(max(typedLength(this), 0) * (key === "join" && sep !== undefined ? sep.length + 24 : 48) * 2);
      return apply(original, this, key === "join" ? [sep] : arguments);
    } }).m);
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
    replace(Buffer.prototype, "slice", (original) => ({ slice(start, end) { charge(span(apply(bytesOf, this, []), start, end)); return apply(original, this, arguments); } }).slice);
    for (const key of ["resize", "grow", "transfer", "transferToFixedLength"]) {
      if (typeof Buffer.prototype[key] !== "function") continue;
      replace(Buffer.prototype, key, (original) => ({ m(length) {
        const now = apply(bytesOf, this, []), next = length === undefined ? now : +length;
        charge(toLength(next) - (key === "resize" || key === "grow" ? now : 0));
        return apply(original, this, length === undefined ? [] : [next]);
      } }).m);
    }
  }
`;

/**
 * The source of the sandbox module `allocation-budget.js`. Its one export,
 * `installAllocationBudget(maxBytes)`, runs once before the program is imported; past `maxBytes`
 * (cumulative, estimated) every wrapped call throws a `LimitError`, as the loop guard does. It
 * returns `{ renew() }`, which the harness calls once when the program has returned, so its result
 * is written under a fresh budget.
 */
export const ALLOCATION_BUDGET_MODULE = `${CORE}${ARRAY_WRAPPERS}${BUFFER_WRAPPERS}${TEXT_WRAPPERS}
  // Proxy: every proxy the program makes is recorded, so pin() never takes one for a genuine array.
  const revocable = OriginalProxy.revocable;
  const RecordedProxy = function Proxy(target, handler) {
    if (new.target === undefined) throw new TypeError("Constructor Proxy requires 'new'");
    const p = new OriginalProxy(target, handler);
    apply(weakAdd, proxies, [p]);
    return p;
  };
  define(RecordedProxy, "prototype", { value: undefined });
  fix(RecordedProxy, "revocable", ({ revocable(target, handler) { const r = apply(revocable, OriginalProxy, [target, handler]); apply(weakAdd, proxies, [r.proxy]); return r; } }).revocable);
  fix(globalThis, "Proxy", RecordedProxy);
  active = true;
  // For the harness alone (the program cannot install again to get it): a fresh budget, once, to write the program's result.
  let renewed = false;
  return { renew() { if (!renewed) { renewed = true; used = 0; over = false; } } };
}
`;
