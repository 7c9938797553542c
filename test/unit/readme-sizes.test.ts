// README.md's table of template sizes is read as the package test reads it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readmeSizes } from "../package/bundle-size.ts";

describe("README.md's template size table", () => {
  it("gives a size for every template Worker, basic within the 45 KiB we claim", () => {
    const sizes = readmeSizes(readFileSync(new URL("../../README.md", import.meta.url), "utf8"));
    for (const row of ["`basic`", "`multi-tenant`", "`multi-tenant`'s `tool-service/`", "`auth`", "`basic`, `convert_temperature` in zod"])
      expect(sizes.get(row), row).toBeGreaterThan(0);
    expect(sizes.get("`basic`")).toBeLessThanOrEqual(45);
  });

  it("refuses a row without a figure", () => {
    expect(() => readmeSizes("| Worker | deployable bundle (gzip) |\n|---|---|\n| `basic` | small |\n")).toThrow(/without a "N KiB" figure/);
  });
});
