// Two tenants on one Worker with the official clients: each sees and calls only its own tools; a service-bound
// module is listed with its prefix and called through its binding; faults stay inside their module.
import { describe, expect, inject, it } from "vitest";
import { capturingToolCalls, connectLegacyClient, connectModernClient, type ConnectOptions } from "./clients.ts";
import { fetchWithHost } from "./host-fetch.ts";

const base = inject("baseUrlMultiTenant");
const port = new URL(base).port;
interface Tenant {
  url: string;
  options: ConnectOptions;
}

// acme is resolved by host: the client talks to 127.0.0.1 with Host: acme.localhost:PORT.
const ACME: Tenant = { url: `${base}/mcp`, options: { fetch: fetchWithHost(`acme.localhost:${port}`) } };
const GLOBEX: Tenant = { url: `${base}/t/globex/mcp`, options: {} };

type AnyClient = Awaited<ReturnType<typeof connectModernClient>> | Awaited<ReturnType<typeof connectLegacyClient>>;

async function withClient<T>(era: "legacy" | "modern", tenant: Tenant, run: (client: AnyClient) => Promise<T>): Promise<T> {
  const client = era === "legacy" ? await connectLegacyClient(tenant.url, tenant.options) : await connectModernClient(tenant.url, tenant.options);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

async function toolNames(client: AnyClient): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

function text(result: unknown): string {
  const content = (result as { content?: { text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
}

describe.each(["legacy", "modern"] as const)("tenants with the %s client", (era) => {
  it("gives acme (by host) only its bundled tools", async () => {
    await withClient(era, ACME, async (client) => {
      expect(await toolNames(client)).toEqual(["hello", "invoice_total"]);
      expect(text(await client.callTool({ name: "hello", arguments: { name: "Ann" } }))).toBe("Hello Ann, from tenant acme");
      expect(text(await client.callTool({ name: "invoice_total", arguments: { lines: [1, 2.5] } }))).toBe("Total: 3.5");
    });
  });

  it("gives globex (by path) its bundled tools plus the service's, prefixed, and none of acme's", async () => {
    await withClient(era, GLOBEX, async (client) => {
      expect(await toolNames(client)).toEqual(["hello", "weather_forecast", "weather_boom", "weather_stall"]);
      expect(text(await client.callTool({ name: "weather_forecast", arguments: { city: "Oslo" } }))).toBe("Oslo: Snow, -3 °C (for tenant globex)");
      expect(text(await client.callTool({ name: "hello", arguments: { name: "Bo" } }))).toBe("Hello Bo, from tenant globex");
      await expect(client.callTool({ name: "invoice_total", arguments: { lines: [1] } })).rejects.toThrow(/Unknown tool: invoice_total/);
    });
  });

  it("keeps the other tools working when a service module throws, hangs or is not bound, naming the module", async () => {
    await withClient(era, GLOBEX, async (client) => {
      const boom = await client.callTool({ name: "weather_boom", arguments: {} });
      expect(boom.isError).toBe(true);
      // What the service threw is in the Worker's log only.
      expect(text(boom)).toBe("Tool weather_boom failed: module weather failed");
      const stall = await client.callTool({ name: "weather_stall", arguments: {} });
      expect(stall.isError).toBe(true);
      expect(text(stall)).toMatch(/module weather did not answer tool stall within 1000 ms/);
      const ghost = await client.callTool({ name: "ghost_lookup", arguments: {} });
      expect(ghost.isError).toBe(true);
      expect(text(ghost)).toMatch(/module ghost is unavailable: its service binding GHOST is not bound/);
      expect(text(await client.callTool({ name: "weather_forecast", arguments: { city: "Lima" } }))).toMatch(/^Lima: Cloudy/);
    });
  });
});

describe("tenant resolution over raw HTTP", () => {
  it("answers an unknown host or path with 404 and a JSON-RPC error", async () => {
    const response = await fetchWithHost(`other.localhost:${port}`)(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/Unknown tenant/) } });
    expect((await fetch(`${base}/t/nobody/mcp`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("answers a 2025 client in a session with 429 and Retry-After once globex's per-tool limit is passed", async () => {
    const { fetch: capture, seen } = capturingToolCalls();
    const client = await connectLegacyClient(GLOBEX.url, { fetch: capture });
    try {
      const outcomes: string[] = [];
      // The simulated limit counts in fixed 60 s windows: a window that starts mid-test allows up to 20 more.
      for (let i = 0; i < 45 && !outcomes.includes("429"); i++) {
        // session_probe is no tool: each call is -32602 until the limit answers first.
        const error = await client.callTool({ name: "session_probe", arguments: {} }).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        outcomes.push(error && /429/.test(error.message) ? "429" : error && /Unknown tool/.test(error.message) ? "unknown" : String(error));
      }
      expect(outcomes.slice(0, 20)).toEqual(Array(20).fill("unknown"));
      expect(outcomes.at(-1)).toBe("429");
      expect(outcomes.slice(0, -1).every((outcome) => outcome === "unknown")).toBe(true);
      const limited = seen.at(-1) as Response;
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("60");
      expect(await limited.json()).toMatchObject({ error: { code: -31429, data: { retryAfterSeconds: 60 } } });
    } finally {
      await client.close();
    }
  });

  it("answers 429 with Retry-After once globex's per-tool limit is passed", async () => {
    const call = () =>
      fetch(`${base}/t/globex/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "rate_probe",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "rate_probe",
            arguments: {},
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
          },
        }),
      });
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 45 && !limited; i++) {
      const response = await call();
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else await response.text();
    }
    // rate_probe is no tool: the first 20 calls get -32602 (HTTP 200), then the limit answers.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(limited?.headers.get("retry-after")).toBe("60");
    expect(await limited?.json()).toMatchObject({ id: 1, error: { code: -31429, data: { retryAfterSeconds: 60 } } });
  });
});
