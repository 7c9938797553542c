// Service-bound tools in a single-tenant createWorker (toolServices()), and a tool service written with
// createToolService: typed handlers, derived describe()/callTool(), admitted and scoped like bundled tools.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAuthorizer, defineTool, parseAuthConfig } from "../../src/index.ts";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { createNotificationHub, createTaskObject, createToolService, createWorker, toolServices, type WorkerOptions } from "../../src/workers/index.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const ping = defineTool({ name: "ping", description: "Answers pong.", inputSchema: { type: "object" }, handler: () => "pong" });
const SERVER = { info: { name: "single", version: "1.0.0" }, tools: [ping] };
const WEATHER_KEY = "emk_weather_reader_for_tool_service_tests";
const OTHER_KEY = "emk_no_scopes_for_tool_service_tests";

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A Worker as its module would export it: the env binds MCP_TASKS and MCP_NOTIFICATIONS, so their classes are made from it (and wire it). */
function served(worker: ReturnType<typeof createWorker>): ReturnType<typeof createWorker> {
  createTaskObject(worker);
  createNotificationHub(worker);
  return worker;
}

let id = 1;
async function rpc(worker: ReturnType<typeof createWorker>, method: string, params: Record<string, unknown> = {}, key?: string, on: object = env) {
  const response = await worker.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }),
    }),
    on,
    ctx,
  );
  return { status: response.status, body: await response.json<{ result?: Record<string, unknown>; error?: { code: number; message: string } }>() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createWorker with toolServices()", () => {
  const worker = served(createWorker(SERVER, { services: toolServices([{ binding: "TYPED", prefix: "weather" }]) }));

  it("lists the service's tools under its prefix next to the Worker's own, with the derived schemas", async () => {
    const { body } = await rpc(worker, "tools/list");
    const tools = body.result?.["tools"] as { name: string; inputSchema: Record<string, unknown>; annotations?: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(["ping", "weather_forecast", "weather_double", "weather_ask"]);
    expect(tools[1]).toMatchObject({ annotations: { readOnlyHint: true }, inputSchema: { required: ["city"], additionalProperties: false } });
    // The zod schema travels as the JSON Schema it converts to.
    expect(tools[2]?.inputSchema).toMatchObject({ type: "object", properties: { n: { type: "number" } } });
  });

  it("calls a typed handler through the binding, with the caller's identity", async () => {
    const { body } = await rpc(worker, "tools/call", { name: "weather_forecast", arguments: { city: "Oslo", days: 2 } });
    expect(body.result).toMatchObject({ content: [{ type: "text", text: "OSLO for 2 day(s), asked by anonymous of default" }] });
  });

  it("validates the arguments on the caller's side, against the listed schema", async () => {
    const { body } = await rpc(worker, "tools/call", { name: "weather_forecast", arguments: { city: "Oslo", days: 0 } });
    expect(body.result).toMatchObject({ isError: true });
    expect(JSON.stringify(body.result)).toMatch(/Invalid arguments for tool weather_forecast: \/days/);
  });

  it("gives a Standard Schema handler its parsed output (defaults applied in the service)", async () => {
    const { body } = await rpc(worker, "tools/call", { name: "weather_double", arguments: {} });
    expect(body.result).toMatchObject({ structuredContent: { doubled: 42 } });
  });

  it("logs that ctx.elicit belongs to the calling Worker, and tells the client only that the module failed", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { body } = await rpc(worker, "tools/call", { name: "weather_ask", arguments: {} });
    expect(body.result).toEqual({ content: [{ type: "text", text: "Tool weather_ask failed: module weather failed" }], isError: true });
    expect(errors.mock.calls.flat().join("\n")).toContain("edge-mcp: module weather: tool ask failed: ctx.elicit is not available in a tool service");
  });

  it("refuses a caller without the tool's scope at admission, and admits one with it", async () => {
    const scoped = served(
      createWorker(SERVER, {
        services: toolServices([{ binding: "TYPED", prefix: "weather" }]),
        authorizer: createAuthorizer(
          parseAuthConfig(
            {
              resource: "http://127.0.0.1/mcp",
              toolScopes: { weather_forecast: ["weather:read"] },
              apiKeys: [
                { id: "reader", sha256: await sha256(WEATHER_KEY), scopes: ["weather:read"] },
                { id: "other", sha256: await sha256(OTHER_KEY), scopes: [] },
              ],
            },
            "default",
          ),
        ),
      }),
    );
    expect((await rpc(scoped, "tools/call", { name: "weather_forecast", arguments: { city: "Lima" } })).status).toBe(401);
    const refused = await rpc(scoped, "tools/call", { name: "weather_forecast", arguments: { city: "Lima" } }, OTHER_KEY);
    expect(refused.status).toBe(403);
    const admitted = await rpc(scoped, "tools/call", { name: "weather_forecast", arguments: { city: "Lima" } }, WEATHER_KEY);
    expect(admitted.body.result).toMatchObject({ content: [{ text: "LIMA for 1 day(s), asked by reader of default" }] });
  });

  it("answers a clear error naming a binding missing from wrangler.toml, and one that is not a tool service", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const missing = await rpc(served(createWorker(SERVER, { services: toolServices([{ binding: "WEATHER" }]) })), "tools/list");
    expect(missing.status).toBe(500);
    expect(missing.body.error).toEqual({
      code: -32603,
      message:
        'Internal error: the server is misconfigured: missing binding WEATHER (toolServices() names it): add to wrangler.toml:\n\n[[services]]\nbinding = "WEATHER"\nservice = "<the tool service Worker>"\nentrypoint = "<its class>"\n',
    });
    const notService = await rpc(served(createWorker(SERVER, { services: toolServices([{ binding: "MCP_STATE_SECRET" }]) })), "tools/list");
    expect(notService.body.error?.message).toContain("MCP_STATE_SECRET is not a tool service binding");
    expect(errors.mock.calls.flat().join("\n")).toContain(
      'edge-mcp: cannot serve the request: missing binding WEATHER (toolServices() names it): add to wrangler.toml:\n\n[[services]]\nbinding = "WEATHER"',
    );
  });

  it("refuses bad toolServices() entries and a compiled server when the Worker is made", async () => {
    const { createServer } = await import("../../src/server/server.ts");
    expect(() => toolServices([{ binding: "not a binding" }])).toThrow(DefinitionError);
    expect(() =>
      toolServices([
        { binding: "A", prefix: "x" },
        { binding: "B", prefix: "x" },
      ]),
    ).toThrow(/prefix x is used twice/);
    expect(() => toolServices([{ binding: "A", timeoutMs: 0 }])).toThrow(/timeoutMs must be a positive integer/);
    expect(() => createWorker(createServer(SERVER), { services: toolServices([{ binding: "TYPED" }]) })).toThrow(/needs the server as options/);
    expect(() => createWorker(SERVER, { services: [{ binding: "TYPED" }] } as unknown as WorkerOptions)).toThrow(
      /createWorker option services must be toolServices\(\[\{ binding: "WEATHER", prefix: "weather" \}\]\) from edge-mcp\/workers/,
    );
    // A Durable Object class made from a server (not a Worker) is given the Worker's options again: checked the same.
    expect(() => createTaskObject(SERVER, { services: [{ binding: "TYPED" }] } as unknown as WorkerOptions)).toThrow(
      /createWorker option services must be toolServices\(\[\{ binding: "WEATHER", prefix: "weather" \}\]\) from edge-mcp\/workers/,
    );
    expect(() => createTaskObject(createServer(SERVER), { services: toolServices([{ binding: "TYPED" }]) })).toThrow(/needs the server as options/);
  });

  it("keeps defineTool's typed arguments in createToolService", () => {
    const service = createToolService({
      tools: [
        defineTool({
          name: "count",
          inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
          // @ts-expect-error n is a number, not the string this handler says it returns
          handler: (args): string => args.n,
        }),
      ],
    });
    expect(typeof service).toBe("function");
  });
});
