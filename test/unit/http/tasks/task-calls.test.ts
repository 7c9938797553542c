// tools/call of task tools through the whole app (memory task gateway): who gets a task, beforeTask and MRTR, discover, declarations.
import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { createEndpointApp } from "../../../../src/http/app.ts";
import { createEndpoint, type Endpoint } from "../../../../src/http/endpoint.ts";
import { resolveTaskSettings } from "../../../../src/http/tasks/task-gateway.ts";
import { parseSubscriptionFilter } from "../../../../src/server/notifications/subscription-filter.ts";
import { createServer } from "../../../../src/server/server.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { createMemoryTaskGateway } from "../../../../src/tasks/memory-task-gateway.ts";
import { taskServing, tasks as tasksFeature } from "../../../../src/http/tasks/task-serving.ts";
import { agreedTaskIds } from "../../../../src/http/listen/agreed-task-ids.ts";
import type { InboundRequest } from "../../../../src/core/jsonrpc.ts";
import type { ModernRequestInfo } from "../../../../src/core/era.ts";
import type { Admission } from "../../../../src/core/admission.ts";
import { parseTenantConfig } from "../../../../src/tenancy/tenant-config.ts";
import { legacy, modern } from "../../app-client.ts";

const TASKS = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
const withTasks = { "io.modelcontextprotocol/clientCapabilities": TASKS };
const ASK = { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
let created = 0;

const tools = [
  defineTool({ name: "plain", description: "Never a task.", inputSchema: { type: "object" }, handler: () => "plain" }),
  defineTool({
    name: "greeter",
    description: "Asks a name before the task, greets in the task.",
    inputSchema: { type: "object", properties: { polite: { type: "boolean" } } },
    task: "required",
    beforeTask: async (args, ctx) => {
      const answer = await ctx.elicit(ASK, { key: "name" });
      if (answer.action !== "accept") return "No task: you declined.";
      created++;
      return undefined;
    },
    handler: async (_args, ctx) =>
      `Hello, ${String((await ctx.elicit(ASK, { key: "name" })).content?.["name"])}, from ${ctx.taskId?.length} characters of task id`,
  }),
  defineTool({
    name: "counted",
    description: "A task for every client that supports them.",
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    task: "optional",
    handler: (args) => `n=${String(args["n"])}`,
  }),
];
const server = createServer({ info: { name: "t", version: "1" }, tools });

function app(tasksOn = true) {
  let endpoint: Endpoint | undefined;
  const gateway = createMemoryTaskGateway(() => endpoint as Endpoint);
  endpoint = createEndpoint({ server, ...(tasksOn ? { tasks: gateway } : {}) });
  return createEndpointApp(endpoint);
}

async function poll(a: ReturnType<typeof app>, taskId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 1000; i++) {
    const reply = await modern(a, "tasks/get", { taskId }, withTasks);
    const task = reply.body["result"] as Record<string, unknown>;
    if (task["status"] === "completed" || task["status"] === "failed") return task;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error("the task never finished");
}

describe("tools/call of a task tool", () => {
  it("asks before the task exists with MRTR, then creates the task with the answers, without requestState", async () => {
    const a = app();
    const round1 = (await modern(a, "tools/call", { name: "greeter", arguments: {} }, withTasks)).body["result"] as Record<string, unknown>;
    expect(round1).toMatchObject({ resultType: "input_required", inputRequests: { name: { method: "elicitation/create" } } });
    expect(round1).not.toHaveProperty("taskId");
    const round2 = (
      await modern(
        a,
        "tools/call",
        { name: "greeter", arguments: {}, inputResponses: { name: { action: "accept", content: { name: "Alice" } } }, requestState: round1["requestState"] },
        withTasks,
      )
    ).body["result"] as Record<string, unknown>;
    expect(round2).toMatchObject({ resultType: "task", status: "working" });
    expect(round2).not.toHaveProperty("requestState");
    expect(round2).not.toHaveProperty("inputRequests");
    const done = await poll(a, round2["taskId"] as string);
    expect(done["result"]).toEqual({ content: [{ type: "text", text: "Hello, Alice, from 32 characters of task id" }] });
  });

  it("answers without a task when beforeTask returns a result", async () => {
    const before = created;
    const reply = await modern(app(), "tools/call", { name: "greeter", arguments: {}, inputResponses: { name: { action: "decline" } } }, withTasks);
    expect(reply.body["result"]).toMatchObject({ resultType: "complete", content: [{ text: "No task: you declined." }] });
    expect(created).toBe(before);
  });

  it("answers invalid arguments with an isError result at once, without a task", async () => {
    const reply = await modern(app(), "tools/call", { name: "counted", arguments: { n: "one" } }, withTasks);
    expect(reply.body["result"]).toMatchObject({ resultType: "complete", isError: true });
  });

  it("runs an optional tool synchronously, and refuses a required one with -32021, for a client without the extension", async () => {
    const a = app();
    expect((await modern(a, "tools/call", { name: "counted", arguments: { n: 2 } })).body["result"]).toMatchObject({
      resultType: "complete",
      content: [{ text: "n=2" }],
    });
    const refused = await modern(a, "tools/call", { name: "greeter", arguments: {} });
    expect(refused.status).toBe(400);
    expect(refused.body["error"]).toEqual({
      code: -32021,
      message: expect.stringMatching(/io.modelcontextprotocol\/tasks/),
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
  });

  it("never gives a 2025-era client a task: a required tool explains itself in an isError result", async () => {
    const a = app();
    expect((await legacy(a, "tools/call", { name: "counted", arguments: { n: 3 } })).body["result"]).toEqual({ content: [{ type: "text", text: "n=3" }] });
    expect((await legacy(a, "tools/call", { name: "greeter", arguments: {} })).body["result"]).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/runs only as a task/) }],
    });
  });

  it("ignores a legacy params.task on a tool that is never a task", async () => {
    const reply = await modern(app(), "tools/call", { name: "plain", arguments: {}, task: { ttl: 1000 } }, withTasks);
    expect(reply.body["result"]).toMatchObject({ resultType: "complete", content: [{ text: "plain" }] });
  });
});

describe("tasks and discovery", () => {
  it("lists the extension only on an endpoint that runs tasks, and answers tasks/* with -32601 elsewhere", async () => {
    const on = (await modern(app(), "server/discover")).body["result"] as { capabilities: Record<string, unknown> };
    expect(on.capabilities["extensions"]).toEqual({ "io.modelcontextprotocol/tasks": {} });
    const off = app(false);
    expect(((await modern(off, "server/discover")).body["result"] as { capabilities: Record<string, unknown> }).capabilities).not.toHaveProperty("extensions");
    const get = await modern(off, "tasks/get", { taskId: "x" }, withTasks);
    expect([get.status, (get.body["error"] as { code: number }).code]).toEqual([404, -32601]);
    const noTaskTools = createEndpointApp(
      createEndpoint({
        server: createServer({ info: { name: "t", version: "1" }, tools: [tools[0] as (typeof tools)[0]] }),
        tasks: createMemoryTaskGateway(() => undefined as never),
      }),
    );
    expect(((await modern(noTaskTools, "server/discover")).body["result"] as { capabilities: Record<string, unknown> }).capabilities).not.toHaveProperty(
      "extensions",
    );
    expect((await modern(noTaskTools, "tasks/get", { taskId: "x" }, withTasks)).status).toBe(404);
  });
});

describe("where the tasks feature comes from", () => {
  const info = { name: "t", version: "1" };

  it("is not in a server compiled on its own: the task gateway hands it to its endpoint by value, which adds it to the server", async () => {
    const server = createServer({ info, tools });
    expect(server.hasMethod("tasks/get", "modern")).toBe(false);
    const endpoint: Endpoint = createEndpoint({ server, tasks: createMemoryTaskGateway(() => endpoint) });
    expect(endpoint.server).not.toBe(server);
    expect(endpoint.server.hasMethod("tasks/get", "modern")).toBe(true);
    // Compiled once: another endpoint of the same server gets the same server with tasks, sharing its change feed.
    expect(createEndpoint({ server, tasks: createMemoryTaskGateway(() => endpoint) }).server).toBe(endpoint.server);
    expect(endpoint.server.changes).toBe(server.changes);
    const reply = await modern(createEndpointApp(endpoint), "tools/call", { name: "counted", arguments: { n: 5 } }, withTasks);
    expect(reply.body["result"]).toMatchObject({ resultType: "task", status: "working" });
  });

  it("is absent without one: tasks/* are -32601, an optional tool runs in its request, a required one is refused in both eras", async () => {
    const server = createServer({ info, tools });
    expect(server.hasMethod("tasks/get", "modern")).toBe(false);
    const a = createEndpointApp(createEndpoint({ server }));
    const get = await modern(a, "tasks/get", { taskId: "x" }, withTasks);
    expect([get.status, (get.body["error"] as { code: number }).code]).toEqual([404, -32601]);
    expect((await modern(a, "tools/call", { name: "counted", arguments: { n: 4 } }, withTasks)).body["result"]).toMatchObject({
      resultType: "complete",
      content: [{ text: "n=4" }],
    });
    const refusal = { isError: true, content: [{ type: "text", text: "Tool greeter runs only as a task, and this server runs no tasks." }] };
    expect((await modern(a, "tools/call", { name: "greeter", arguments: {} }, withTasks)).body["result"]).toMatchObject(refusal);
    expect((await legacy(a, "tools/call", { name: "greeter", arguments: {} })).body["result"]).toEqual(refusal);
  });

  it("refuses, naming the fix, an endpoint with a gateway of your own that serves no tasks; tasks() or taskServing brings them", async () => {
    const bare = createServer({ info, tools });
    const memory = createMemoryTaskGateway(() => undefined as never);
    const { serving: _serving, ...gateway } = memory;
    expect(() => createEndpoint({ server: bare, tasks: gateway })).toThrow(DefinitionError);
    expect(() => createEndpoint({ server: bare, tasks: gateway })).toThrow(
      "greeter, counted declare task but the server was compiled without tasks: add tasks() to its features",
    );
    expect(createEndpoint({ server: bare, tasks: { ...gateway, serving: taskServing } }).server.hasMethod("tasks/get", "modern")).toBe(true);
    // Without task tools there is nothing to run as a task: no refusal.
    const plain = createServer({ info, tools: [tools[0] as (typeof tools)[0]] });
    expect(() => createEndpoint({ server: plain, tasks: gateway })).not.toThrow();
    const opted = createServer({ info, tools, features: [tasksFeature()] });
    expect(opted.hasMethod("tasks/get", "modern")).toBe(true);
    const endpoint: Endpoint = createEndpoint({ server: opted, tasks: createMemoryTaskGateway(() => endpoint) });
    expect(endpoint.server).toBe(opted);
    const reply = await modern(createEndpointApp(endpoint), "tools/call", { name: "counted", arguments: { n: 5 } }, withTasks);
    expect(reply.body["result"]).toMatchObject({ resultType: "task", status: "working" });
  });
});

describe("task ids of a listen stream", () => {
  const listen = (notifications: unknown): InboundRequest => ({ kind: "request", id: 1, method: "subscriptions/listen", params: { notifications } });
  const info = { era: "modern", protocolVersion: "2026-07-28", clientCapabilities: {}, minLogRank: undefined } as ModernRequestInfo;
  const admission = {} as Admission;

  it("are checked by the agreement the task gateway serves, where the endpoint has one", async () => {
    const endpoint: Endpoint = createEndpoint({ server, tasks: createMemoryTaskGateway(() => endpoint) });
    expect(endpoint.tasks?.serving).toBe(taskServing);
    // The agreement's first check: a client without the extension gets -32021.
    await expect(agreedTaskIds(listen({ taskIds: ["a"] }), info, admission, endpoint)).rejects.toThrow(/needs the io.modelcontextprotocol\/tasks extension/);
  });

  it("are left out of the acknowledgement where the endpoint runs no tasks, malformed or not, like any filter it does not honour", async () => {
    const endpoint = createEndpoint({ server });
    for (const taskIds of [["a", "b"], 5, [1], Array.from({ length: 200 }, (_, i) => `t${i}`)]) {
      const agreed = await agreedTaskIds(listen({ toolsListChanged: true, taskIds }), info, admission, endpoint);
      expect(agreed.params).toEqual({ notifications: { toolsListChanged: true, taskIds: [] } });
    }
    const untouched = listen({ toolsListChanged: true });
    expect(await agreedTaskIds(untouched, info, admission, endpoint)).toBe(untouched);
  });
});

describe("task declarations and settings", () => {
  it("refuses an unknown task value and a beforeTask on a tool that is never a task", () => {
    const base = { name: "x", description: "x", inputSchema: { type: "object" } as const, handler: () => "x" };
    expect(() => createServer({ info: { name: "t", version: "1" }, tools: [{ ...base, task: "sometimes" as never }] })).toThrow(DefinitionError);
    expect(() => createServer({ info: { name: "t", version: "1" }, tools: [{ ...base, beforeTask: () => undefined }] })).toThrow(
      /beforeTask must be a function, on a tool whose task is "optional" or "required"/,
    );
  });

  it("bounds task settings: TTL between 1 s and a week, polling no longer than the TTL", () => {
    expect(resolveTaskSettings(undefined)).toEqual({ ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(resolveTaskSettings({ ttlMs: 5, pollIntervalMs: 0 })).toEqual({ ttlMs: 1000, pollIntervalMs: 1 });
    expect(resolveTaskSettings({ ttlMs: 1e12, pollIntervalMs: 1e12 })).toEqual({ ttlMs: 604_800_000, pollIntervalMs: 604_800_000 });
  });

  it("reads taskIds in a listen filter, and refuses ids that are not strings", () => {
    expect(parseSubscriptionFilter({ taskIds: ["a", "a", "b"] })).toEqual({ taskIds: ["a", "b"] });
    expect(parseSubscriptionFilter({ taskIds: [] })).toEqual({});
    expect(() => parseSubscriptionFilter({ taskIds: [1] })).toThrow(/taskIds must be an array of task ids/);
  });

  it("reads a tenant's tasks setting and names a bad one", () => {
    const base = { id: "acme", hosts: ["acme.example.com"], modules: [{ name: "m" }] };
    expect(parseTenantConfig({ ...base, tasks: false }).tasks).toBe(false);
    expect(parseTenantConfig({ ...base, tasks: { ttlMs: 60_000 } }).tasks).toEqual({ ttlMs: 60_000 });
    expect(() => parseTenantConfig({ ...base, tasks: "yes" })).toThrow(/tenant acme: tasks must be true, false, or an object/);
    expect(() => parseTenantConfig({ ...base, tasks: { ttl: 5 } })).toThrow(/tenant acme: tasks.ttl is not a known field/);
    expect(() => parseTenantConfig({ ...base, tasks: { ttlMs: -1 } })).toThrow(/tenant acme: tasks.ttlMs/);
  });
});
