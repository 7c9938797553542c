// Each template as a new user gets it: made by create-edge-mcp from its tarball, installed offline with the
// packed edge-mcp, type-checked with its own strict tsconfig, its own tests, then served by `wrangler dev`
// to the official clients (SDK v1 speaks 2025-11-25, client v2 speaks 2026-07-28).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectLegacyClient, connectModernClient } from "../e2e/clients.ts";
import { startWranglerDev } from "../e2e/wrangler-dev.ts";
import { SIZES_DOC, SIZE_TOLERANCE_KIB, deployableGzipKiB, templateSizes } from "./bundle-size.ts";
import { ZOD_VARIANT, ZOD_VARIANT_ROW } from "./zod-variant.ts";
import { run } from "./run.ts";

interface Case {
  template: string;
  /** The wrangler configs `npm run dev` serves (the first is the MCP Worker). */
  configs: string[];
  /** The MCP endpoint's path. */
  path: string;
  tools: string[];
  /** What the v1 client lists, when it differs from `tools`. */
  legacyTools?: string[];
  calls: { name: string; arguments: Record<string, unknown>; text: string | RegExp }[];
  /** The development API key of .dev.vars is sent. */
  apiKey?: boolean;
  /** Each Worker's config, by the row of the size table (docs/templates.md) that gives its deployable size. */
  bundles: Record<string, string>;
  /** Resources each client reads: their URI, mime type and what their text holds. */
  reads?: { uri: string; mimeType: string; text: RegExp }[];
  /** Users sign in at the Worker's own authorization server: clients without a token get 401 and find it from the metadata. */
  signIn?: boolean;
}

const CASES: Case[] = [
  {
    template: "basic",
    configs: ["wrangler.toml"],
    path: "/mcp",
    tools: ["greet", "convert_temperature", "note"],
    calls: [
      { name: "greet", arguments: { name: "Ada" }, text: "Hello, Ada!" },
      { name: "convert_temperature", arguments: { value: 100, from: "celsius" }, text: "100 °C is 212 °F" },
      // The tool's own KV namespace through ctx.env: written, then read back.
      { name: "note", arguments: { name: "walk", text: "kept in KV" }, text: "Saved the note walk." },
      { name: "note", arguments: { name: "walk" }, text: "kept in KV" },
    ],
    bundles: { "`basic`": "wrangler.toml" },
  },
  {
    template: "multi-tenant",
    configs: ["wrangler.toml", "tool-service/wrangler.toml"],
    path: "/t/globex/mcp",
    tools: ["hello", "weather_forecast"],
    calls: [
      { name: "hello", arguments: { name: "Ada" }, text: "Hello Ada, from tenant globex" },
      { name: "weather_forecast", arguments: { city: "Paris" }, text: "Paris: Sunny, 21 °C (for tenant globex)" },
    ],
    bundles: { "`multi-tenant`": "wrangler.toml", "`multi-tenant`'s `tool-service/`": "tool-service/wrangler.toml" },
  },
  {
    template: "auth",
    configs: ["wrangler.toml"],
    path: "/mcp",
    tools: ["whoami", "list_orders"],
    calls: [
      { name: "whoami", arguments: {}, text: /"subject":"dev"/ },
      { name: "list_orders", arguments: { limit: 1 }, text: /A-1001/ },
    ],
    apiKey: true,
    bundles: { "`auth`": "wrangler.toml" },
  },
  {
    template: "apps",
    configs: ["wrangler.toml"],
    path: "/mcp",
    // Neither client declares io.modelcontextprotocol/ui: the app-only counter_add is hidden from the v2 client,
    // whose requests carry its capabilities, and listed to the stateless v1 client, whose requests do not.
    tools: ["show_counter"],
    legacyTools: ["show_counter", "counter_add"],
    calls: [{ name: "show_counter", arguments: { label: "cups", start: 2 }, text: 'Counter "cups" is at 2.' }],
    bundles: { "`apps`": "wrangler.toml" },
    // The page built by `npm run build:app` (npm test runs it), served from static assets with ext-apps' App inlined.
    reads: [{ uri: "ui://counter/app.html", mimeType: "text/html;profile=mcp-app", text: /<h1 id="label">counter<\/h1>[\s\S]*ui\/initialize/ }],
  },
  {
    template: "oauth",
    configs: ["wrangler.toml"],
    path: "/mcp",
    tools: ["whoami", "profile"],
    calls: [],
    signIn: true,
    bundles: { "`oauth`": "wrangler.toml" },
  },
];

const DOC_SIZES = templateSizes(readFileSync(new URL(`../../${SIZES_DOC}`, import.meta.url), "utf8"));

const NPM_OFFLINE = ["--offline", "--no-audit", "--no-fund"];

/** Reads `NAME="value"` from a .dev.vars file. */
function devVar(file: string, name: string): string {
  const match = new RegExp(`^${name}="([^"]*)"$`, "m").exec(readFileSync(file, "utf8"));
  if (!match?.[1]) throw new Error(`${file} has no ${name}`);
  return match[1];
}

describe.each(CASES)("the $template template", (c) => {
  const name = `my-${c.template}-server`;
  let project: string;
  let work: string;
  let created: string;

  beforeAll(async () => {
    work = mkdtempSync(join(inject("packDir"), `${c.template}-`));
    // `npm create edge-mcp@latest my-server -- --template T` runs the create-edge-mcp bin; here from its tarball.
    ({ stdout: created } = await run(
      "npm",
      ["exec", ...NPM_OFFLINE, "--yes", `--package=${inject("createTarball")}`, "--", "create-edge-mcp", name, "--template", c.template],
      {
        cwd: work,
      },
    ));
    project = join(work, name);
    try {
      await run("npm", ["install", ...NPM_OFFLINE, inject("edgeMcpTarball")], { cwd: project });
    } catch (error) {
      const hint = String(error).includes("ENOTCACHED")
        ? "\nThe npm cache lacks a package the template needs: run `npm run warm-cache` (which .ci/run does) and try again."
        : "";
      throw new Error(`${String(error)}${hint}`, { cause: error });
    }
  }, 300_000);

  it("is named as asked and starts pinned to the edge-mcp version create-edge-mcp was released with", () => {
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { name: string; dependencies: Record<string, string> };
    expect(pkg.name).toBe(name);
    expect(readFileSync(join(project, "wrangler.toml"), "utf8")).toContain(`name = "${name}"`);
    // `npm install <tarball>` replaced the pinned version with the tarball; the installed package is that version.
    const installed = JSON.parse(readFileSync(join(project, "node_modules/edge-mcp/package.json"), "utf8")) as { version: string };
    const released = JSON.parse(readFileSync(new URL("../../create-edge-mcp/package.json", import.meta.url), "utf8")) as { version: string };
    expect(installed.version).toBe(released.version);
  });

  it("says how to install edge-mcp from a checkout, since npm runs offline here and cannot tell whether it is published", () => {
    const version = (JSON.parse(readFileSync(join(project, "node_modules/edge-mcp/package.json"), "utf8")) as { version: string }).version;
    expect(created).toContain(`edge-mcp@${version} could not be found on the npm registry`);
    expect(created).toContain(`npm install ${join(work, "edge-mcp", `edge-mcp-${version}.tgz`)}`);
  });

  it("type-checks with its own strict tsconfig, which does not allow .ts imports", async () => {
    const tsconfig = readFileSync(join(project, "tsconfig.json"), "utf8");
    expect(tsconfig).toContain('"strict": true');
    expect(tsconfig).not.toContain("allowImportingTsExtensions");
    await run(join(project, "node_modules/.bin/tsc"), ["--noEmit"], { cwd: project });
  }, 120_000);

  it("passes its own npm test", async () => {
    const { stdout } = await run("npm", ["test"], { cwd: project, timeoutMs: 240_000 });
    expect(stdout).toMatch(/Tests\s+\d+ passed/);
  }, 240_000);

  it("deploys at the size docs/templates.md gives for it", async () => {
    for (const [row, config] of Object.entries(c.bundles)) {
      const kib = await deployableGzipKiB(project, config);
      expect(Math.abs(kib - (DOC_SIZES.get(row) ?? NaN)), `${row}: ${kib.toFixed(1)} KiB gzip, ${SIZES_DOC} says ${DOC_SIZES.get(row)}`).toBeLessThanOrEqual(
        SIZE_TOLERANCE_KIB,
      );
    }
  }, 120_000);

  it.runIf(c.template === "basic")(
    "with convert_temperature's schema in zod instead, deploys at the size docs/templates.md gives",
    async () => {
      await run("npm", ["install", ...NPM_OFFLINE, "--no-save", ZOD_VARIANT.dependency], { cwd: project });
      mkdirSync(join(project, "zod-variant"), { recursive: true });
      writeFileSync(join(project, "zod-variant/index.ts"), ZOD_VARIANT.source);
      const toml = readFileSync(join(project, "wrangler.toml"), "utf8");
      writeFileSync(join(project, "zod-variant/wrangler.toml"), toml.replace(/^main = .*$/m, 'main = "index.ts"'));
      const kib = await deployableGzipKiB(project, "zod-variant/wrangler.toml");
      const claimed = DOC_SIZES.get(ZOD_VARIANT_ROW) ?? NaN;
      expect(Math.abs(kib - claimed), `${ZOD_VARIANT_ROW}: ${kib.toFixed(1)} KiB gzip, ${SIZES_DOC} says ${claimed}`).toBeLessThanOrEqual(SIZE_TOLERANCE_KIB);
    },
    120_000,
  );

  describe("under wrangler dev", () => {
    let server: Awaited<ReturnType<typeof startWranglerDev>> | undefined;
    let headers: Record<string, string>;

    beforeAll(async () => {
      headers = c.apiKey ? { authorization: `Bearer ${devVar(join(project, ".dev.vars"), "DEV_API_KEY")}` } : {};
      server = await startWranglerDev({ name: c.template, cwd: project, configPath: c.configs });
    }, 120_000);

    afterAll(async () => {
      await server?.stop();
    });

    it.runIf(c.signIn === true)("asks a client without a token to sign in at the Worker's own authorization server", async () => {
      const base = server?.baseUrl ?? "";
      const answer = await fetch(`${base}${c.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
      });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource${c.path}"`);
      const resource = await (await fetch(`${base}/.well-known/oauth-protected-resource${c.path}`)).json<{ authorization_servers: string[] }>();
      expect(resource.authorization_servers).toEqual([base]);
      const metadata = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json<Record<string, unknown>>();
      expect(metadata).toMatchObject({ issuer: base, code_challenge_methods_supported: ["S256"], client_id_metadata_document_supported: true });
    });

    (c.signIn ? it.skip : it).each(["v1 (2025-11-25)", "v2 (2026-07-28)"])(
      "serves the %s client: lists the tools and calls each",
      async (which) => {
        const url = `${server?.baseUrl}${c.path}`;
        const client = which.startsWith("v1") ? await connectLegacyClient(url, { headers }) : await connectModernClient(url, { headers });
        try {
          expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(which.startsWith("v1") ? (c.legacyTools ?? c.tools) : c.tools);
          for (const call of c.calls) {
            const result = (await client.callTool({ name: call.name, arguments: call.arguments })) as {
              content: { type: string; text?: string }[];
              isError?: boolean;
            };
            expect(result.isError ?? false).toBe(false);
            expect(result.content[0]?.text).toMatch(call.text);
          }
          for (const read of c.reads ?? []) {
            const [content] = (await client.readResource({ uri: read.uri })).contents as { uri: string; mimeType?: string; text?: string }[];
            expect(content).toMatchObject({ uri: read.uri, mimeType: read.mimeType });
            expect(content?.text).toMatch(read.text);
          }
        } finally {
          await client.close();
        }
      },
      60_000,
    );
  });
});
