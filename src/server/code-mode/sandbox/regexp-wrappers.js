// @ts-check
/** Sandbox JavaScript: refuses regular expressions that can backtrack catastrophically, before the engine runs one. */

import { catastrophicPart } from "./regexp-check.js";

/** How many verdicts a run keeps (a program that makes more distinct patterns has the others checked again). */
const MAX_VERDICTS = 512;

/**
 * Every match of a regular expression goes through `RegExp.prototype.exec` (`test`, `match`, `matchAll`, `replace`,
 * `search` and `split`, of strings and of regular expressions, call it once it is not the engine's own), so the
 * wrapper checks the pattern there, literals included, and the `RegExp` constructor checks it where it is made. A
 * pattern `catastrophicPart` names ends with a `LimitError` that names it; the verdict is kept per pattern and flags.
 * The pattern and flags are read with the built-in getters (internal slots: an own `source` or `flags` cannot lie),
 * and `exec` is defined non-writable and non-configurable, so the engine's own cannot be put back.
 * @param {import("./allocation-budget.js").BudgetKit} kit what installAllocationBudget took before the program could
 * replace anything
 */
export function installRegExpWrappers(kit) {
  const { replace, constructorOf, apply, getOwn, limitError, mapGet, mapSet } = kit;
  const RP = RegExp.prototype;
  const sourceOf = getOwn(RP, "source").get;
  const slice = String.prototype.slice;
  // The flags that change what a pattern matches, each with its built-in getter (an internal slot).
  const FLAGS = "isuv";
  const flagGetters = [getOwn(RP, "ignoreCase").get, getOwn(RP, "dotAll").get, getOwn(RP, "unicode").get, getOwn(RP, "unicodeSets")?.get];
  const verdicts = new Map();
  let kept = 0;
  // The regular expressions already found safe, so a pattern used in a loop costs one lookup a match; compile(), the
  // one way to change an object's pattern, takes it out again.
  const passed = new WeakSet(),
    passedHas = WeakSet.prototype.has,
    passedAdd = WeakSet.prototype.add,
    passedDelete = WeakSet.prototype.delete;
  /** Throws the LimitError for a regular expression whose pattern can backtrack catastrophically; anything else passes. */
  function check(rx, above) {
    if (apply(passedHas, passed, [rx])) return;
    let source, flags;
    try {
      source = apply(sourceOf, rx, []);
      flags = "";
      for (let i = 0; i < 4; i++) {
        const getter = flagGetters[i];
        if (getter !== undefined && apply(getter, rx, [])) flags += FLAGS[i];
      }
    } catch {
      // Not a regular expression: the engine's exec refuses it itself.
      return;
    }
    const key = flags + "/" + source;
    let part = apply(mapGet, verdicts, [key]);
    if (part === undefined) {
      part = catastrophicPart(source, flags);
      if (kept < MAX_VERDICTS) {
        kept++;
        apply(mapSet, verdicts, [key, part]);
      }
    }
    if (part === "") {
      apply(passedAdd, passed, [rx]);
      return;
    }
    const shown = (text) => (text.length > 200 ? apply(slice, text, [0, 200]) + "…" : text);
    throw limitError(
      "execute stopped: the regular expression /" +
        shown(source) +
        "/" +
        flags +
        " can backtrack catastrophically (" +
        shown(part) +
        " repeats a part whose repetitions can split the same text in more than one way); make each repetition start with a character the one before cannot end with",
      above,
    );
  }
  replace(RP, "exec", (original) => {
    const exec = {
      exec() {
        check(this, exec);
        return apply(original, this, arguments);
      },
    }.exec;
    return exec;
  });
  constructorOf(globalThis, "RegExp", (args) => ({ bytes: 0, args }), check);
  if (typeof RP.compile === "function") {
    replace(
      RP,
      "compile",
      (original) =>
        ({
          compile() {
            apply(passedDelete, passed, [this]);
            const compiled = apply(original, this, arguments);
            apply(passedDelete, passed, [this]);
            return compiled;
          },
        }).compile,
    );
  }
  // URLPattern runs its regular-expression groups from the runtime's own code, through exec: a refusal thrown there
  // would abort the whole runtime, and a group left unchecked would backtrack unseen. So it is not offered at all.
  if (typeof URLPattern === "function") {
    constructorOf(globalThis, "URLPattern", () => {
      throw limitError(
        "execute stopped: URLPattern is not available to a program (its regular expressions run where they cannot be checked); match URLs with URL and a regular expression",
        undefined,
      );
    });
  }
}
