/** Keeps one dormant object of each per-request kind alive, so V8's hidden class for it survives a major GC. */

// V8 holds the hidden classes (maps) that a class's fields, or JSON.parse's keys, lead to only weakly,
// through the transitions that made them. Between requests no object of the kind is alive, so a major
// GC frees those maps, and every optimised function specialised on them is thrown away ("embedded weak
// objects cleared"), then optimised again. One object of each kind kept here keeps its map alive.
const anchors: object[] = [];

/** Keeps `sample` (made as the request path makes its kind, with dormant values) alive for good; returns it. */
export function anchorShape<T extends object>(sample: T): T {
  anchors.push(sample);
  return sample;
}

/** A placeholder for a dormant sample's fields that a live object holds a real value in. */
export const DORMANT = {} as never;
