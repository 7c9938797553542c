// Every wrangler config of the repository (root, examples, templates, test fixtures) pins a compatibility_date
// the pinned workerd supports: without one, wrangler picks today's date, newer than its runtime, and fails.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The newest compatibility date of the workerd that the pinned wrangler runs (`wrangler dev`, `edge-mcp stdio`). */
function supportedDate(): string {
  const fromWrangler = createRequire(createRequire(ROOT).resolve("wrangler/package.json"));
  return (fromWrangler("workerd") as { compatibilityDate: string }).compatibilityDate;
}

/** The wrangler configs git knows of, tracked or new (not ignored). */
function wranglerConfigs(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*wrangler.toml", "*wrangler.json", "*wrangler.jsonc"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return [...new Set(out.split("\n").filter(Boolean))].sort();
}

describe("compatibility_date", () => {
  const configs = wranglerConfigs();

  it("finds the configs of the root, the examples and every template", () => {
    expect(configs).toContain("wrangler.toml");
    for (const template of ["basic", "auth", "multi-tenant", "multi-tenant/tool-service"])
      expect(configs).toContain(`create-edge-mcp/templates/${template}/wrangler.toml`);
    expect(configs.filter((file) => file.startsWith("examples/")).length).toBeGreaterThanOrEqual(4);
  });

  it.each(configs)("%s sets one the pinned workerd supports", (file) => {
    const text = readFileSync(`${ROOT}${file}`, "utf8");
    const date = /^\s*"?compatibility_date"?\s*[=:]\s*"(\d{4}-\d{2}-\d{2})"/m.exec(text)?.[1];
    expect(date, `${file} has no compatibility_date: wrangler would pick today's date, newer than its workerd`).toBeDefined();
    expect(date! <= supportedDate(), `${file}: compatibility_date ${date} is newer than workerd's ${supportedDate()}`).toBe(true);
  });
});
