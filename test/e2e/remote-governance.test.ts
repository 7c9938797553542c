// A remote module governed like the Worker's own tools: server-everything (npm) mounted in a tenant of the
// multi-tenant example under `wrangler dev`, with tool search, code mode, a tool rate limit, usage records and
// traces on. Tool search finds its tools (never the denied one), a code-mode program calls them through admission,
// the rate limit refuses the call over it, and every forwarded call is counted in usage and traced.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePorts } from "./free-ports.ts";
import { startOtlpReceiver, type OtlpReceiver } from "./otlp-receiver.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const ADMIN = "e2e-admin-token-not-a-secret";
/** The example's TOOL_RATE_LIMIT binding: 20 calls a minute per key. */
const RATE_LIMIT = 20;

let worker: WranglerDev;
let receiver: OtlpReceiver;
let everything: ChildProcess | undefined;
let state = "";

/** The example's tenants document plus the tenant of this test. */
function tenantsWith(extra: unknown): string {
  const toml = readFileSync("examples/multi-tenant/wrangler.toml", "utf8");
  const text = /MCP_TENANTS = '''([\s\S]*?)'''/.exec(toml)?.[1];
  if (text === undefined) throw new Error("examples/multi-tenant/wrangler.toml has no MCP_TENANTS");
  return JSON.stringify({ tenants: [...(JSON.parse(text) as { tenants: unknown[] }).tenants, extra] });
}

beforeAll(async () => {
  const [port] = await freePorts(1);
  state = mkdtempSync(join(tmpdir(), "edge-mcp-remote-governance-"));
  everything = spawn("node", ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let log = "";
    const seen = (chunk: Buffer) => {
      log += chunk.toString();
      if (/listening on port/.test(log)) resolve();
    };
    everything?.stdout?.on("data", seen);
    everything?.stderr?.on("data", seen);
    everything?.once("exit", (code) => reject(new Error(`server-everything exited (${code}):\n${log}`)));
  });
  receiver = await startOtlpReceiver();
  const gateway = {
    id: "gateway",
    pathPrefix: "/t/gateway",
    modules: [{ name: "everything", prefix: "everything", remote: { url: `http://127.0.0.1:${port}/mcp`, protocol: "auto", deny: ["get-env"] } }],
    toolSearch: {},
    codeMode: true,
    rateLimits: { tool: "TOOL_RATE_LIMIT", retryAfterSeconds: 60 },
  };
  worker = await startWranglerDev({
    name: "multi-tenant with a governed remote module",
    configPath: ["examples/multi-tenant/wrangler.toml", "examples/tool-service/wrangler.toml"],
    vars: { MCP_DEV: "true", MCP_TENANTS: tenantsWith(gateway), MCP_ADMIN_TOKEN: ADMIN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    args: ["--persist-to", state],
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  everything?.kill();
  if (state !== "") rmSync(state, { recursive: true, force: true });
});

let nextId = 1;
/** A stateless 2026-07-28 tools/call at the gateway tenant: the JSON-RPC answer. */
async function call(
  name: string,
  args: object,
): Promise<{ result?: { content: { text?: string }[]; isError?: boolean }; error?: { code: number; message: string } }> {
  const response = await fetch(`${worker.baseUrl}/t/gateway/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method: "tools/call",
      params: { name, arguments: args, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
    }),
  });
  const text = await response.text();
  // A refusal at admission may come as an HTTP error with a JSON-RPC body.
  return JSON.parse(text.startsWith("event:") || text.startsWith("data:") ? (/data: (.*)/.exec(text)?.[1] ?? "{}") : text) as never;
}

const textOf = (answer: Awaited<ReturnType<typeof call>>) => (answer.result?.content ?? []).map((c) => c.text ?? "").join("");

describe("a remote module under the tenant's governance", () => {
  it("is found by tool search, the denied tool never", async () => {
    const found = textOf(await call("search_tools", { query: "add two numbers sum", limit: 5 }));
    expect(found).toContain("everything_get-sum");
    const env = textOf(await call("search_tools", { query: "environment variables get env", limit: 20 }));
    expect(env).not.toContain("everything_get-env");
  });

  it("is called from a code-mode program through admission: a listed tool answers, the denied one is unknown", async () => {
    const sum = await call("execute", { code: `const r = await tools["everything_get-sum"]({ a: 2, b: 3 });\nreturn r;` });
    expect(sum.result?.isError, JSON.stringify(sum)).not.toBe(true);
    expect(textOf(sum)).toContain("5");
    const denied = await call("execute", { code: `return await tools["everything_get-env"]({});` });
    expect(JSON.stringify(denied)).not.toMatch(/PATH|HOME=/);
    expect(denied.result?.isError === true || denied.error !== undefined, JSON.stringify(denied)).toBe(true);
  });

  it("is metered and traced, and refused over the tenant's tool rate limit", async () => {
    const answers: Awaited<ReturnType<typeof call>>[] = [];
    for (let i = 0; i < RATE_LIMIT + 2; i++) answers.push(await call("everything_echo", { message: `hi ${i}` }));
    const served = answers.filter((answer) => textOf(answer).includes("Echo: hi"));
    const refused = answers.filter((answer) => !textOf(answer).includes("Echo: hi"));
    expect(served.length).toBeLessThanOrEqual(RATE_LIMIT);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(refused[refused.length - 1])).toMatch(/rate limit/i);
    // Every served forwarded call is in the tenant's usage, under its prefixed name.
    const report = await vi.waitFor(
      async () => {
        const answer = await fetch(`${worker.baseUrl}/admin/usage?tenant=gateway&by=tool`, { headers: { authorization: `Bearer ${ADMIN}` } });
        const body = await answer.json<{ rows: { key: string; calls: number }[] }>();
        const echo = body.rows.find((row) => row.key === "everything_echo");
        if ((echo?.calls ?? 0) < served.length) throw new Error(`usage so far: ${JSON.stringify(body.rows)}`);
        return body;
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(report.rows.find((row) => row.key === "everything_echo")?.calls).toBeGreaterThanOrEqual(served.length);
    // And traced: a server span per forwarded call.
    await vi.waitFor(
      () =>
        expect(receiver.spans().filter((span) => span.kind === 2 && span.name === "tools/call everything_echo").length).toBeGreaterThanOrEqual(served.length),
      { timeout: 20_000, interval: 250 },
    );
  });
});
