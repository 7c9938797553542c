// fullJsonSchema() where tools come from elsewhere than createServer: a tool service written with
// createToolService, the Worker that calls it through toolServices(), and the tenants of
// createMultiTenantWorker. A schema outside the core validator works with the opt-in on each side
// and is refused without it, as in createServer.
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool } from "../../src/index.ts";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { fullJsonSchema } from "../../src/json-schema.ts";
import type { ToolService } from "../../src/modules/service-contract.ts";
import { createMultiTenantWorker, type MultiTenantEnv } from "../../src/workers/create-multi-tenant-worker.ts";
import { createToolService, createWorker, toolServices } from "../../src/workers/index.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

/** A postcode is required for the Netherlands only: `if`/`then`, outside the core validator. */
const ship = defineTool({
  name: "ship",
  description: "Ships a parcel.",
  inputSchema: {
    type: "object",
    properties: { country: { type: "string" }, postcode: { type: "string" } },
    required: ["country"],
    if: { properties: { country: { const: "NL" } } },
    then: { required: ["postcode"] },
  },
  handler: (args) => `shipped to ${String(args["country"])}`,
});

const ping = defineTool({ name: "ping", description: "Answers pong.", inputSchema: { type: "object" }, handler: () => "pong" });

let id = 1;
async function rpc(worker: { fetch: ExportedHandlerFetchHandler<never> }, env: object, method: string, params: object, path = "/mcp") {
  const response = await worker.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }),
    }),
    env as never,
    ctx,
  );
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as { result?: Record<string, unknown>; error?: { code: number; message: string } } };
}

/** The service's RPC methods as a binding: they use neither `this.env` nor `this.ctx`. */
function asBinding(service: ReturnType<typeof createToolService>): ToolService {
  return Object.create(service.prototype as object) as ToolService;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createToolService with a schema outside the core validator", () => {
  it("refuses it when the module loads, naming the keywords and the opt-in", () => {
    expect(() => createToolService({ tools: [ship] })).toThrow(DefinitionError);
    expect(() => createToolService({ tools: [ship] })).toThrow(/if, then.*fullJsonSchema\(\)/);
  });

  it("serves it with fullJsonSchema(), to a Worker that validates with it too", async () => {
    const binding = asBinding(createToolService({ tools: [ship], jsonSchema: fullJsonSchema() }));
    expect((await binding.describe()).tools.map((tool) => tool.name)).toEqual(["ship"]);

    const worker = createWorker(
      { info: { name: "caller", version: "1.0.0" }, tools: [], features: [fullJsonSchema()] },
      { services: toolServices([{ binding: "PARCELS", prefix: "parcels" }]) },
    );
    const env = { PARCELS: binding };
    const listed = await rpc(worker, env, "tools/list", {});
    expect((listed.body.result?.["tools"] as { name: string }[]).map((tool) => tool.name)).toEqual(["parcels_ship"]);

    const shipped = await rpc(worker, env, "tools/call", { name: "parcels_ship", arguments: { country: "NL", postcode: "1011" } });
    expect(shipped.body.result).toMatchObject({ content: [{ type: "text", text: "shipped to NL" }] });
    expect((await rpc(worker, env, "tools/call", { name: "parcels_ship", arguments: { country: "FR" } })).body.result).toMatchObject({
      content: [{ text: "shipped to FR" }],
    });

    // The `then` branch is enforced on the caller's side, before the service is called.
    const refused = await rpc(worker, env, "tools/call", { name: "parcels_ship", arguments: { country: "NL" } });
    const answer = JSON.stringify(refused.body);
    expect(answer).toMatch(/postcode/);
    expect(answer).not.toMatch(/shipped to/);
  });

  it("is left out, with a log line, by a calling Worker without fullJsonSchema()", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const worker = createWorker(
      { info: { name: "caller", version: "1.0.0" }, tools: [ping] },
      { services: toolServices([{ binding: "PARCELS", prefix: "parcels" }]) },
    );
    const env = { PARCELS: asBinding(createToolService({ tools: [ship], jsonSchema: fullJsonSchema() })) };
    const listed = await rpc(worker, env, "tools/list", {});
    expect((listed.body.result?.["tools"] as { name: string }[]).map((tool) => tool.name)).toEqual(["ping"]);
    expect(errors.mock.calls.flat().map(String).join("\n")).toMatch(/parcels_ship[\s\S]*if, then/);
    const called = await rpc(worker, env, "tools/call", { name: "parcels_ship", arguments: { country: "NL", postcode: "1011" } });
    expect(JSON.stringify(called.body)).not.toMatch(/shipped to/);
  });
});

describe("createMultiTenantWorker with a tenant module outside the core validator", () => {
  const env: MultiTenantEnv = { MCP_TENANTS: JSON.stringify({ tenants: [{ id: "post", pathPrefix: "/t/post", modules: [{ name: "parcels" }] }] }) };

  it("serves the tenant with jsonSchema: fullJsonSchema(), validating the conditional branch", async () => {
    const worker = createMultiTenantWorker({ modules: { parcels: { tools: [ship] } }, jsonSchema: fullJsonSchema(), configTtlMs: 0 });
    const shipped = await rpc(worker, env, "tools/call", { name: "ship", arguments: { country: "NL", postcode: "1011" } }, "/t/post/mcp");
    expect(shipped.body.result).toMatchObject({ content: [{ text: "shipped to NL" }] });
    const refused = await rpc(worker, env, "tools/call", { name: "ship", arguments: { country: "NL" } }, "/t/post/mcp");
    expect(JSON.stringify(refused.body)).toMatch(/postcode/);
    expect(JSON.stringify(refused.body)).not.toMatch(/shipped to/);
  });

  it("answers 503 for that tenant without it, naming the keywords", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const worker = createMultiTenantWorker({ modules: { parcels: { tools: [ship] } }, configTtlMs: 0 });
    const answer = await rpc(worker, env, "tools/call", { name: "ship", arguments: { country: "NL", postcode: "1011" } }, "/t/post/mcp");
    expect(answer.status).toBe(503);
    expect(JSON.stringify(answer.body)).not.toMatch(/shipped to/);
    expect(errors.mock.calls.flat().map(String).join("\n")).toMatch(/if, then/);
  });
});
