// A seeded generator (mulberry32) for fuzz tests and the bench's bootstrap intervals: the same sequence on every run,
// so a failure can be replayed and an interval is the same for the same figures. Plain JS, so `node` scripts load it too.

/**
 * Numbers in [0, 1) from `seed`, the same sequence every time.
 * @param {number} seed
 * @returns {() => number}
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
