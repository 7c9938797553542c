// The task engine on its own (memory storage): the state machine, input, cancellation, expiry, interruption, quotas.
import { describe, expect, it } from "vitest";
import { DEFAULT_QUOTAS } from "../../../src/core/admission.ts";
import { ProtocolError } from "../../../src/core/errors.ts";
import { createEndpoint } from "../../../src/http/endpoint.ts";
import { createMemoryQuotaCounter } from "../../../src/server/state/quotas.ts";
import { createServer } from "../../../src/server/server.ts";
import type { TaskStart } from "../../../src/server/tasks/task-access.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { TaskEngine } from "../../../src/tasks/task-engine.ts";
import { createMemoryTaskStorage } from "../../../src/tasks/task-record.ts";
import { admission, principal } from "../../admission.ts";

/** A promise with its resolve, to hold a handler until a test lets it go. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

let held = gate();
const seen: { aborted: boolean | undefined } = { aborted: undefined };

const tools = [
  defineTool({
    name: "quick",
    description: "Answers at once.",
    inputSchema: { type: "object" },
    task: "optional",
    handler: (_args, ctx) => `done in ${ctx.taskId}`,
  }),
  defineTool({
    name: "held",
    description: "Reports progress, then waits for the test (or cancellation).",
    inputSchema: { type: "object" },
    task: "optional",
    handler: async (_args, ctx) => {
      ctx.progress(1, 2, "halfway");
      await Promise.race([held.opened, new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }))]);
      seen.aborted = ctx.signal.aborted;
      return "released";
    },
  }),
  defineTool({
    name: "two_questions",
    description: "Asks two things at once.",
    inputSchema: { type: "object" },
    task: "required",
    handler: async (_args, ctx) => {
      const form = { message: "?", requestedSchema: { type: "object", properties: {} } };
      const [a, b] = await Promise.all([ctx.elicit(form, { key: "a" }), ctx.elicit(form, { key: "b" })]);
      const again = await ctx.elicit(form, { key: "a" });
      return `${a.action}/${b.action}/${again.action}`;
    },
  }),
  defineTool({
    name: "broken",
    description: "Raises a JSON-RPC error.",
    inputSchema: { type: "object" },
    task: "optional",
    handler: () => Promise.reject(new ProtocolError(-32000, "it broke")),
  }),
  defineTool({
    name: "typo",
    description: "Returns an isError result.",
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    task: "optional",
    handler: () => "never",
  }),
];
const server = createServer({ info: { name: "t", version: "1" }, tools });
const ADA = admission("acme", principal("ada"));
const BOB = admission("acme", principal("bob"));
const OTHER_TENANT = admission("globex", principal("ada"));
const SETTINGS = { ttlMs: 60_000, pollIntervalMs: 500 };
const ID = "t".repeat(32);

function start(tool: string, args: Record<string, unknown> = {}, answers: Record<string, unknown> = {}): TaskStart {
  return { tool, arguments: args, protocolVersion: "2026-07-28", clientCapabilities: { elicitation: {} }, answers };
}

function setup(now: () => number = Date.now) {
  const storage = createMemoryTaskStorage();
  const quotas = createMemoryQuotaCounter(now);
  const endpoint = createEndpoint({ server, tenant: "acme", quotaCounter: quotas });
  const engine = new TaskEngine({ endpointFor: async () => endpoint, storage, now, watchMs: 1000 });
  return { storage, quotas, endpoint, engine };
}

/** Polls `tasks/get` (on the engine) until the status is one of `statuses`. */
async function until(engine: TaskEngine, statuses: string[], also: (task: Record<string, unknown>) => boolean = () => true, caller = ADA.caller, taskId = ID) {
  for (let i = 0; i < 1000; i++) {
    const task = await engine.get(taskId, caller);
    if (task && statuses.includes(task["status"] as string) && also(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`task never reached ${statuses.join("/")}: ${JSON.stringify(await engine.get(taskId, caller))}`);
}

describe("TaskEngine", () => {
  it("stores the task before answering, then runs the handler to completed", async () => {
    const { engine, storage } = setup();
    const created = await engine.create(ID, ADA, start("quick"), SETTINGS);
    expect(created).toMatchObject({ ok: true, task: { taskId: ID, status: "working", ttlMs: 60_000, pollIntervalMs: 500 } });
    expect(storage.record?.caller).toBe(ADA.caller);
    const done = await until(engine, ["completed"]);
    expect(done["result"]).toEqual({ content: [{ type: "text", text: `done in ${ID}` }] });
    expect(done).not.toHaveProperty("error");
  });

  it("reads as unknown to another principal and another tenant, and for another id", async () => {
    const { engine } = setup();
    await engine.create(ID, ADA, start("quick"), SETTINGS);
    expect(await engine.get(ID, BOB.caller)).toBeUndefined();
    expect(await engine.get(ID, OTHER_TENANT.caller)).toBeUndefined();
    expect(await engine.get("u".repeat(32), ADA.caller)).toBeUndefined();
    expect(await engine.update(ID, BOB.caller, {})).toBe(false);
    expect(await engine.cancel(ID, BOB.caller)).toBe(false);
    expect(await engine.get(ID, ADA.caller)).toBeDefined();
  });

  it("turns progress messages into the status message", async () => {
    held = gate();
    const { engine } = setup();
    await engine.create(ID, ADA, start("held"), SETTINGS);
    expect(await until(engine, ["working"], (task) => task["statusMessage"] !== undefined)).toMatchObject({ statusMessage: "halfway" });
    held.open();
    const done = await until(engine, ["completed"]);
    expect(done).toMatchObject({ result: { content: [{ text: "released" }] } });
    // The progress message does not outlive the work it described.
    expect(done).not.toHaveProperty("statusMessage");
  });

  it("waits in input_required, keeps a partly answered task waiting, and completes once every key is answered", async () => {
    const { engine } = setup();
    await engine.create(ID, ADA, start("two_questions"), SETTINGS);
    const waiting = await until(engine, ["input_required"]);
    expect(Object.keys(waiting["inputRequests"] as object).sort()).toEqual(["a", "b"]);
    expect(await engine.update(ID, ADA.caller, { a: { action: "accept", content: {} }, never_asked: { action: "accept" }, b: { wrong: "shape" } })).toBe(true);
    const partly = await engine.get(ID, ADA.caller);
    expect(partly).toMatchObject({ status: "input_required", inputRequests: { b: { method: "elicitation/create" } } });
    expect(Object.keys(partly?.["inputRequests"] as object)).toEqual(["b"]);
    await engine.update(ID, ADA.caller, { b: { action: "decline" } });
    // The key `a`, asked again, is answered with the answer already given (keys are unique over a task's life).
    expect(await until(engine, ["completed"])).toMatchObject({ result: { content: [{ text: "accept/decline/accept" }] } });
  });

  it("keeps a question outstanding when tasks/update brings a malformed answer (content not an object or not matching the schema, no action)", async () => {
    const { engine } = setup();
    await engine.create(ID, ADA, start("two_questions"), SETTINGS);
    await until(engine, ["input_required"]);
    for (const bad of [
      { action: "accept", content: null },
      { action: "accept", content: "x" },
      { action: "accept", content: { n: { deep: 1 } } },
      { action: "yes" },
    ]) {
      await engine.update(ID, ADA.caller, { a: bad, b: bad });
      const task = await engine.get(ID, ADA.caller);
      expect(task, JSON.stringify(bad)).toMatchObject({ status: "input_required" });
      expect(Object.keys(task?.["inputRequests"] as object).sort()).toEqual(["a", "b"]);
    }
    await engine.update(ID, ADA.caller, { a: { action: "accept", content: {} }, b: { action: "decline" } });
    expect(await until(engine, ["completed"])).toMatchObject({ result: { content: [{ text: "accept/decline/accept" }] } });
  });

  it("uses answers given before the task existed", async () => {
    const { engine } = setup();
    await engine.create(ID, ADA, start("two_questions", {}, { a: { action: "accept", content: {} }, b: { action: "cancel" } }), SETTINGS);
    expect(await until(engine, ["completed"])).toMatchObject({ result: { content: [{ text: "accept/cancel/accept" }] } });
  });

  it("cancels at once: the signal aborts and the late result is dropped", async () => {
    held = gate();
    seen.aborted = undefined;
    const { engine } = setup();
    await engine.create(ID, ADA, start("held"), SETTINGS);
    await until(engine, ["working"]);
    expect(await engine.cancel(ID, ADA.caller)).toBe(true);
    expect(await engine.get(ID, ADA.caller)).toMatchObject({ status: "cancelled" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen.aborted).toBe(true);
    expect(await engine.get(ID, ADA.caller)).toMatchObject({ status: "cancelled" });
    expect(await engine.get(ID, ADA.caller)).not.toHaveProperty("result");
    // Cancelling a finished task is acknowledged and changes nothing.
    expect(await engine.cancel(ID, ADA.caller)).toBe(true);
  });

  it("ends failed with the JSON-RPC error of a handler, and completed with an isError result for bad arguments", async () => {
    const { engine } = setup();
    await engine.create(ID, ADA, start("broken"), SETTINGS);
    expect(await until(engine, ["failed"])).toMatchObject({ error: { code: -32000, message: "it broke" }, statusMessage: "it broke" });
    const other = setup();
    await other.engine.create(ID, ADA, start("typo", { n: "one" }), SETTINGS);
    expect(await until(other.engine, ["completed"])).toMatchObject({ result: { isError: true } });
  });

  it("marks a task failed when a new instance finds it unfinished (the handler was lost)", async () => {
    held = gate();
    const { engine, storage, endpoint } = setup();
    await engine.create(ID, ADA, start("held"), SETTINGS);
    await until(engine, ["working"]);
    // A restarted object: same storage, no running handler.
    const restarted = new TaskEngine({ endpointFor: async () => endpoint, storage, watchMs: 1000 });
    await restarted.alarm();
    expect(storage.record?.status).toBe("failed");
    expect(await restarted.get(ID, ADA.caller)).toMatchObject({ status: "failed", error: { code: -32603, message: expect.stringMatching(/interrupted/) } });
    held.open();
  });

  it("fails an unfinished task found by a tasks/get on a new instance, without waiting for the alarm", async () => {
    held = gate();
    const { engine, storage, endpoint } = setup();
    await engine.create(ID, ADA, start("held"), SETTINGS);
    const restarted = new TaskEngine({ endpointFor: async () => endpoint, storage });
    expect(await restarted.get(ID, ADA.caller)).toMatchObject({ status: "failed" });
    held.open();
  });

  it("watches an unfinished task with alarms, then deletes it and frees its quota place at its TTL", async () => {
    let now = 1_000_000;
    held = gate();
    const { engine, storage, quotas } = setup(() => now);
    await engine.create(ID, ADA, start("held"), SETTINGS);
    expect(storage.alarm).toBe(1_000_000 + 1000);
    now += 1000;
    await engine.alarm();
    expect(storage.record?.status).toBe("working");
    expect(storage.alarm).toBe(now + 1000);
    held.open();
    await until(engine, ["completed"]);
    expect(storage.alarm).toBe(1_000_000 + 60_000);
    now = 1_000_000 + 60_000;
    await engine.alarm();
    expect(storage.record).toBeUndefined();
    expect(await engine.get(ID, ADA.caller)).toBeUndefined();
    // The place is free again: one more task fits in a quota of one.
    const limit = { ...DEFAULT_QUOTAS, tasks: { perPrincipal: 1, perTenant: 10 } };
    expect(await quotas.acquire("acme", { kind: "tasks", holder: ADA.quotaHolder, id: "next", expiresAt: now + 10 }, limit.tasks)).toBe(true);
  });

  it("refuses a task over the caller's quota, and reads an expired one as unknown before its alarm", async () => {
    let now = 1_000_000;
    const { quotas, endpoint } = setup(() => now);
    const one = { ...ADA, quotas: { ...DEFAULT_QUOTAS, tasks: { perPrincipal: 1, perTenant: 10 } } };
    const first = new TaskEngine({ endpointFor: async () => endpoint, storage: createMemoryTaskStorage(), now: () => now });
    expect((await first.create(ID, one, start("quick"), SETTINGS)).ok).toBe(true);
    const second = new TaskEngine({ endpointFor: async () => endpoint, storage: createMemoryTaskStorage(), now: () => now });
    expect(await second.create("v".repeat(32), one, start("quick"), SETTINGS)).toEqual({ ok: false, quota: { perPrincipal: 1, perTenant: 10 } });
    expect(await quotas.acquire("acme", { kind: "tasks", holder: BOB.quotaHolder, id: "bob's", expiresAt: now + 10 }, one.quotas.tasks)).toBe(true);
    now += 60_000;
    expect(await first.get(ID, ADA.caller)).toBeUndefined();
  });
});
