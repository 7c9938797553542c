// The table of template sizes in docs/templates.md is read as the package test reads it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SIZES_DOC, templateSizes } from "../package/bundle-size.ts";

describe("the template size table of docs/templates.md", () => {
  it("gives a size for every template Worker, basic within the 45 KiB we claim", () => {
    const sizes = templateSizes(readFileSync(new URL(`../../${SIZES_DOC}`, import.meta.url), "utf8"));
    for (const row of ["`basic`", "`multi-tenant`", "`multi-tenant`'s `tool-service/`", "`auth`", "`apps`", "`oauth`", "`basic`, `convert_temperature` in zod"])
      expect(sizes.get(row), row).toBeGreaterThan(0);
    expect(sizes.get("`basic`")).toBeLessThanOrEqual(45);
  });

  it("refuses a row without a figure", () => {
    expect(() => templateSizes("| Worker | deployable bundle (gzip) |\n|---|---|\n| `basic` | small |\n")).toThrow(/without a "N KiB" figure/);
  });
});
