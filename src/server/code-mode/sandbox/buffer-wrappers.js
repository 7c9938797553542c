// @ts-check
/** Sandbox JavaScript: the allocation budget's wrappers of typed arrays and buffers (constructors of a length, an array-like or an iterable; copies, iterators, `resize`). */

/**
 * @param {import("./allocation-budget.js").BudgetKit} kit what installAllocationBudget took before the program could
 * replace anything, and its charge
 */
export function installBufferWrappers(kit) {
  const {
    TypedArrayPrototype,
    constructorOf,
    isObject,
    bufferBytes,
    typedLength,
    pin,
    put,
    apply,
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
    span,
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
    "BigUint64Array",
  ]) {
    const size = globalThis[name] ? globalThis[name].BYTES_PER_ELEMENT : 0;
    constructorOf(globalThis, name, (args) => {
      const first = args[0];
      if (!isObject(first)) return { bytes: typeof first === "number" && first > 0 ? first * size : 0, args };
      if (bufferBytes(first) >= 0 && typedLength(first) < 0) return { bytes: 0, args };
      const pinned = pin(first, true),
        copy = [pinned.target];
      for (let i = 1; i < args.length; i++) put(copy, i, args[i]);
      return { bytes: pinned.length * size, args: copy };
    });
  }
  const elementBytes = (x) => {
    const n = typedLength(x);
    return n > 0 ? apply(taBytes, x, []) / n : 8;
  };
  for (const key of ["map", "filter", "slice", "toSorted", "toReversed", "with", "sort"]) {
    replace(
      TP,
      key,
      (original) =>
        ({
          m() {
            const n = typedLength(this);
            charge(max(n, 0) * (key === "filter" ? 8 : elementBytes(this)));
            return apply(original, this, arguments);
          },
        }).m,
    );
  }
  for (const key of ["keys", "entries", "values"]) perElement(TP, key, 8);
  fix(TP, ITERATOR, TP.values);
  for (const key of ["join", "toLocaleString"]) {
    replace(
      TP,
      key,
      (original) =>
        ({
          m(separator) {
            const sep = key === "join" && separator !== undefined ? toStr(separator) : separator;
            charge(max(typedLength(this), 0) * (key === "join" && sep !== undefined ? sep.length + 24 : 48) * 2);
            return apply(original, this, key === "join" ? [sep] : arguments);
          },
        }).m,
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
      (original) =>
        ({
          slice(start, end) {
            charge(span(apply(bytesOf, this, []), start, end));
            return apply(original, this, arguments);
          },
        }).slice,
    );
    for (const key of ["resize", "grow", "transfer", "transferToFixedLength"]) {
      if (typeof Buffer.prototype[key] !== "function") continue;
      replace(
        Buffer.prototype,
        key,
        (original) =>
          ({
            m(length) {
              const now = apply(bytesOf, this, []),
                next = length === undefined ? now : +length;
              charge(toLength(next) - (key === "resize" || key === "grow" ? now : 0));
              return apply(original, this, length === undefined ? [] : [next]);
            },
          }).m,
      );
    }
  }
}
