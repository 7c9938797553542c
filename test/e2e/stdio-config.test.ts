// What `edge-mcp stdio` takes from a wrangler config, on a throwaway project: vars, .dev.vars, --var, --env, KV that
// persists between runs, and a text module imported through wrangler's module rules.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { linePeer } from "./stdio-lines.ts";
import { freshState, spawnEdgeMcp } from "./stdio-server.ts";

// A Worker that answers every JSON-RPC request with what it was configured with, and counts its calls in KV.
const WORKER = `
import banner from "./banner.txt";
export default {
  async fetch(request, env) {
    const message = await request.json();
    const count = Number((await env.COUNTS.get("calls")) ?? "0") + 1;
    await env.COUNTS.put("calls", String(count));
    const { pathname } = new URL(request.url);
    const result = { greeting: env.GREETING, secret: env.SECRET, banner: banner.trim(), count, host: request.headers.get("host"), path: pathname };
    return Response.json({ jsonrpc: "2.0", id: message.id, result });
  },
};
`;
const CONFIG = `
name = "config-probe"
main = "src/index.js"
compatibility_date = "2026-04-01"

[vars]
GREETING = "hello"

[[kv_namespaces]]
binding = "COUNTS"
id = "counts"

[env.staging.vars]
GREETING = "hello from staging"

[[env.staging.kv_namespaces]]
binding = "COUNTS"
id = "counts-staging"
`;

let project: string;
beforeAll(() => {
  project = freshState();
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "wrangler.toml"), CONFIG);
  writeFileSync(join(project, ".dev.vars"), "SECRET=from-dev-vars\n");
  writeFileSync(join(project, "src/index.js"), WORKER);
  writeFileSync(join(project, "src/banner.txt"), "a text module\n");
});

/** Runs edge-mcp in the project with `args`, sends one request, and returns its result. */
async function probe(args: string[], persistTo: string): Promise<Record<string, unknown>> {
  const child = spawnEdgeMcp(["--persist-to", persistTo, ...args], { cwd: project });
  const peer = linePeer(child);
  peer.send({ jsonrpc: "2.0", id: 1, method: "probe" });
  const answer = JSON.parse(await peer.next()) as { result: Record<string, unknown> };
  child.stdin.end();
  expect(await peer.exited).toBe(0);
  return answer.result;
}

describe("edge-mcp stdio reads the project's wrangler config", () => {
  it("binds [vars], the secrets of .dev.vars, KV and text modules, with Host localhost and path /mcp", async () => {
    expect(await probe([], freshState())).toEqual({
      greeting: "hello",
      secret: "from-dev-vars",
      banner: "a text module",
      count: 1,
      host: "localhost",
      path: "/mcp",
    });
  });

  it("keeps KV data under --persist-to from one run to the next", async () => {
    const state = freshState();
    expect((await probe([], state))["count"]).toBe(1);
    expect((await probe([], state))["count"]).toBe(2);
  });

  it("applies --env, --var, --tenant-host and --path", async () => {
    expect(await probe(["--env", "staging"], freshState())).toMatchObject({ greeting: "hello from staging" });
    expect(await probe(["--var", "GREETING:overridden", "--tenant-host", "acme.localhost", "--path", "/t/x/mcp"], freshState())).toMatchObject({
      greeting: "overridden",
      host: "acme.localhost",
      path: "/t/x/mcp",
    });
  });
});
