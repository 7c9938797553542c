/** Keeps one dormant object of a per-request kind alive, so V8's hidden class for it survives a major GC. */

// V8 holds the hidden classes (maps) that a class's fields, or an object literal's keys, lead to only weakly,
// through the transitions that made them. Between requests no object of the kind is alive, so a major GC frees
// those maps, and every optimised function specialised on them is thrown away ("embedded weak objects cleared"),
// then optimised again. One object of each kind kept for good keeps its map alive.
//
// A class keeps its sample beside its constructor, as a static field made by that constructor
// (`static readonly dormant = new Exchange(DORMANT, …)`); an object that is no class's instance is kept with
// anchorShape beside the code that grows it. test/unit/core/shape-samples.test.ts checks that each sample has the
// map of a live object built as a request builds it, and `npm run bench:gc-deopt` (run by CI) that the first
// major GC throws away no optimised code of the call path. A sample the count shows no need for is not kept.
const anchors: object[] = [];

/** Keeps `sample` (made as the request path makes its kind, with dormant values) alive for good; returns it. */
export function anchorShape<T extends object>(sample: T): T {
  anchors.push(sample);
  return sample;
}

/** A placeholder for a dormant sample's fields that a live object holds a real value in. */
export const DORMANT = {} as never;
