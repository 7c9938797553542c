// Options mean what they say: explicit createWorker options win over [vars], bad values fail at startup, auth can come from env.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAuthorizer, parseAuthConfig } from "../../src/index.ts";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { createServer } from "../../src/server/server.ts";
import {
  createMultiTenantWorker,
  createSessionObject,
  createTaskObject,
  createWorker,
  type McpEnv,
  type McpWorker,
  type WorkerOptions,
} from "../../src/workers/index.ts";
import { makingOf } from "../../src/workers/create-worker.ts";

const server = createServer({ info: { name: "t", version: "1" }, tools: [] });
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const LEGACY_LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

function call<E>(worker: McpWorker<E>, env: object, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request("http://127.0.0.1:8787/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...headers },
    body: JSON.stringify(LEGACY_LIST),
  });
  return Promise.resolve(worker.fetch(request as Parameters<McpWorker<E>["fetch"]>[0], env as E, ctx));
}

function definitionError(make: () => unknown): string {
  let thrown: unknown;
  try {
    make();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DefinitionError);
  return (thrown as Error).message;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("precedence: createWorker options over [vars]", () => {
  it("answers SSE for responseMode: sse although MCP_RESPONSE_MODE says auto", async () => {
    const response = await call(createWorker(server, { responseMode: "sse" }), { MCP_RESPONSE_MODE: "auto" });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
  });

  it("takes MCP_RESPONSE_MODE when the code leaves responseMode unset", async () => {
    const response = await call(createWorker(server), { MCP_RESPONSE_MODE: "sse" });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect((await call(createWorker(server), { MCP_RESPONSE_MODE: "auto" })).headers.get("content-type")).toBe("application/json");
  });

  it("logs messages for debug: true although MCP_DEBUG says false, and none for debug: false although it says true", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await call(createWorker(server, { debug: true }), { MCP_DEBUG: "false" });
    expect(log.mock.calls.some(([line]) => String(line).startsWith("edge-mcp debug"))).toBe(true);
    log.mockClear();
    await call(createWorker(server, { debug: false }), { MCP_DEBUG: "true" });
    expect(log.mock.calls.some(([line]) => String(line).startsWith("edge-mcp debug"))).toBe(false);
  });

  it("applies the same precedence in a multi-tenant Worker", async () => {
    const worker = createMultiTenantWorker({
      modules: { m: { tools: [] } },
      tenants: { tenants: [{ id: "a", pathPrefix: "/t/a", modules: [{ name: "m" }] }] },
      responseMode: "sse",
    });
    const response = await worker.fetch(
      new Request("http://127.0.0.1:8787/t/a/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify(LEGACY_LIST),
      }),
      { MCP_RESPONSE_MODE: "json" },
      ctx,
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
  });
});

describe("option values checked when the Worker is made", () => {
  it.each([
    [{ keepAliveMs: -5 }, "createWorker option keepAliveMs must be an integer from 0 (ms; 0 turns keep-alives off); got -5"],
    [{ bodyTimeoutMs: "10s" }, 'createWorker option bodyTimeoutMs must be an integer from 1 (ms, e.g. 10000 for 10 s); got "10s"'],
    [{ maxBodyBytes: 0 }, "createWorker option maxBodyBytes must be an integer from 1"],
    [{ responseMode: "stream" }, 'createWorker option responseMode must be one of "auto", "json", "sse"; got "stream"'],
    [{ notificationShards: 65 }, "createWorker option notificationShards must be an integer from 1 to 64; got 65"],
    [{ limits: { toolTimeoutMs: 1.5 } }, "createWorker option limits.toolTimeoutMs must be an integer from 1 (ms); got 1.5"],
    [{ debug: "true" }, 'createWorker option debug must be true or false; got "true"'],
    [{ limit: { toolTimeoutMs: 10 } }, "createWorker option limit is not a known option; did you mean limits?"],
    [{ tasks: { ttl: 5 } }, "createWorker option tasks.ttl is not a known option"],
    [{ tasks: { pollInterval: 5 } }, "createWorker option tasks.pollInterval is not a known option; did you mean pollIntervalMs?"],
    [{ tasks: { ttlMs: 0 } }, "createWorker option tasks.ttlMs must be an integer from 1 (ms); got 0"],
    [{ tasks: "yes" }, 'createWorker option tasks must be true, false or an object; got "yes"'],
  ])("refuses %j", (options, message) => {
    expect(definitionError(() => createWorker(server, options as WorkerOptions))).toContain(message);
  });

  it("checks createServer and createMultiTenantWorker options too", () => {
    expect(definitionError(() => createServer({ info: { name: "t", version: "1" }, pageSize: 0 }))).toBe(
      "createServer option pageSize must be an integer from 1 (items); got 0",
    );
    expect(definitionError(() => createServer({ info: { name: "t" } as never }))).toContain(
      "createServer option info must be an object with a name and a version",
    );
    expect(definitionError(() => createMultiTenantWorker({ modules: {}, configTtlMs: -1 }))).toBe(
      "createMultiTenantWorker option configTtlMs must be an integer from 0 (ms); got -1",
    );
  });

  it("accepts every documented value, and undefined as unset", () => {
    expect(() =>
      createWorker(server, {
        keepAliveMs: 0,
        bodyTimeoutMs: 5000,
        responseMode: "json",
        debug: undefined,
        tasks: { ttlMs: 60_000 },
        notificationShards: 64,
        allow: { hosts: ["mcp.example.com"] },
        limits: { toolTimeoutMs: 1000 },
      } as unknown as WorkerOptions),
    ).not.toThrow();
  });
});

describe("an authorizer built from env", () => {
  const authorizerOf = vi.fn((env: McpEnv & { API_KEY_SHA256: string }) =>
    createAuthorizer(parseAuthConfig({ resource: "http://127.0.0.1:8787/mcp", apiKeys: [{ id: "dev", sha256: env.API_KEY_SHA256 }] }, "default")),
  );

  it("is built once per env object and used for every request of it", async () => {
    const worker = createWorker<McpEnv & { API_KEY_SHA256: string }>(server, { authorizer: authorizerOf });
    const env = { API_KEY_SHA256: "0".repeat(64) };
    expect((await call(worker, env)).status).toBe(401);
    expect((await call(worker, env, { authorization: "Bearer emk_wrong" })).status).toBe(401);
    expect(authorizerOf).toHaveBeenCalledTimes(1);
    await call(worker, { API_KEY_SHA256: "1".repeat(64) });
    expect(authorizerOf).toHaveBeenCalledTimes(2);
  });

  it("refuses an authorizer option that is neither an authorizer nor a function", () => {
    expect(definitionError(() => createWorker(server, { authorizer: { verify() {} } as never }))).toContain(
      "createWorker option authorizer must be an authorizer (from createAuthorizer) or a function of env that returns one",
    );
  });
});

describe("Durable Object classes made from the Worker", () => {
  it("carry the Worker's server and options, written once", () => {
    const options = { quotas: { sessions: { perPrincipal: 3, perTenant: 9 } }, responseMode: "json" } as const;
    const worker = createWorker(server, options);
    expect(makingOf(worker)).toEqual({ server, options });
    // Hidden from the Worker's shape: the runtime sees a plain handler.
    expect(Object.keys(worker)).toEqual(["fetch"]);
    expect(createTaskObject(worker).name).toBe("McpTaskObject");
    expect(createSessionObject(worker, { idleTtlMs: 60_000 }).name).toBe("McpSessionObject");
  });

  it("knows nothing of a handler that createWorker did not make", () => {
    expect(makingOf({ fetch: () => new Response() })).toBeUndefined();
    expect(makingOf(server)).toBeUndefined();
    expect(makingOf(null)).toBeUndefined();
  });
});
