// Fuzz (seeded, deterministic): every spelling of one address gives one key, and no input makes clientNetwork throw.
import { describe, expect, it } from "vitest";
import { clientNetwork } from "../../../src/core/client-address.ts";
import { seededRandom as random } from "../../seeded-random.mjs";

/** One of the ways to write eight groups: full, leading zeros padded or not, upper case, the longest zero run as `::`. */
function spell(groups: number[], next: () => number): string {
  const hex = groups.map((g) => {
    const text = next() < 0.3 ? g.toString(16).padStart(4, "0") : g.toString(16);
    return next() < 0.3 ? text.toUpperCase() : text;
  });
  const zeroRuns: [number, number][] = [];
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) end++;
    zeroRuns.push([i, end]);
    i = end;
  }
  const run = zeroRuns.length > 0 && next() < 0.7 ? zeroRuns[Math.floor(next() * zeroRuns.length)] : undefined;
  if (!run) return hex.join(":");
  return `${hex.slice(0, run[0]).join(":")}::${hex.slice(run[1]).join(":")}`;
}

describe("clientNetwork under fuzzing", () => {
  it("gives one key to 5,000 random IPv6 addresses, each spelt three ways, and keys by the first 64 bits only", () => {
    const next = random(0x2101);
    for (let n = 0; n < 5_000; n++) {
      // Zero groups are frequent, so that `::` appears in every position.
      const groups = Array.from({ length: 8 }, () => (next() < 0.35 ? 0 : Math.floor(next() * 0x10000)));
      if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) continue;
      const key = clientNetwork(spell(groups, next));
      expect(key).toMatch(/^[0-9a-f]{1,4}(:[0-9a-f]{1,4}){3}::\/64$/);
      expect(clientNetwork(spell(groups, next))).toBe(key);
      const sameNetwork = [...groups.slice(0, 4), ...Array.from({ length: 4 }, () => Math.floor(next() * 0x10000))];
      expect(clientNetwork(spell(sameNetwork, next))).toBe(key);
    }
  });

  it("gives every IPv4 address, and its mapped IPv6 forms, the same key", () => {
    const next = random(0x2102);
    for (let n = 0; n < 5_000; n++) {
      const octets = Array.from({ length: 4 }, () => Math.floor(next() * 256));
      const v4 = octets.join(".");
      const high = ((octets[0] as number) << 8) | (octets[1] as number);
      const low = ((octets[2] as number) << 8) | (octets[3] as number);
      expect(clientNetwork(v4)).toBe(v4);
      expect(clientNetwork(`::ffff:${v4}`)).toBe(v4);
      expect(clientNetwork(spell([0, 0, 0, 0, 0, 0xffff, high, low], next))).toBe(v4);
    }
  });

  it("never throws on 10,000 random strings, and keys only what is an IP address", () => {
    const next = random(0x2103);
    const alphabet = "0123456789abcdefABCDEF:.%[]/ -x";
    for (let n = 0; n < 10_000; n++) {
      const length = Math.floor(next() * 48);
      let text = "";
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      const key = clientNetwork(text);
      if (key !== undefined) expect(key).toMatch(/^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f]{1,4}(:[0-9a-f]{1,4}){3}::\/64)$/);
    }
  });
});
