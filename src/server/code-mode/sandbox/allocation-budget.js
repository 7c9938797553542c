// @ts-check
/**
 * Sandbox JavaScript: code mode's allocation budget, the module `allocation-budget.js` of a sandbox. Its one export,
 * `installAllocationBudget(maxBytes)`, runs once before the program is imported; past `maxBytes` (cumulative,
 * estimated) every wrapped call throws a `LimitError`, as the loop guard does. It returns `{ renew() }`, which the
 * harness calls once when the program has returned, so its result is written under a fresh budget. The server ships
 * it as text (npm run build:sandbox writes ../allocation-budget-module.ts from it and the wrappers it imports).
 */

import { installArrayWrappers } from "./array-wrappers.js";
import { installBodyWrappers } from "./body-wrappers.js";
import { installBufferWrappers } from "./buffer-wrappers.js";
import { installIteratorWrappers } from "./iterator-wrappers.js";
import { installRegExpWrappers } from "./regexp-wrappers.js";
import { installTextWrappers } from "./text-wrappers.js";

/** @typedef {Record<string, any>} BudgetKit What the wrappers take from installAllocationBudget: its charge and the built-ins it captured. */

/**
 * The core of the module: the charge, the length snapshot, and the helpers the wrappers of arrays, typed arrays,
 * buffers and text use. Every built-in
 * it uses later is taken now, so a program that replaces one changes nothing here. A receiver or an
 * argument that is not a genuine array or typed array is read once (its `length` and iterator) and
 * handed to the built-in as a snapshot, so a getter cannot answer one size to the charge and another
 * to the built-in. Estimates: 8 bytes an array element or iterated value, 2 a character, a typed
 * array's own bytes. Nothing is credited back when memory is collected: the budget is cumulative.
 */
let installed = false;
export function installAllocationBudget(maxBytes) {
  if (installed) throw new TypeError("the allocation budget is installed once per run");
  installed = true;
  const R = Reflect,
    apply = R.apply,
    construct = R.construct,
    reflectGet = R.get,
    ownKeys = R.ownKeys;
  const define = Object.defineProperty,
    getOwn = Object.getOwnPropertyDescriptor,
    getProto = Object.getPrototypeOf;
  const OriginalProxy = Proxy,
    OriginalError = Error,
    capture = /** @type {{ captureStackTrace?: (error: Error, above: Function) => void }} */ (OriginalError).captureStackTrace,
    OriginalArray = Array,
    OriginalString = String;
  const arrayFrom = Array.from,
    isArray = Array.isArray,
    isView = ArrayBuffer.isView,
    trunc = Math.trunc,
    min = Math.min,
    max = Math.max,
    isFinite = Number.isFinite;
  const weakHas = WeakSet.prototype.has,
    weakAdd = WeakSet.prototype.add,
    setHas = Set.prototype.has,
    setAdd = Set.prototype.add;
  const setDelete = Set.prototype.delete,
    mapGet = Map.prototype.get,
    mapSet = Map.prototype.set,
    OriginalObject = Object;
  const ITERATOR = Symbol.iterator,
    SPECIES = Symbol.species,
    SPREADABLE = Symbol.isConcatSpreadable;
  const TypedArrayPrototype = getProto(Uint8Array.prototype);
  const taLength = getOwn(TypedArrayPrototype, "length").get,
    taBytes = getOwn(TypedArrayPrototype, "byteLength").get;
  const abBytes = getOwn(ArrayBuffer.prototype, "byteLength").get,
    dvBytes = getOwn(DataView.prototype, "byteLength").get;
  const message = "execute stopped: the program allocated more than " + maxBytes + " bytes (the allocation limit)";
  // Off while the wrappers are put in place (installing iterates arrays of its own), on before the program runs.
  let used = 0,
    over = false,
    active = false;
  function charge(bytes) {
    if (!active) return;
    if (!over) {
      if (!(bytes <= 0)) used += bytes;
      if (!(used <= maxBytes)) over = true;
    }
    if (over) throw limitError(message, charge);
  }
  // A LimitError whose stack starts at the caller of `above` (the program's line).
  function limitError(text, above) {
    const e = new OriginalError(text);
    define(e, "name", { value: "LimitError", writable: true, configurable: true });
    if (capture) capture(e, above);
    return e;
  }
  const proxies = new WeakSet();
  const isProxy = (x) => apply(weakHas, proxies, [x]);
  const toStr = (v) => {
    if (typeof v === "string") return v;
    if (typeof v === "symbol") throw new TypeError("Cannot convert a Symbol value to a string");
    return OriginalString(v);
  };
  const toLength = (v) => {
    const n = +v;
    return n > 0 ? min(trunc(n), 9007199254740991) : 0;
  };
  const isObject = (x) => (typeof x === "object" && x !== null) || typeof x === "function";
  const typedLength = (x) => {
    if (!isView(x)) return -1;
    try {
      return apply(taLength, x, []);
    } catch {
      return -1;
    }
  };
  const sabBytes = typeof SharedArrayBuffer === "function" ? getOwn(SharedArrayBuffer.prototype, "byteLength").get : undefined;
  // The bytes of a buffer or a view; -1 when x is neither.
  const bufferBytes = (x) => {
    if (isView(x)) {
      try {
        return apply(taBytes, x, []);
      } catch {
        return apply(dvBytes, x, []);
      }
    }
    try {
      return apply(abBytes, x, []);
    } catch {
      try {
        return sabBytes ? apply(sabBytes, x, []) : -1;
      } catch {
        return -1;
      }
    }
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
    if (iterator !== undefined && iterator !== null)
      return {
        target: {
          [ITERATOR]() {
            return apply(iterator, x, []);
          },
        },
        length: 0,
      };
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
    const at = (v, d) => {
      if (v === undefined) return d;
      const n = trunc(v) || 0;
      return n < 0 ? max(length + n, 0) : min(n, length);
    };
    return max(at(end, length) - at(start, 0), 0);
  };
  const fix = (object, key, value) => define(object, key, { value, writable: false, enumerable: false, configurable: false });
  // Replaces a built-in where it is defined (for the global scope's functions, on its prototype), so no path reaches the original.
  const ownerOf = (object, key) => {
    let owner = object;
    while (owner !== null && !getOwn(owner, key)) owner = getProto(owner);
    return owner;
  };
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
  const perElement = (object, key, bytes, extra) =>
    replace(
      object,
      key,
      (original) =>
        ({
          m() {
            const pinned = pin(this);
            charge(pinned.length * bytes + (extra ? extra(pinned.length, arguments) : 0));
            return unpin(apply(original, pinned.target, arguments), pinned, this);
          },
        }).m,
    );
  // A constructor behind a proxy: charged by estimate(args) before it builds, and what it built given to check (which
  // may throw), if any; Symbol.species reads
  // undefined, so methods that make a copy (charged themselves) build the plain kind, not through it.
  const originals = new Map();
  function constructorOf(global, name, estimate, check) {
    const owner = ownerOf(global, name),
      original = owner === null ? undefined : getOwn(owner, name).value;
    if (typeof original !== "function") return;
    const traps = {
      apply(target, self, args) {
        const a = estimate(args);
        charge(a.bytes);
        const made = apply(target, self, a.args);
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
        return key === SPECIES ? undefined : reflectGet(target, key, receiver);
      },
    };
    const wrapper = new OriginalProxy(original, traps);
    apply(mapSet, originals, [wrapper, original]);
    define(original.prototype, "constructor", { value: wrapper, writable: true, enumerable: false, configurable: false });
    define(owner, name, { value: wrapper, writable: false, enumerable: false, configurable: false });
  }
  const originalOf = (self) => apply(mapGet, originals, [self]) ?? self;
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
    apply,
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
    OriginalArray,
  };
  installArrayWrappers(kit);
  installBufferWrappers(kit);
  installTextWrappers(kit);
  installBodyWrappers(kit);
  installIteratorWrappers(kit);
  installRegExpWrappers(kit);
  // Proxy: every proxy the program makes is recorded, so pin() never takes one for a genuine array.
  const revocable = OriginalProxy.revocable;
  const RecordedProxy = function Proxy(target, handler) {
    if (new.target === undefined) throw new TypeError("Constructor Proxy requires 'new'");
    const p = new OriginalProxy(target, handler);
    apply(weakAdd, proxies, [p]);
    return p;
  };
  define(RecordedProxy, "prototype", { value: undefined });
  fix(
    RecordedProxy,
    "revocable",
    {
      revocable(target, handler) {
        const r = apply(revocable, OriginalProxy, [target, handler]);
        apply(weakAdd, proxies, [r.proxy]);
        return r;
      },
    }.revocable,
  );
  fix(globalThis, "Proxy", RecordedProxy);
  active = true;
  // For the harness alone (the program cannot install again to get it): a fresh budget, once, to write the program's result.
  let renewed = false;
  return {
    renew() {
      if (!renewed) {
        renewed = true;
        used = 0;
        over = false;
      }
    },
  };
}
