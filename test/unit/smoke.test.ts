// Smoke test: runs in Node and guards that wrangler.toml's compatibility_date is one the pinned workerd supports.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);

/** The newest compatibility date of the workerd that the pinned wrangler runs (`wrangler dev`). */
function wranglerWorkerdCompatibilityDate(): string {
  const fromWrangler = createRequire(createRequire(root).resolve("wrangler/package.json"));
  const workerd = fromWrangler("workerd") as { compatibilityDate: string };
  return workerd.compatibilityDate;
}

describe("unit project", () => {
  it("runs in Node", () => {
    expect(typeof process.versions.node).toBe("string");
  });

  it("wrangler.toml uses a compatibility_date the pinned workerd supports", () => {
    const toml = readFileSync(new URL("wrangler.toml", root), "utf8");
    const date = /^compatibility_date\s*=\s*"(\d{4}-\d{2}-\d{2})"/m.exec(toml)?.[1];
    const supported = wranglerWorkerdCompatibilityDate();
    expect(date).toBeDefined();
    expect(date! <= supported, `compatibility_date ${date} is newer than workerd's ${supported}`).toBe(true);
  });
});
