// The tasks extension on McpTaskObject: tasks outlive their request, take input, cancel, expire, and belong to their caller.
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { taskObjectId } from "../../src/workers/tasks/task-gateway.ts";
import { sseReader } from "../workers-conformance/sse-reader.ts";
import { API_KEY, ISSUER_TWO, WITH_TASKS, bearer, modern, resultOf, send } from "./fixture.ts";

type Rpc = Awaited<ReturnType<typeof resultOf>>;
type Task = Record<string, unknown> & { taskId: string; status: string };

const tasksNamespace = (env as unknown as { MCP_TASKS: DurableObjectNamespace }).MCP_TASKS;
const stubOf = (taskId: string) => tasksNamespace.get(taskObjectId(tasksNamespace, taskId) as DurableObjectId);

function call(
  tenant: string,
  name: string,
  args: Record<string, unknown>,
  authorization?: string,
  capabilities: Record<string, unknown> = WITH_TASKS,
): Promise<Rpc> {
  return modern(tenant, "tools/call", { name, arguments: args }, authorization, capabilities).then(resultOf);
}

async function create(tenant: string, name: string, args: Record<string, unknown>, authorization?: string): Promise<Task> {
  const answer = await call(tenant, name, args, authorization);
  expect(answer.result, JSON.stringify(answer)).toMatchObject({ resultType: "task", status: "working" });
  return answer.result as unknown as Task;
}

function tasks(
  tenant: string,
  method: string,
  params: Record<string, unknown>,
  authorization?: string,
  capabilities: Record<string, unknown> = WITH_TASKS,
): Promise<Rpc> {
  return modern(tenant, method, params, authorization, capabilities).then(resultOf);
}

/** Polls tasks/get until the task's status is one of `statuses` and `also` holds (the client's loop, as the extension prescribes). */
async function until(tenant: string, taskId: string, statuses: string[], authorization?: string, also: (task: Task) => boolean = () => true): Promise<Task> {
  for (let i = 0; i < 500; i++) {
    const answer = await tasks(tenant, "tasks/get", { taskId }, authorization);
    const task = answer.result as unknown as Task | undefined;
    if (task && statuses.includes(task.status) && also(task)) return task;
    if (!task) throw new Error(JSON.stringify(answer));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} never reached ${statuses.join("/")}`);
}

describe("tasks: lifecycle", () => {
  it("answers a CreateTaskResult before the handler finishes, and the task completes after its request ended", async () => {
    const alice = await bearer({ sub: "task-alice" });
    const created = await create("secure", "report", { steps: 3, ms: 30 }, alice);
    expect(created.taskId).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]{32}$/);
    expect(created).toMatchObject({ ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(created).not.toHaveProperty("requestState");
    const done = await until("secure", created.taskId, ["completed"], alice);
    expect(done).toMatchObject({
      resultType: "complete",
      result: { content: [{ type: "text", text: `report of 3 steps for task-alice in task ${created.taskId}` }] },
    });
  });

  it("runs a tool of a service-bound module as a task, through the service binding", async () => {
    const alice = await bearer({ sub: "task-alice-remote" });
    const created = await create("secure", "remote_crunch", { ms: 20 }, alice);
    const done = await until("secure", created.taskId, ["completed"], alice);
    expect(done["result"]).toEqual({ content: [{ type: "text", text: "crunched for task-alice-remote of secure" }] });
  });

  it("moves to input_required, takes the answer with tasks/update, and completes", async () => {
    const created = await create("open", "approve", {});
    const waiting = await until("open", created.taskId, ["input_required"]);
    expect(waiting["inputRequests"]).toEqual({
      approval: { method: "elicitation/create", params: { message: "Approve?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } },
    });
    const ack = await tasks("open", "tasks/update", { taskId: created.taskId, inputResponses: { approval: { action: "accept", content: { ok: true } } } });
    expect(ack.result).toMatchObject({ resultType: "complete" });
    expect(ack.result).not.toHaveProperty("status");
    const done = await until("open", created.taskId, ["completed"]);
    expect(done["result"]).toEqual({ content: [{ type: "text", text: "accept" }] });
    expect(done).not.toHaveProperty("inputRequests");
  });

  it("shows progress as the status message, and cancels a running task: the ack is empty and the task is cancelled", async () => {
    const created = await create("open", "report", { steps: 1, ms: 60_000 });
    // ctx.progress(…, message) inside the task is its status message.
    expect(await until("open", created.taskId, ["working"], undefined, (task) => task["statusMessage"] !== undefined)).toMatchObject({
      statusMessage: "step 1 of 1",
    });
    const ack = await tasks("open", "tasks/cancel", { taskId: created.taskId });
    expect(Object.keys(ack.result ?? {}).sort()).toEqual(["_meta", "resultType"]);
    const cancelled = await until("open", created.taskId, ["cancelled", "completed", "failed"]);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled).not.toHaveProperty("result");
  });

  it("marks a task failed when its object restarts while the handler runs (never working forever)", async () => {
    const created = await create("open", "report", { steps: 1, ms: 60_000 });
    await until("open", created.taskId, ["working"]);
    // abort() resets the object as a crash or a deploy would: storage stays, the running handler is gone.
    await expect(runInDurableObject(stubOf(created.taskId), (_instance, state) => state.abort("test: the object restarts"))).rejects.toThrow(/restarts/);
    const failed = await until("open", created.taskId, ["failed", "completed", "cancelled"]);
    expect(failed).toMatchObject({ status: "failed", error: { code: -32603, message: expect.stringMatching(/interrupted/) } });
  });

  it("deletes the task through its alarm after the TTL and frees its quota place", async () => {
    // The brief tenant lets a caller hold one task.
    const first = await create("brief", "report", { steps: 0 });
    expect(first).toMatchObject({ ttlMs: 60_000, pollIntervalMs: 250 });
    await until("brief", first.taskId, ["completed"]);
    const over = await call("brief", "report", { steps: 0 });
    expect(over.status).toBe(429);
    expect(over.error).toMatchObject({ code: -31429, data: { quota: "tasks", perPrincipal: 1 } });
    // Let the TTL pass: a fresh instance reads the stored record with its creation moved back.
    const stub = stubOf(first.taskId);
    await evictDurableObject(stub);
    await runInDurableObject(stub, async (_instance, state) => {
      const record = (await state.storage.get<{ createdAt: number }>("task")) as { createdAt: number };
      await state.storage.put("task", { ...record, createdAt: record.createdAt - 60_000 });
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.get("task"))).toBeUndefined();
    expect((await tasks("brief", "tasks/get", { taskId: first.taskId })).error).toMatchObject({ code: -32602 });
    expect((await call("brief", "report", { steps: 0 })).result).toMatchObject({ resultType: "task" });
  });
});

describe("tasks: who may see a task", () => {
  it("answers -32602, as for an unknown id, to another principal, issuer, API key or tenant", async () => {
    const alice = await bearer({ sub: "task-owner" });
    const created = await create("secure", "report", { steps: 1, ms: 60_000 }, alice);
    const outsiders: [string, string | undefined][] = [
      ["secure", await bearer({ sub: "task-stranger" })],
      ["secure", await bearer({ sub: "task-owner", iss: ISSUER_TWO })],
      ["secure", `Bearer ${API_KEY}`],
      ["open", undefined],
      ["brief", undefined],
    ];
    const unknown = (await tasks("secure", "tasks/get", { taskId: "A".repeat(32) }, alice)).error;
    expect(unknown).toMatchObject({ code: -32602 });
    for (const [tenant, who] of outsiders) {
      for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
        const answer = await tasks(tenant, method, { taskId: created.taskId, inputResponses: {} }, who);
        expect(answer.error, `${method} from ${tenant} ${who?.slice(0, 20)}`).toEqual(unknown);
      }
    }
    // Nothing an outsider did touched the task.
    expect((await tasks("secure", "tasks/get", { taskId: created.taskId }, alice)).result).toMatchObject({ status: "working" });
    await tasks("secure", "tasks/cancel", { taskId: created.taskId }, alice);
  });

  it("answers 401 with a challenge to an anonymous tasks/get on an auth tenant", async () => {
    const response = await modern("secure", "tasks/get", { taskId: "A".repeat(32) }, undefined, WITH_TASKS);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("refuses the caller's task past its quota with 429 and a JSON-RPC error", async () => {
    const erin = await bearer({ sub: "task-erin" });
    const held = [await create("secure", "report", { steps: 1, ms: 60_000 }, erin), await create("secure", "report", { steps: 1, ms: 60_000 }, erin)];
    const over = await call("secure", "report", { steps: 1 }, erin);
    expect(over.status).toBe(429);
    expect(over.error).toMatchObject({
      code: -31429,
      message: expect.stringMatching(/Too many live tasks: a caller may hold 2/),
      data: { quota: "tasks", perPrincipal: 2 },
    });
    // Another principal has its own allowance.
    expect((await call("secure", "report", { steps: 0 }, await bearer({ sub: "task-frank" }))).result).toMatchObject({ resultType: "task" });
    for (const task of held) await tasks("secure", "tasks/cancel", { taskId: task.taskId }, erin);
  });

  it("rate-limits tasks/get polls like any request (429 with Retry-After)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await modern("busy", "tasks/get", { taskId: "B".repeat(32) }, undefined, WITH_TASKS)).status);
    // Five unknown-task answers (-32602 in HTTP 200), then the principal's limit.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("tasks: negotiation and errors", () => {
  it("lists the extension in server/discover where tasks run, and not where they are off", async () => {
    const on = (await tasks("open", "server/discover", {})).result as unknown as { capabilities: Record<string, unknown> };
    expect(on.capabilities["extensions"]).toEqual({ "io.modelcontextprotocol/tasks": {} });
    expect(on.capabilities).not.toHaveProperty("tasks");
    const off = (await tasks("quiet", "server/discover", {})).result as unknown as { capabilities: Record<string, unknown> };
    expect(off.capabilities).not.toHaveProperty("extensions");
  });

  it("runs an optional task tool synchronously for a client without the extension, and refuses a required one with -32021", async () => {
    const sync = await call("open", "report", { steps: 1 }, undefined, { elicitation: {} });
    expect(sync.result).toMatchObject({ resultType: "complete", content: [{ text: "report of 1 steps for anonymous in task none" }] });
    const required = await call("open", "approve", {}, undefined, { elicitation: {} });
    expect(required.status).toBe(400);
    expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } } });
    const get = await tasks("open", "tasks/get", { taskId: "A".repeat(32) }, undefined, {});
    expect(get.error).toMatchObject({ code: -32021 });
  });

  it("checks Mcp-Name against params.taskId before anything else (-32020)", async () => {
    const response = await send("open", {
      body: {
        jsonrpc: "2.0",
        id: 9,
        method: "tasks/get",
        params: {
          taskId: "A".repeat(32),
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
        },
      },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get", "mcp-name": "someone-else" },
    });
    expect(response.status).toBe(400);
    expect((await response.json<{ error: { code: number } }>()).error.code).toBe(-32020);
  });

  it("keeps tasks off on a tenant that turns them off: tasks/* are unknown, optional tools run synchronously, required ones explain", async () => {
    expect((await tasks("quiet", "tasks/get", { taskId: "A".repeat(32) })).error).toMatchObject({ code: -32601 });
    expect((await call("quiet", "report", { steps: 1 })).result).toMatchObject({ resultType: "complete" });
    expect((await call("quiet", "approve", {})).result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/runs only as a task, and this server runs no tasks/) }],
    });
  });

  it("answers tasks/result and tasks/list with -32601, and malformed params with -32602", async () => {
    expect((await tasks("open", "tasks/result", { taskId: "A".repeat(32) })).error).toMatchObject({ code: -32601 });
    expect((await tasks("open", "tasks/list", {})).error).toMatchObject({ code: -32601 });
    const numeric = await send("open", {
      body: {
        jsonrpc: "2.0",
        id: 10,
        method: "tasks/get",
        params: { taskId: 42, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": WITH_TASKS } },
      },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get", "mcp-name": "42" },
    });
    expect((await resultOf(numeric)).error).toMatchObject({ code: -32602, message: expect.stringMatching(/needs params.taskId/) });
    expect((await tasks("open", "tasks/update", { taskId: "A".repeat(32), inputResponses: [1] })).error).toMatchObject({ code: -32602 });
    expect((await tasks("open", "tasks/update", { taskId: "A".repeat(32), inputResponses: {} })).error).toMatchObject({ code: -32602 });
  });
});

describe("tasks: notifications/tasks on subscriptions/listen", () => {
  it("agrees only to the caller's own task ids and streams their changes as detailed tasks", async () => {
    const alice = await bearer({ sub: "listen-alice" });
    const bob = await bearer({ sub: "listen-bob" });
    const [first, second] = [await create("secure", "approve", {}, alice), await create("secure", "approve", {}, alice)];
    const foreign = await create("secure", "approve", {}, bob);
    for (const task of [first, second]) await until("secure", task.taskId, ["input_required"], alice);
    const response = await modern(
      "secure",
      "subscriptions/listen",
      { notifications: { taskIds: [first.taskId, second.taskId, foreign.taskId, "not-a-task"] } },
      alice,
      WITH_TASKS,
    );
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = sseReader(response);
    const seen: Record<string, unknown>[] = [];
    const next = async (): Promise<Record<string, unknown>> => {
      const event = await stream.next();
      if (!event?.data) throw new Error("the listen stream ended");
      seen.push(event.data);
      return event.data;
    };
    const untilTask = async (taskId: string, status: string): Promise<Record<string, unknown>> => {
      for (;;) {
        const message = await next();
        const params = message["params"] as Task;
        if (message["method"] === "notifications/tasks" && params.taskId === taskId && params.status === status) return params;
      }
    };
    const ack = await next();
    expect(ack).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: [first.taskId, second.taskId] } } });

    await tasks("secure", "tasks/update", { taskId: first.taskId, inputResponses: { approval: { action: "accept", content: { ok: true } } } }, alice);
    const completed = await untilTask(first.taskId, "completed");
    expect(completed).toMatchObject({
      result: { content: [{ type: "text", text: "accept" }] },
      ttlMs: 3_600_000,
      _meta: { "io.modelcontextprotocol/subscriptionId": expect.any(Number) },
    });
    // Bob's task changes first, then Alice's second: only hers arrives.
    await tasks("secure", "tasks/cancel", { taskId: foreign.taskId }, bob);
    await tasks("secure", "tasks/cancel", { taskId: second.taskId }, alice);
    await untilTask(second.taskId, "cancelled");
    await stream.cancel();
    expect(seen.filter((m) => (m["params"] as Task).taskId === foreign.taskId)).toEqual([]);
    expect(seen.some((m) => m["method"] === "notifications/progress" || m["method"] === "notifications/message")).toBe(false);
  });

  it("refuses task notifications to a client without the extension (-32021), and malformed taskIds (-32602)", async () => {
    expect((await tasks("open", "subscriptions/listen", { notifications: { taskIds: ["A".repeat(32)] } }, undefined, { elicitation: {} })).error).toMatchObject(
      { code: -32021 },
    );
    expect((await tasks("open", "subscriptions/listen", { notifications: { taskIds: "A".repeat(32) } })).error).toMatchObject({ code: -32602 });
    expect((await tasks("open", "subscriptions/listen", { notifications: { taskIds: Array.from({ length: 101 }, (_, i) => `t${i}`) } })).error).toMatchObject({
      code: -32602,
    });
  });
});
