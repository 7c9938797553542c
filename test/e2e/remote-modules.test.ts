// Remote MCP servers as modules of the multi-tenant example under `wrangler dev`, with both official clients:
// server-everything (npm, 2025-11-25 with sessions) under tenant umbrella, a server of the official Python SDK
// (2026-07-28), and a faulty fake upstream whose faults stay inside their own module.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectLegacyClient, connectModernClient, type ConnectOptions, type LegacyClient, type ModernClient } from "./clients.ts";
import { startFakeUpstream, type FakeUpstream } from "./fake-upstream.ts";
import { freePorts } from "./free-ports.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const PYTHON = ".cache/py-mcp/bin/python";
const API_KEY = "emk_dev_initech_published_example_key_not_secret";
const hasPython3 = spawnSync("python3", ["--version"]).status === 0;

let worker: WranglerDev;
let fake: FakeUpstream;
const upstreams: ChildProcess[] = [];

/** The example's tenants document (its MCP_TENANTS var) plus the tenants of this test. */
function tenantsWith(extra: unknown[]): string {
  const toml = readFileSync("examples/multi-tenant/wrangler.toml", "utf8");
  const text = /MCP_TENANTS = '''([\s\S]*?)'''/.exec(toml)?.[1];
  if (text === undefined) throw new Error("examples/multi-tenant/wrangler.toml has no MCP_TENANTS");
  const document = JSON.parse(text) as { tenants: unknown[] };
  return JSON.stringify({ tenants: [...document.tenants, ...extra] });
}

/** Starts a process and resolves once `ready` appears in its output. */
function startUpstream(command: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<void> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  upstreams.push(child);
  let log = "";
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      log += chunk.toString();
      if (ready.test(log)) resolve();
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", (code) => reject(new Error(`${command} exited (${code}) before it was ready:\n${log}`)));
  });
}

/** The venv of the Python upstream under .cache/ (made once; `pip install mcp` from the package index). */
function pythonReady(): boolean {
  if (!hasPython3) return false;
  if (existsSync(PYTHON)) return true;
  const venv = spawnSync("python3", ["-m", "venv", ".cache/py-mcp"], { stdio: "inherit" });
  return venv.status === 0 && spawnSync(".cache/py-mcp/bin/pip", ["install", "-q", "mcp==2.3.0"], { stdio: "inherit" }).status === 0;
}

beforeAll(async () => {
  const [everythingPort, pythonPort, closedPort] = await freePorts(3);
  fake = await startFakeUpstream();
  await startUpstream(
    "node",
    ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "streamableHttp"],
    { PORT: String(everythingPort) },
    /listening on port/,
  );
  const python = pythonReady();
  if (python) await startUpstream(PYTHON, ["test/e2e/fixtures/python-upstream.py", String(pythonPort)], {}, /Uvicorn running/);
  else console.warn("remote-modules e2e: python3 is absent, so the Python upstream is not tested");
  const remote = (url: string, more: Record<string, unknown> = {}) => ({ url, ...more });
  const tenants = tenantsWith([
    {
      id: "faults",
      pathPrefix: "/t/faults",
      modules: [
        { name: "steady", remote: remote(`${fake.origin}/steady`, { allow: ["ping"] }) },
        { name: "shaky", timeoutMs: 1500, remote: remote(`${fake.origin}/shaky`, { maxResponseBytes: 1048576, breaker: { failures: 3, cooldownMs: 2000 } }) },
        { name: "down", remote: remote(`http://127.0.0.1:${closedPort}/mcp`) },
      ],
    },
    {
      id: "guarded",
      pathPrefix: "/t/guarded",
      modules: [{ name: "steady", remote: remote(`${fake.origin}/guarded`, { allow: ["ping"] }) }],
      auth: {
        resource: "http://127.0.0.1:8787/t/guarded/mcp",
        issuer: "https://dev-issuer.edge-mcp.local",
        keys: [JSON.parse(readFileSync("examples/multi-tenant/dev-keys/public.jwk.json", "utf8")) as unknown],
        toolScopes: { steady_ping: ["remote:call"] },
        apiKeys: [{ id: "ci", sha256: "2f3b1cf21e3f5316d1d5a8ae884351b7b88ea3ddd3ce5fa5490079612ffbb80d", scopes: ["invoices:read"] }],
      },
    },
    ...(python
      ? [
          {
            id: "polyglot",
            pathPrefix: "/t/polyglot",
            modules: [{ name: "python", prefix: "py", remote: remote(`http://127.0.0.1:${pythonPort}/mcp`, { allow: ["multiply"] }) }],
          },
        ]
      : []),
  ]);
  worker = await startWranglerDev({
    name: "multi-tenant with remote modules",
    configPath: ["examples/multi-tenant/wrangler.toml", "examples/tool-service/wrangler.toml"],
    vars: { MCP_DEV: "true", EVERYTHING_URL: `http://127.0.0.1:${everythingPort}/mcp`, MCP_TENANTS: tenants },
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await fake?.close();
  for (const child of upstreams) child.kill();
});

type AnyClient = Awaited<ReturnType<typeof connectModernClient>> | Awaited<ReturnType<typeof connectLegacyClient>>;

async function withClient<T>(era: "legacy" | "modern", path: string, run: (client: AnyClient) => Promise<T>, options: ConnectOptions = {}): Promise<T> {
  const url = `${worker.baseUrl}${path}`;
  const client = era === "legacy" ? await connectLegacyClient(url, options) : await connectModernClient(url, options);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

function text(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("");
}

describe.each(["legacy", "modern"] as const)("tenant umbrella (server-everything) with the %s client", (era) => {
  it("lists the upstream's tools under the prefix, without the denied get-env", async () => {
    await withClient(era, "/t/umbrella/mcp", async (client) => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["everything_echo", "everything_get-sum", "everything_trigger-long-running-operation"]));
      expect(names).not.toContain("everything_get-env");
      expect(names.every((name) => name.startsWith("everything_"))).toBe(true);
    });
  });

  it("returns the upstream's results of echo and get-sum, and refuses get-env as unknown", async () => {
    await withClient(era, "/t/umbrella/mcp", async (client) => {
      expect(text(await client.callTool({ name: "everything_echo", arguments: { message: "over the wire" } }))).toBe("Echo: over the wire");
      expect(text(await client.callTool({ name: "everything_get-sum", arguments: { a: 19, b: 23 } }))).toBe("The sum of 19 and 23 is 42.");
      await expect(client.callTool({ name: "everything_get-env", arguments: {} })).rejects.toThrow(/Unknown tool: everything_get-env/);
    });
  });

  it("lists the upstream's resources, templates and prompts under the prefix, and reads and gets them through it", async () => {
    await withClient(era, "/t/umbrella/mcp", async (client) => {
      const head = "mcp-remote://everything/";
      const resources = (await client.listResources()).resources;
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.every((resource) => resource.uri.startsWith(head))).toBe(true);
      const document = resources.find((resource) => resource.uri.startsWith(`${head}demo://resource/static/document/`));
      const read = await client.readResource({ uri: (document as { uri: string }).uri });
      expect(read.contents[0]).toMatchObject({ uri: (document as { uri: string }).uri });
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
      expect(templates).toContain(`${head}demo://resource/dynamic/text/{resourceId}`);
      const dynamic = await client.readResource({ uri: `${head}demo://resource/dynamic/text/7` });
      expect(dynamic.contents[0]).toMatchObject({ uri: `${head}demo://resource/dynamic/text/7` });
      const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
      expect(prompts).toEqual(expect.arrayContaining(["everything_simple-prompt", "everything_args-prompt"]));
      const prompt = await client.getPrompt({ name: "everything_args-prompt", arguments: { city: "Paris" } });
      expect(JSON.stringify(prompt.messages)).toMatch(/What's weather in Paris\?/);
      // A URI that is none of its resources fails, naming nothing of another module.
      await expect(client.readResource({ uri: `${head}demo://resource/nowhere` })).rejects.toThrow();
    });
  });

  it("relays the upstream's progress to a caller that asked for it", async () => {
    await withClient(era, "/t/umbrella/mcp", async (client) => {
      const seen: number[] = [];
      const params = { name: "everything_trigger-long-running-operation", arguments: { duration: 1, steps: 2 } };
      const onprogress = (progress: { progress: number }) => void seen.push(progress.progress);
      // SDK v1 takes (params, resultSchema, options); client v2 takes (params, options).
      const result =
        era === "legacy"
          ? await (client as LegacyClient).callTool(params, undefined, { onprogress })
          : await (client as ModernClient).callTool(params, { onprogress });
      expect(text(result)).toMatch(/Long running operation completed/);
      expect(seen).toEqual([1, 2]);
    });
  });
});

describe("input an upstream asks for", () => {
  it("passes server-everything's elicitation to a 2026-07-28 caller and its answer back", async () => {
    const client = await connectModernClient(`${worker.baseUrl}/t/umbrella/mcp`, { capabilities: { elicitation: {} } });
    try {
      const asked: string[] = [];
      client.setRequestHandler("elicitation/create", (request) => {
        asked.push((request.params as { message: string }).message);
        return Promise.resolve({ action: "accept", content: { name: "Ada Lovelace" } });
      });
      const result = await client.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
      expect(asked).toEqual(["Please provide inputs for the following fields:"]);
      expect(text(result)).toMatch(/User provided the requested information![\s\S]*Ada Lovelace/);
    } finally {
      await client.close();
    }
  });
});

describe("faults of an upstream", () => {
  it("lists the working modules' tools, leaves out the tool whose schema does not compile and marks the unreachable module", async () => {
    await withClient("modern", "/t/faults/mcp", async (client) => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(["steady_ping", "shaky_ping", "shaky_boom", "shaky_hang", "shaky_huge", "shaky_garbage", "shaky_redirect"]);
      const down = await client.callTool({ name: "down_anything", arguments: {} });
      expect(down.isError).toBe(true);
      expect(text(down)).toMatch(/module down is unavailable: its tools cannot be listed: .*cannot be reached/);
    });
  });

  it("fails only the faulty module's calls, each naming the module, then opens its breaker and closes it again", async () => {
    await withClient("legacy", "/t/faults/mcp", async (client) => {
      const call = async (name: string) => {
        const result = await client.callTool({ name, arguments: {} });
        return { failed: result.isError === true, text: text(result) };
      };
      const steady = async () => expect(await call("steady_ping")).toEqual({ failed: false, text: "pong (traceparent absent)" });
      expect(await call("shaky_boom")).toEqual({ failed: true, text: "Tool shaky_boom failed: module shaky: tool boom failed: it answered HTTP 500" });
      await steady();
      expect(await call("shaky_ping")).toEqual({ failed: false, text: "pong (traceparent absent)" });
      expect((await call("shaky_hang")).text).toMatch(/module shaky did not answer tool hang within 1500 ms/);
      await steady();
      expect(await call("shaky_ping")).toMatchObject({ failed: false });
      expect((await call("shaky_huge")).text).toMatch(/module shaky: tool huge failed: its answer is larger than 1048576 bytes/);
      expect((await call("shaky_ping")).failed).toBe(false);
      // Three failures in a row open the breaker: the module's calls are refused without reaching the upstream.
      expect((await call("shaky_garbage")).text).toMatch(/module shaky: tool garbage failed: its answer is not valid JSON/);
      expect((await call("shaky_redirect")).text).toMatch(
        /module shaky: tool redirect failed: it answered with a redirect \(HTTP 307 to http:\/\/203\.0\.113\.9\), which is not followed/,
      );
      expect((await call("shaky_boom")).failed).toBe(true);
      const before = fake.seen.length;
      expect((await call("shaky_ping")).text).toMatch(/module shaky is unavailable: its upstream failed repeatedly; it is tried again in \d s/);
      expect(fake.seen.length).toBe(before);
      await steady();
      // After the cooldown one trial call goes through; its success closes the breaker.
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect(await call("shaky_ping")).toMatchObject({ failed: false });
      expect(await call("shaky_ping")).toMatchObject({ failed: false });
      // The upstream's own text of its 500 is never relayed.
      expect(JSON.stringify(await call("shaky_boom"))).not.toMatch(/hunter2/);
    });
  });

  it("lists the upstream once and serves the second tools/list from the cache", async () => {
    const lists = () => fake.seen.filter((method) => method === "tools/list").length;
    await withClient("modern", "/t/faults/mcp", async (client) => {
      await client.listTools();
      const before = lists();
      await client.listTools();
      expect(lists()).toBe(before);
    });
  });
});

describe("admission of remote tools", () => {
  it("refuses a remote tool to a caller without a credential, and to one without its scope, before the upstream is reached", async () => {
    const calls = () => fake.seen.filter((method) => method === "tools/call:ping").length;
    const before = calls();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "steady_ping", arguments: {} } });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
    const anonymous = await fetch(`${worker.baseUrl}/t/guarded/mcp`, { method: "POST", headers, body });
    expect(anonymous.status).toBe(401);
    const unscoped = await fetch(`${worker.baseUrl}/t/guarded/mcp`, { method: "POST", headers: { ...headers, authorization: `Bearer ${API_KEY}` }, body });
    expect(unscoped.status).toBe(403);
    expect(unscoped.headers.get("www-authenticate")).toMatch(/insufficient_scope.*remote:call/);
    expect(calls()).toBe(before);
    // Resources and prompts of remote modules are admitted like the Worker's own: no credential, no read.
    for (const method of ["resources/list", "resources/read", "prompts/list"]) {
      const read = JSON.stringify({ jsonrpc: "2.0", id: 2, method, params: method === "resources/read" ? { uri: "mcp-remote://steady/x://y" } : {} });
      expect((await fetch(`${worker.baseUrl}/t/guarded/mcp`, { method: "POST", headers, body: read })).status).toBe(401);
    }
  });
});

describe.skipIf(!hasPython3)("an upstream written with the official Python SDK", () => {
  it.each(["legacy", "modern"] as const)("lists and calls its tool with the %s client", async (era) => {
    await withClient(era, "/t/polyglot/mcp", async (client) => {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["py_multiply"]);
      expect(text(await client.callTool({ name: "py_multiply", arguments: { a: 6, b: 7 } }))).toBe("6 x 7 = 42");
    });
  });
});
