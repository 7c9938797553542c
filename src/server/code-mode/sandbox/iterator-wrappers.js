// @ts-check
/** Sandbox JavaScript: the allocation budget's charges for built-in iterators whose length is not known up front, collections that grow an entry a call, descriptors and argument lists. */

/**
 * @param {import("./allocation-budget.js").BudgetKit} kit what installAllocationBudget took before the program could
 * replace anything, and its charge
 */
export function installIteratorWrappers(kit) {
  const { replace, charge, apply, ownKeys, getProto, OriginalObject } = kit;
  // Each step of these iterators makes a value (a match array, a segment record, an entry pair): charged per step,
  // so spreading one (`[..."x".repeat(n).matchAll(/x/g)]`) is charged like spreading an array.
  const perStep = (iterator, bytes) => {
    const proto = getProto(iterator);
    replace(
      proto,
      "next",
      (original) =>
        ({
          next() {
            charge(bytes);
            return apply(original, this, arguments);
          },
        }).next,
    );
  };
  perStep(apply(String.prototype.matchAll, "", [/x/g]), 64);
  perStep(new Map().entries(), 24);
  perStep(new Set().values(), 16);
  if (typeof Intl === "object" && typeof Intl.Segmenter === "function") perStep(new Intl.Segmenter().segment("")[Symbol.iterator](), 96);
  // A collection grows by one entry a call of set or add (and so does its constructor, which calls them): charged when
  // the key is new (24 bytes a Map entry, 16 a Set entry), so updating an entry costs nothing.
  const grows = (/** @type {any} */ proto, /** @type {string} */ key, /** @type {number} */ bytes) => {
    const has = proto.has;
    replace(
      proto,
      key,
      (original) =>
        ({
          [key](entry) {
            if (!apply(has, this, [entry])) charge(bytes);
            return apply(original, this, arguments);
          },
        })[key],
    );
  };
  grows(Map.prototype, "set", 24);
  grows(Set.prototype, "add", 16);
  grows(WeakMap.prototype, "set", 24);
  grows(WeakSet.prototype, "add", 16);
  // One descriptor object a key, counted before they are made.
  replace(
    Object,
    "getOwnPropertyDescriptors",
    (original) =>
      ({
        getOwnPropertyDescriptors(object) {
          if (object !== null && object !== undefined) charge(ownKeys(OriginalObject(object)).length * 96);
          return apply(original, this, arguments);
        },
      }).getOwnPropertyDescriptors,
  );
  // A string of one character per argument: the list was charged when it was made, the string is charged here.
  for (const key of ["fromCharCode", "fromCodePoint"]) {
    replace(
      String,
      key,
      (original) =>
        ({
          [key]() {
            charge(arguments.length * 2);
            return apply(original, this, arguments);
          },
        })[key],
    );
  }
}
