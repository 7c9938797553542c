// Every TypeScript snippet of README.md and docs/ compiles as written, against the sources.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SKIP_MARKER, extractSnippets, typeCheckSnippets } from "./doc-snippets.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** README.md and every guide of docs/. */
function docs(): string[] {
  return [
    "README.md",
    ...readdirSync(`${ROOT}docs`, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ].sort();
}

// A snippet that must fail, checked in the same tsc run as the real ones: it proves the check bites.
const BROKEN =
  '```ts\nimport { defineTool } from "edge-mcp";\n\ndefineTool({ name: "x", description: "x", inputSchema: { type: "object" }, handler: () => 42n });\n```\n';

describe("the TypeScript snippets of README.md and docs/", () => {
  it("are found in the README and the guides, and the skip marker leaves a snippet out", () => {
    const all = docs().flatMap((doc) => extractSnippets(doc, readFileSync(`${ROOT}${doc}`, "utf8")));
    expect(all.filter((s) => s.doc === "README.md").length).toBeGreaterThanOrEqual(1);
    expect(all.filter((s) => s.doc.startsWith("docs/")).length).toBeGreaterThanOrEqual(10);
    const skipped = extractSnippets("x.md", `${SKIP_MARKER}: a fragment) -->\n\n\`\`\`ts\nnot code\n\`\`\`\n\n  \`\`\`ts\n  const a = 1;\n  \`\`\`\n`);
    expect(skipped).toEqual([{ doc: "x.md", line: 8, code: "const a = 1;\n" }]);
  });

  it("compile as written (and a broken one is caught at its line)", () => {
    const snippets = docs().flatMap((doc) => extractSnippets(doc, readFileSync(`${ROOT}${doc}`, "utf8")));
    const errors = typeCheckSnippets(ROOT, [...snippets, ...extractSnippets("broken.md", BROKEN)]);
    const [broken, rest] = [errors.filter((e) => e.doc === "broken.md"), errors.filter((e) => e.doc !== "broken.md")];
    expect(rest.map((e) => `${e.doc}:${e.line}: ${e.message}`).join("\n")).toBe("");
    expect(broken.map((e) => e.line)).toEqual([4]);
  }, 120_000);
});
