// `edge-mcp stdio` as a process: clean stops (EOF, SIGTERM, a killed host) leave nothing running; start failures exit non-zero.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { linePeer } from "./stdio-lines.ts";
import { EDGE_MCP, ROOT, alive, descendants, freshState, groupAlive, killGroup, spawnEdgeMcp, waitFor } from "./stdio-server.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const HOST_SCRIPT = fileURLToPath(new URL("./fixtures/stdio-client.mjs", import.meta.url));

const groups: number[] = [];
afterEach(() => {
  for (const pid of groups.splice(0)) killGroup(pid);
});

/** Spawns edge-mcp on the demo, waits for its initialize answer, and returns it with its workerd. */
async function started(args: string[] = [], env: Record<string, string> = {}) {
  const child = spawnEdgeMcp(args, { persistTo: freshState(), ...(Object.keys(env).length > 0 ? { env } : {}) });
  if (child.pid === undefined) throw new Error("no pid");
  groups.push(child.pid);
  const peer = linePeer(child);
  peer.send(INITIALIZE);
  expect(JSON.parse(await peer.next())).toMatchObject({ id: 1, result: { serverInfo: { name: "edge-mcp-demo" } } });
  const workerd = descendants(child.pid);
  expect(workerd.length, "workerd runs as a child of edge-mcp").toBeGreaterThan(0);
  return { child, pid: child.pid, peer, workerd };
}

describe("edge-mcp stdio stops cleanly", () => {
  it("exits 0 when stdin ends, once workerd has stopped", async () => {
    const { child, pid, peer } = await started();
    child.stdin.end();
    expect(await peer.exited).toBe(0);
    expect(groupAlive(pid)).toBe(false);
  });

  it("answers what is in flight before it stops on EOF (a piped session)", async () => {
    const { child, peer } = await started();
    peer.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "countdown", arguments: { from: 2, delayMs: 50 }, _meta: { progressToken: "p" } },
    });
    child.stdin.end();
    const lines = [await peer.next(), await peer.next(), await peer.next(), await peer.next(), await peer.next()].map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    expect(lines.map((message) => message["method"] ?? message["id"])).toEqual([
      "notifications/progress",
      "notifications/message",
      "notifications/progress",
      "notifications/message",
      2,
    ]);
    expect(await peer.exited).toBe(0);
  });

  it("exits 0 on SIGTERM through its own shutdown (not wrangler's or miniflare's), once workerd has stopped", async () => {
    const { child, pid, peer } = await started([], { MCP_DEBUG: "true" });
    child.kill("SIGTERM");
    expect(await peer.exited).toBe(0);
    expect(groupAlive(pid)).toBe(false);
    expect(peer.stderr()).toMatch(/edge-mcp stdio: stopping \(SIGTERM\)/);
  });

  it("leaves no process behind when its host is killed", async () => {
    // The host (SDK v1 in a process of its own) leads a process group: edge-mcp and workerd join it.
    const host = spawn(process.execPath, [HOST_SCRIPT, EDGE_MCP, "--persist-to", freshState()], {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (host.pid === undefined) throw new Error("no pid");
    groups.push(host.pid);
    const ready = await new Promise<string>((resolve) => createInterface({ input: host.stdout }).once("line", resolve));
    const edgeMcp = Number(/^ready (\d+)$/.exec(ready)?.[1]);
    const tree = descendants(host.pid);
    expect(tree).toContain(edgeMcp);
    expect(descendants(edgeMcp).length, "workerd runs as a child of edge-mcp").toBeGreaterThan(0);

    process.kill(host.pid, "SIGKILL"); // the host only: its pipes close, and edge-mcp must notice
    await waitFor("edge-mcp and workerd to exit", () => tree.every((pid) => !alive(pid)));
    expect(groupAlive(host.pid)).toBe(false);
  });
});

describe("edge-mcp stdio under a flood of lines", () => {
  it("answers every one of 3,000 requests written at once with 4 in flight (stdin paused and resumed), then exits 0 on EOF", async () => {
    const { child, peer } = await started(["--max-in-flight", "4"]);
    peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const count = 3000;
    let text = "";
    for (let id = 2; id < 2 + count; id++) text += `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;
    child.stdin.write(text);
    const ids = new Set<unknown>();
    for (let i = 0; i < count; i++) {
      const message = JSON.parse(await peer.next()) as Record<string, unknown>;
      expect(message).toMatchObject({ result: {} });
      ids.add(message["id"]);
    }
    expect(ids.size).toBe(count);
    child.stdin.end();
    expect(await peer.exited).toBe(0);
  }, 120_000);
});

describe("edge-mcp stdio keeps stdout for JSON-RPC", () => {
  it("sends the Worker's console output and the MCP_DEBUG message log to stderr", async () => {
    const { child, peer } = await started(["--var", "MCP_DEBUG:true"], { MCP_DEBUG: "true" });
    peer.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const lines = [await peer.next()];
    child.stdin.end();
    expect(await peer.exited).toBe(0);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ jsonrpc: "2.0", id: 2, result: { tools: expect.any(Array) } });
    expect(peer.stderr()).toMatch(/edge-mcp debug /); // the Worker's own log (MCP_DEBUG var)
    expect(peer.stderr()).toMatch(/edge-mcp stdio: in {2}\{"jsonrpc":"2.0","id":2,"method":"tools\/list"\}/); // the relay's (MCP_DEBUG env)
  });
});

describe("edge-mcp stdio that cannot start", () => {
  /** Runs edge-mcp to its exit; resolves with the exit code and stderr. */
  async function run(args: string[], cwd = ROOT) {
    const child = spawnEdgeMcp(args, { cwd, persistTo: freshState() });
    if (child.pid !== undefined) groups.push(child.pid);
    const peer = linePeer(child);
    child.stdin.end();
    return { code: await peer.exited, stderr: peer.stderr(), pid: child.pid };
  }

  it("exits 1 with esbuild's error when the Worker does not build", async () => {
    const project = freshState();
    mkdirSync(join(project, "src"));
    writeFileSync(join(project, "wrangler.toml"), 'name = "broken"\nmain = "src/index.ts"\ncompatibility_date = "2026-04-01"\n');
    writeFileSync(join(project, "src/index.ts"), "export default { fetch() { return new Response('x') }\n");
    const { code, stderr, pid } = await run([], project);
    expect(code).toBe(1);
    expect(stderr).toMatch(/edge-mcp stdio: the Worker did not start: \n {2}src\/index\.ts:2:0: ERROR: Expected "}" but found end of file\n/);
    await waitFor("the process group to be empty", () => pid === undefined || !groupAlive(pid));
  });

  it("exits 1 naming a Durable Object class the Worker binds but does not export", async () => {
    const project = freshState();
    mkdirSync(join(project, "src"));
    writeFileSync(
      join(project, "wrangler.toml"),
      'name = "no-class"\nmain = "src/index.js"\ncompatibility_date = "2026-04-01"\n' +
        '[[durable_objects.bindings]]\nname = "THINGS"\nclass_name = "Thing"\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["Thing"]\n',
    );
    writeFileSync(join(project, "src/index.js"), "export default { fetch: () => new Response('x') };\n");
    const { code, stderr } = await run([], project);
    expect(code).toBe(1);
    expect(stderr).toMatch(/the Worker did not start: the Worker binds Durable Object classes its entry .*src\/index\.js does not export: Thing/);
  });

  it("exits 1 naming a config file that does not exist", async () => {
    const { code, stderr } = await run(["--config", "no/such/wrangler.toml"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/the Worker did not start: .*no\/such\/wrangler\.toml/s);
  });

  it("exits 2 with the usage for an unknown option", async () => {
    const { code, stderr } = await run(["--port", "8787"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown argument '--port'[\s\S]*usage: edge-mcp stdio/);
  });
});
