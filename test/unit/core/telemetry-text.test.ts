import { describe, expect, it } from "vitest";
import { TELEMETRY_TEXT_CHARS, telemetryText } from "../../../src/core/telemetry-text.ts";

describe("telemetryText", () => {
  it("keeps a string of the bound as it is, and the same string object", () => {
    const name = "a".repeat(TELEMETRY_TEXT_CHARS);
    expect(telemetryText(name)).toBe(name);
    expect(telemetryText("tools/call")).toBe("tools/call");
  });

  it("cuts a longer string to the bound, marked with its full length", () => {
    const cut = telemetryText("b".repeat(600_000));
    expect(cut.length).toBeLessThanOrEqual(TELEMETRY_TEXT_CHARS);
    expect(cut).toMatch(/^b+…\[600000 chars\]$/);
  });

  it("never leaves half of a surrogate pair at the cut", () => {
    for (let pad = 0; pad < 4; pad++) {
      const cut = telemetryText(`${"c".repeat(pad)}${"😀".repeat(400)}`);
      expect(cut.length).toBeLessThanOrEqual(TELEMETRY_TEXT_CHARS);
      expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });
});
