// A user's own feature from the packed package, as npm gives it: a project of its own (fixtures/own-feature)
// installs the edge-mcp tarball offline, type-checks with a strict tsconfig like the templates' (the
// package's declarations included: skipLibCheck off) together with the snippets of the guides that show
// the seam, and runs in Node through edge-mcp/host's app.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { extractSnippets } from "../unit/doc-snippets.ts";
import { run } from "./run.ts";

const FIXTURE = new URL("./fixtures/own-feature/src", import.meta.url);
/** Guides whose snippets the project holds too: what they show of the seam and of edge-mcp/host must type-check from the package. */
const GUIDES = ["docs/features.md", "docs/other-hosts.md"];
const NPM_OFFLINE = ["--offline", "--no-audit", "--no-fund"];

/** The versions of TypeScript and the Workers types a new project starts with (the basic template's, which the warmed cache holds). */
const TEMPLATE = JSON.parse(readFileSync(new URL("../../create-edge-mcp/templates/basic/package.json", import.meta.url), "utf8")) as {
  devDependencies: Record<string, string>;
};

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022"],
    module: "ESNext",
    moduleResolution: "bundler",
    types: ["@cloudflare/workers-types"],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    // The package's .d.ts files are checked too: the options its features widen from inside it must hold there.
    skipLibCheck: false,
    noEmitOnError: true,
    rootDir: "src",
    outDir: "build",
  },
  include: ["src"],
};

type Message = Record<string, unknown> & { result?: Record<string, unknown>; error?: { code: number } };

describe("a feature of a user's own, from the packed package", () => {
  let project: string;
  let report: Record<string, Message>;
  let guideSnippets = 0;

  beforeAll(async () => {
    project = mkdtempSync(join(inject("packDir"), "own-feature-"));
    cpSync(FIXTURE, join(project, "src"), { recursive: true });
    for (const guide of GUIDES) {
      for (const snippet of extractSnippets(guide, readFileSync(new URL(`../../${guide}`, import.meta.url), "utf8"))) {
        guideSnippets += 1;
        writeFileSync(join(project, "src", `guide-${guide.replace(/^docs\/|\.md$/g, "")}-${snippet.line}.ts`), snippet.code);
      }
    }
    const { typescript, "@cloudflare/workers-types": workersTypes } = TEMPLATE.devDependencies;
    const devDependencies = { typescript, "@cloudflare/workers-types": workersTypes };
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "own-feature", private: true, type: "module", devDependencies }, null, 2));
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    try {
      await run("npm", ["install", ...NPM_OFFLINE, inject("edgeMcpTarball")], { cwd: project });
    } catch (error) {
      const hint = String(error).includes("ENOTCACHED") ? "\nThe npm cache lacks a package: run `npm run warm-cache` (which .ci/run does) and try again." : "";
      throw new Error(`${String(error)}${hint}`, { cause: error });
    }
    // Type-checks (and, only when that passes, emits JavaScript for Node), then serves the requests of src/main.ts.
    await run(join(project, "node_modules/.bin/tsc"), ["-p", "."], { cwd: project });
    const { stdout } = await run("node", ["build/main.js"], { cwd: project });
    report = JSON.parse(stdout) as Record<string, Message>;
  }, 300_000);

  it("type-checks with the guides' snippets of the seam and of edge-mcp/host beside it", () => {
    expect(guideSnippets).toBeGreaterThanOrEqual(4);
  });

  it("answers its 2026-07-28 method, and the 2025 era does not have it", () => {
    expect(report["echo"]?.result).toMatchObject({ echoed: "echo: hi" });
    expect(report["legacyEcho"]?.error).toMatchObject({ code: -32601 });
  });

  it("declares its extension, with what another feature provided to it, in server/discover and initialize", () => {
    const extension = { "example.com/echo": { prefix: "echo:" } };
    expect(report["discover"]?.result).toMatchObject({ capabilities: { extensions: extension } });
    expect(report["initialize"]?.result).toMatchObject({ protocolVersion: "2025-11-25", capabilities: { extensions: extension } });
  });

  it("adds a member to the handler context that a tool reads, and ctx.tools that calls a tool", () => {
    expect(report["shout"]?.result).toMatchObject({ content: [{ type: "text", text: "echo: (default) HI" }] });
    expect(report["twice"]?.result).toMatchObject({ content: [{ type: "text", text: "echo: (default) HI / echo: (default) HI!" }] });
  });

  it("serves the resources and prompts its createServer options declare (options widened inside the package)", () => {
    expect(report["read"]?.result).toMatchObject({ contents: [{ uri: "file:///readme.txt", text: "Read me." }] });
    expect(report["prompt"]?.result).toMatchObject({ messages: [{ role: "user", content: { type: "text", text: "Say hello to Ada." } }] });
  });
});
