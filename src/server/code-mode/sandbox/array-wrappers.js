// @ts-check
/** Sandbox JavaScript: the allocation budget's wrappers of arrays (the constructor, `from`/`of`, the copying methods, and `join`/`concat`/`flat` done here, so each element is read once). */

/**
 * @param {import("./allocation-budget.js").BudgetKit} kit what installAllocationBudget took before the program could
 * replace anything, and its charge
 */
export function installArrayWrappers(kit) {
  const {
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
  } = kit;
  const P = Array.prototype;
  constructorOf(globalThis, "Array", (args) => {
    const n = args[0];
    const one = args.length === 1 && typeof n === "number" && n >= 0 && n <= 4294967295 && trunc(n) === n;
    return { bytes: (one ? n : args.length) * 8, args };
  });
  replace(
    Array,
    "from",
    (original) =>
      ({
        from(items) {
          const pinned = pin(items, true),
            args = [pinned.target];
          for (let i = 1; i < arguments.length; i++) put(args, i, arguments[i]);
          charge(pinned.length * 8);
          return apply(original, originalOf(this), args);
        },
      }).from,
  );
  replace(
    Array,
    "of",
    (original) =>
      ({
        of() {
          charge(arguments.length * 8);
          return apply(original, originalOf(this), arguments);
        },
      }).of,
  );
  if (typeof Array.fromAsync === "function") {
    replace(
      Array,
      "fromAsync",
      (original) =>
        ({
          fromAsync(items, mapFn, thisArg) {
            const pinned = pin(items, true);
            charge(pinned.length * 8);
            return apply(original, originalOf(this), [pinned.target, mapFn, thisArg]);
          },
        }).fromAsync,
    );
  }
  for (const key of ["fill", "map", "filter", "sort", "toSorted", "toReversed", "with", "keys", "entries", "values"]) perElement(P, key, 8);
  fix(P, ITERATOR, P.values);
  perElement(P, "toSpliced", 8, (n, args) => max(args.length - 2, 0) * 8);
  replace(
    P,
    "slice",
    (original) =>
      ({
        slice(start, end) {
          const pinned = pin(this);
          charge(span(pinned.length, start, end) * 8);
          return apply(original, pinned.target, arguments);
        },
      }).slice,
  );
  replace(
    P,
    "splice",
    (original) =>
      ({
        splice(start, count) {
          const pinned = pin(this),
            n = pinned.length;
          const end =
            arguments.length < 2
              ? undefined
              : typeof count === "number" && typeof start === "number"
                ? (trunc(start) < 0 ? max(n + trunc(start), 0) : min(trunc(start), n)) + max(trunc(count) || 0, 0)
                : n;
          charge((arguments.length === 0 ? 0 : span(n, start, end)) * 8 + max(arguments.length - 2, 0) * 8);
          return unpin(apply(original, pinned.target, arguments), pinned, this);
        },
      }).splice,
  );
  for (const key of ["push", "unshift"])
    replace(
      P,
      key,
      (original) =>
        ({
          m() {
            charge(arguments.length * 8);
            return apply(original, this, arguments);
          },
        }).m,
    );
  const joining = new Set();
  const joinOf = (local) =>
    ({
      join(separator) {
        const pinned = pin(this),
          o = pinned.target,
          n = pinned.length;
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
        } finally {
          apply(setDelete, joining, [o]);
        }
      },
    }).join;
  replace(P, "join", () => joinOf(false));
  replace(P, "toLocaleString", () => joinOf(true));
  replace(
    P,
    "concat",
    () =>
      ({
        concat() {
          const out = [];
          let n = 0;
          for (let i = -1; i < arguments.length; i++) {
            const e = i < 0 ? OriginalObject(this) : arguments[i];
            const spreadable = isObject(e) ? (e[SPREADABLE] !== undefined ? !!e[SPREADABLE] : isArray(e)) : false;
            if (!spreadable) {
              charge(8);
              put(out, n++, e);
              continue;
            }
            const pinned = pin(e),
              len = pinned.length,
              o = pinned.target;
            charge(len * 8);
            for (let k = 0; k < len; k++, n++) if (k in o) put(out, n, o[k]);
          }
          out.length = n;
          return out;
        },
      }).concat,
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
    () =>
      ({
        flat(depth) {
          const pinned = pin(OriginalObject(this)),
            d = depth === undefined ? 1 : trunc(+depth) || 0;
          charge(pinned.length * 8);
          return flatten([], pinned.target, pinned.length, d);
        },
      }).flat,
  );
  replace(
    P,
    "flatMap",
    () =>
      ({
        flatMap(mapper, thisArg) {
          const pinned = pin(OriginalObject(this)),
            o = pinned.target,
            out = [];
          if (typeof mapper !== "function") throw new TypeError("flatMap: the mapper is not a function");
          charge(pinned.length * 8);
          for (let k = 0; k < pinned.length; k++) {
            if (!(k in o)) continue;
            const e = apply(mapper, thisArg, [o[k], k, this]);
            if (isArray(e)) {
              const inner = pin(e);
              charge(inner.length * 8);
              flatten(out, inner.target, inner.length, 0);
            } else put(out, out.length, e);
          }
          return out;
        },
      }).flatMap,
  );
}
