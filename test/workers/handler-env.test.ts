// ctx.env: every handler (tool, resource, resource template, prompt, completion) reads the bindings of
// the Worker that runs it, and a tool service's handler reads the service Worker's own.
import { describe, expect, it } from "vitest";
import { defineResource, defineResourceTemplate, definePrompt, defineTool } from "../../src/index.ts";
import type { ToolService } from "../../src/modules/service-contract.ts";
import { createToolService, createWorker, type McpWorker } from "../../src/workers/index.ts";

// The project's own bindings, named once (what a project writes with `declare module "edge-mcp"`).
declare module "../../src/index.ts" {
  interface HandlerEnv {
    GREETING?: string;
  }
}

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

const greet = defineTool({ name: "greet", description: "Greets.", inputSchema: { type: "object" }, handler: (_args, ctx) => `${ctx.env.GREETING ?? "none"}!` });
const motto = defineResource({ uri: "note://motto", name: "motto", read: (_request, ctx) => `motto: ${ctx.env.GREETING ?? "none"}` });
const note = defineResourceTemplate({
  uriTemplate: "note://{id}",
  name: "note",
  read: ({ variables }, ctx) => `${variables["id"] ?? ""}: ${ctx.env.GREETING ?? "none"}`,
  complete: { id: (value, _context, ctx) => [`${value}-${ctx.env.GREETING ?? "none"}`] },
});
const welcome = definePrompt({
  name: "welcome",
  arguments: [{ name: "who" }],
  get: (args, ctx) => [{ role: "user", content: { type: "text", text: `${ctx.env.GREETING ?? "none"}, ${args["who"] ?? ""}` } }],
  complete: { who: (value, _context, ctx) => [`${value}${ctx.env.GREETING ?? "none"}`] },
});

const worker = createWorker({ info: { name: "env", version: "1.0.0" }, tools: [greet], resources: [motto], resourceTemplates: [note], prompts: [welcome] });

let id = 1;
async function rpc(target: McpWorker<object>, env: object, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const response = await target.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }),
    }),
    env,
    ctx,
  );
  const body = await response.json<{ result?: Record<string, unknown>; error?: unknown }>();
  expect(body.error).toBeUndefined();
  return body.result ?? {};
}

describe("ctx.env in a Worker's handlers", () => {
  it("hands a tool the env of the request's Worker, per env", async () => {
    expect(await rpc(worker, { GREETING: "hola" }, "tools/call", { name: "greet", arguments: {} })).toMatchObject({ content: [{ text: "hola!" }] });
    expect(await rpc(worker, { GREETING: "salut" }, "tools/call", { name: "greet", arguments: {} })).toMatchObject({ content: [{ text: "salut!" }] });
  });

  it("hands it to resources, resource templates and prompts", async () => {
    const env = { GREETING: "hej" };
    expect(await rpc(worker, env, "resources/read", { uri: "note://motto" })).toMatchObject({ contents: [{ text: "motto: hej" }] });
    expect(await rpc(worker, env, "resources/read", { uri: "note://7" })).toMatchObject({ contents: [{ text: "7: hej" }] });
    expect(await rpc(worker, env, "prompts/get", { name: "welcome", arguments: { who: "Ada" } })).toMatchObject({
      messages: [{ content: { text: "hej, Ada" } }],
    });
  });

  it("hands it to the completers of prompt arguments and template variables", async () => {
    const env = { GREETING: "ciao" };
    const prompt = await rpc(worker, env, "completion/complete", { ref: { type: "ref/prompt", name: "welcome" }, argument: { name: "who", value: "A" } });
    expect(prompt).toMatchObject({ completion: { values: ["Aciao"] } });
    const template = await rpc(worker, env, "completion/complete", { ref: { type: "ref/resource", uri: "note://{id}" }, argument: { name: "id", value: "7" } });
    expect(template).toMatchObject({ completion: { values: ["7-ciao"] } });
  });
});

describe("ctx.env in a tool service", () => {
  it("is the service Worker's own env, not the caller's", async () => {
    const Service = createToolService({ tools: [greet] });
    // The RPC method as workerd runs it: an instance whose `env` is the service's bindings.
    const service = Object.assign(Object.create(Service.prototype as object) as ToolService, { env: { GREETING: "from the service" } });
    const result = await service.callTool("greet", {}, { tenant: "default", protocolVersion: "2026-07-28", scopes: [] });
    expect(result).toMatchObject({ content: [{ text: "from the service!" }] });
  });
});
