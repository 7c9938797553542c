// The tasks extension end to end: client v2 (2026-07-28) drives the demo's report tool as a task over
// `wrangler dev`. Client 2.4.0 has no task support of its own: it rejects a tools/call answered with
// resultType "task" (UnsupportedResultType) before any result schema sees it, so the test reads the
// CreateTaskResult off the wire through the transport's fetch; tasks/* go through raw client.request.
import { afterEach, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { connectModernClient, type ModernClient } from "./clients.ts";

const TASKS = { "io.modelcontextprotocol/tasks": {} };
const Loose = z.looseObject({});
type Task = {
  taskId: string;
  status: string;
  statusMessage?: string;
  lastUpdatedAt: string;
  pollIntervalMs?: number;
  result?: { content: { text: string }[] };
  inputRequests?: Record<string, unknown>;
};

let client: ModernClient | undefined;
/** The last tools/call answer as it came over the wire. */
let lastCallAnswer: Promise<string> | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** The global fetch, noting the body of each tools/call answer. */
const watchingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (new Headers(init?.headers).get("mcp-method") === "tools/call") lastCallAnswer = response.clone().text();
  return response;
};

async function connect(capabilities: Record<string, unknown>): Promise<ModernClient> {
  client = await connectModernClient(`${inject("baseUrlAuto")}/mcp`, { capabilities, fetch: watchingFetch });
  return client;
}

const request = async (c: ModernClient, method: string, params: Record<string, unknown>) =>
  (await c.request({ method, params } as never, Loose)) as Record<string, unknown>;
const getTask = async (c: ModernClient, taskId: string) => (await request(c, "tasks/get", { taskId })) as unknown as Task;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startReport(c: ModernClient, args: Record<string, unknown>): Promise<Task> {
  lastCallAnswer = undefined;
  await expect(request(c, "tools/call", { name: "report", arguments: args })).rejects.toMatchObject({
    message: "Unsupported result type 'task' for tools/call",
  });
  const created = (JSON.parse(await (lastCallAnswer as unknown as Promise<string>)) as { result: Record<string, unknown> }).result;
  expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 1000 });
  return created as unknown as Task;
}

describe("tasks with the v2 client", () => {
  it("polls a report task of ten seconds to completion, seeing each section as the status message", { timeout: 40_000 }, async () => {
    const c = await connect({ extensions: TASKS });
    const started = Date.now();
    const created = await startReport(c, { topic: "edge", sections: 10, delayMs: 1000 });
    // The CreateTaskResult came back at once: the work goes on after the request ended.
    const messages = new Set<string>();
    let task = await getTask(c, created.taskId);
    while (task.status === "working") {
      if (task.statusMessage) messages.add(task.statusMessage);
      await sleep(task.pollIntervalMs ?? 1000);
      task = await getTask(c, created.taskId);
    }
    expect(task.status).toBe("completed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(task.result?.content[0]?.text).toMatch(/^# Report: edge\n## Section 1\n[\s\S]*## Section 10\nFindings 10 about edge\.$/);
    // Polling once a second saw the sections go by.
    expect(messages.size).toBeGreaterThanOrEqual(5);
    expect([...messages].every((m) => /^Writing section \d+ of 10$/.test(m))).toBe(true);
  });

  it("answers the task's question with tasks/update and gets the summary", async () => {
    const c = await connect({ extensions: TASKS, elicitation: { form: {} } });
    const created = await startReport(c, { topic: "input", sections: 1, delayMs: 0 });
    let task = await getTask(c, created.taskId);
    while (task.status === "working") task = (await sleep(50), await getTask(c, created.taskId));
    expect(task.status).toBe("input_required");
    expect(Object.keys(task.inputRequests ?? {})).toEqual(["summary"]);
    // An empty acknowledgement (the client strips resultType "complete"; serverInfo stays in _meta).
    expect(
      Object.keys(await request(c, "tasks/update", { taskId: created.taskId, inputResponses: { summary: { action: "accept", content: { summary: true } } } })),
    ).toEqual(["_meta"]);
    while (task.status !== "completed") task = (await sleep(50), await getTask(c, created.taskId));
    expect(task.result?.content[0]?.text).toMatch(/## Summary\n1 sections on input\.$/);
  });

  it("cancels a running report: the task is cancelled and its handler stops changing it", { timeout: 20_000 }, async () => {
    const c = await connect({ extensions: TASKS });
    const created = await startReport(c, { topic: "cancel", sections: 60, delayMs: 500 });
    let task = await getTask(c, created.taskId);
    while (!task.statusMessage?.startsWith("Writing section 2")) task = (await sleep(100), await getTask(c, created.taskId));
    expect(Object.keys(await request(c, "tasks/cancel", { taskId: created.taskId }))).toEqual(["_meta"]);
    const cancelled = await getTask(c, created.taskId);
    expect(cancelled).toMatchObject({ status: "cancelled", statusMessage: "Cancelled by the client" });
    // Sections kept coming every 500 ms before; after cancelling, nothing changes any more.
    await sleep(2000);
    expect(await getTask(c, created.taskId)).toEqual(cancelled);
  });

  it("runs the same tool synchronously for a client that does not declare the extension", async () => {
    const c = await connect({});
    const result = await c.callTool({ name: "report", arguments: { topic: "sync", sections: 1, delayMs: 0 } });
    expect(result.content).toEqual([{ type: "text", text: "# Report: sync\n## Section 1\nFindings 1 about sync." }]);
  });
});
