// @ts-check
/** Sandbox JavaScript: the allocation budget's charges for built-in iterators whose length is not known up front, descriptors and argument lists. */

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
