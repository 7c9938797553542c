// What a one-tool Worker bundles keeps only what it uses: esbuild keeps a top-level value it cannot
// prove free of side effects (a table built from property reads, a `new` call) wherever its module is
// bundled, even when nothing reads it. Bundled as wrangler does (esbuild, the workerd conditions), from src/.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundleAsWrangler, ROOT } from "./wrangler-bundle.ts";

/** The Worker of `npm run bench:bundle` (test/bench/one-tool). */
const bundleOneTool = (): Promise<string> => bundleAsWrangler({ file: join(ROOT, "test/bench/one-tool/index.ts") });

let bundled: Promise<string> | undefined;
const oneToolBundle = (): Promise<string> => (bundled ??= bundleOneTool());

/** Top-level declarations of a bundle that nothing else in it names (kept for side effects esbuild cannot rule out). */
function unreferenced(code: string): string[] {
  const names = [...code.matchAll(/^(?:var|let|const|function|async function|class) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1] as string);
  return names.filter((name) => {
    const escaped = name.replaceAll("$", "\\$");
    // A name counts where it is not a property (`.name`), spreads (`...name`) included.
    const uses = code.match(new RegExp(`(?<![\\w$]|[^.]\\.)${escaped}(?![\\w$])`, "g"))?.length ?? 0;
    return uses <= 1;
  });
}

describe("a one-tool Worker's bundle", () => {
  it("holds no top-level value that nothing uses (the multi-tenant Worker's option rules once were)", async () => {
    const code = await oneToolBundle();
    expect(code).toContain("createWorker");
    expect(unreferenced(code)).toEqual([]);
    expect(code).not.toContain("tenantCodeMode()");
  }, 60_000);

  it("leaves what only an opt-in reads to that opt-in: what tool search reads of a tool comes with toolSearch()", async () => {
    const code = await oneToolBundle();
    expect(code).not.toContain("anthropic/searchHint");
    expect(code).not.toContain("function searchDocument");
  }, 60_000);

  it("holds no tasks code: the tasks methods come with a task gateway (createTaskObject), not with createServer", async () => {
    const code = await oneToolBundle();
    for (const name of ["tasksFeature", "taskServing", "function callAsTask", "function taskMethods", "tasks/update needs"]) expect(code).not.toContain(name);
    // Without them, a tool whose task is required is refused by the tools feature itself.
    expect(code).toContain("and this server runs no tasks");
  }, 60_000);

  it("holds no session routes: a session gateway's module (createSessionObject's) or createMcpApp brings them", async () => {
    const code = await oneToolBundle();
    for (const name of ["var sessionRoutes =", "Too many open sessions", "Missing Mcp-Session-Id header", "function holdWhileStreaming"])
      expect(code).not.toContain(name);
    // A stateless Worker still answers a GET with 405, naming what it lacks.
    expect(code).toContain("a session, and this server is stateless");
  }, 60_000);

  it("holds no connected accounts: connectedAccounts() brings them, and a Worker that calls it does", async () => {
    const markers = ["mcp_accounts_browser", "accounts.connect_failed", "edge-mcp accounts aes"];
    const code = await oneToolBundle();
    for (const marker of markers) expect(code).not.toContain(marker);
    const withAccounts = await bundleAsWrangler({
      contents:
        'import { createServer } from "edge-mcp";\nimport { connectedAccounts, createWorker } from "edge-mcp/workers";\n' +
        'const accounts = connectedAccounts({ providers: { p: { issuer: "https://p.test", clientId: "c" } }, baseUrl: "https://w.test" });\n' +
        'export default accounts.routes(createWorker(createServer({ info: { name: "w", version: "1" }, features: [accounts.feature] })));\n' +
        'export { McpAccountsObject } from "edge-mcp/workers";\n',
    });
    for (const marker of markers) expect(withAccounts).toContain(marker);
  }, 60_000);

  it("leaves URI templates to defineResource*: a Worker whose resources are skill files bundles no template matcher", async () => {
    const skillOnly = (extra: string) =>
      'import { createServer, defineResourceTemplate, defineSkill } from "edge-mcp";\nimport { createWorker } from "edge-mcp/workers";\n' +
      'const skill = defineSkill({ name: "s", files: { "SKILL.md": "---\\nname: s\\ndescription: d\\n---\\n" } });\n' +
      `export default createWorker(createServer({ info: { name: "w", version: "1" }, skills: [skill]${extra} }));\n`;
    const withSkill = await bundleAsWrangler({ contents: skillOnly("") });
    expect(withSkill).toContain("function parseSkillMarkdown");
    expect(withSkill).not.toContain("function compileUriTemplate");
    const withTemplate = await bundleAsWrangler({
      contents: skillOnly(', resourceTemplates: [defineResourceTemplate({ uriTemplate: "x://{id}", name: "x", read: () => "" })]'),
    });
    expect(withTemplate).toContain("function compileUriTemplate");
  }, 60_000);

  it("holds the core JSON Schema validator, not the full one: fullJsonSchema() brings @cfworker/json-schema", async () => {
    const code = await oneToolBundle();
    expect(code).toContain("function compileCoreSchema");
    expect(code).not.toContain("@cfworker/json-schema");
    expect(code).not.toContain("deepCompareStrict");
    const source = readFileSync(join(ROOT, "test/bench/one-tool/index.ts"), "utf8")
      .replace(
        'import { createWorker } from "edge-mcp/workers";',
        'import { createWorker } from "edge-mcp/workers";\nimport { fullJsonSchema } from "edge-mcp/json-schema";',
      )
      .replace("tools: [add] }", "tools: [add], features: [fullJsonSchema()] }");
    expect(source).toContain("features: [fullJsonSchema()]");
    const withFull = await bundleAsWrangler({ contents: source });
    expect(withFull).toContain("@cfworker/json-schema");
    expect(withFull).toContain("deepCompareStrict");
  }, 60_000);

  it("finds such a value when there is one", () => {
    expect(unreferenced("var used = 1;\nvar left = new Map();\nconsole.log(used, [...spread]);\nvar spread = [];\n")).toEqual(["left"]);
  });
});
