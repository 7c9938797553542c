/**
 * Tools for the `tasks-*` scenarios (the tasks extension, SEP-2663). Each declares whether it may
 * run as a task; the runtime creates the task, runs the same handler inside its Durable Object,
 * turns `ctx.elicit` into `inputRequests` answered with `tasks/update`, and `tasks/cancel` into an
 * aborted signal.
 */

import { ProtocolError, defineTool } from "edge-mcp";
import { NO_ARGS, acceptedField, sleep } from "./content.ts";

/** Synchronous only: `Hello, {name}!`. */
export const greet = defineTool({
  name: "greet",
  description: "Greets someone by name (never a task).",
  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  handler: (args) => `Hello, ${String(args["name"])}!`,
});

/** Sleeps `seconds`, reporting progress each second; a cancelled task stops at once. */
export const slowCompute = defineTool({
  name: "slow_compute",
  description: "Sleeps the given number of seconds, then returns; runs as a task when the client supports tasks.",
  inputSchema: { type: "object", properties: { seconds: { type: "number", minimum: 0, maximum: 600 }, label: { type: "string" } }, required: ["seconds"] },
  task: "optional",
  handler: async (args, ctx) => {
    const seconds = args["seconds"];
    for (let done = 0; done < seconds; done++) {
      ctx.progress(done, seconds, `${done} of ${seconds} seconds`);
      await sleep(Math.min(1000, (seconds - done) * 1000), ctx.signal);
    }
    return `Computed ${String(args["label"] ?? "result")} after ${seconds} s`;
  },
});

/** Always a task; ends with a tool execution error (`completed` with `isError`). */
export const failingJob = defineTool({
  name: "failing_job",
  description: "A job that fails after about a second with a tool error (task required).",
  inputSchema: NO_ARGS,
  task: "required",
  handler: async (_args, ctx) => {
    await sleep(1000, ctx.signal);
    throw new Error("the job failed, as it always does");
  },
});

/** A task whose handler raises a JSON-RPC error: the task is `failed` with that error. */
export const protocolErrorJob = defineTool({
  name: "protocol_error_job",
  description: "A job that ends with a JSON-RPC error (task optional).",
  inputSchema: NO_ARGS,
  task: "optional",
  handler: async (_args, ctx) => {
    await sleep(200, ctx.signal);
    throw new ProtocolError(-32603, "protocol_error_job always ends with an internal error");
  },
});

const confirmForm = (message: string) => ({
  message,
  requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
});

/** Asks (as an input request of the task) whether to delete a file. */
export const confirmDelete = defineTool({
  name: "confirm_delete",
  description: "Asks the user to confirm deleting a file, then says what it did (task optional).",
  inputSchema: { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
  task: "optional",
  handler: async (args, ctx) => {
    const filename = String(args["filename"]);
    const answer = await ctx.elicit(confirmForm(`Delete ${filename}?`), { key: "confirm_delete" });
    return acceptedField(answer, "confirm") === "true" ? `Deleted ${filename}` : `Kept ${filename} (action: ${answer.action})`;
  },
});

/** Asks two questions at once: both keys are outstanding until each is answered. */
export const multiInput = defineTool({
  name: "multi_input",
  description: "Asks two questions at the same time, then reports both answers (task optional).",
  inputSchema: NO_ARGS,
  task: "optional",
  handler: async (_args, ctx) => {
    const nameForm = { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
    const [first, second] = await Promise.all([ctx.elicit(nameForm, { key: "first_name" }), ctx.elicit(confirmForm("Proceed?"), { key: "proceed" })]);
    return `first: ${first.action} ${acceptedField(first, "name") ?? ""}; second: ${second.action}`;
  },
});

const ASK_NAME = { message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };

/** Asks for a name before the task exists (multi round-trip on the call), then greets in the task. */
export const toolWithTask = defineTool({
  name: "test_tool_with_task",
  description: "Asks for your name (input_required on the call), then greets you from a task (task required).",
  inputSchema: NO_ARGS,
  task: "required",
  beforeTask: async (_args, ctx) => {
    await ctx.elicit(ASK_NAME, { key: "user_name" });
  },
  handler: async (_args, ctx) => {
    // The answer given before the task existed: asking the same key returns it at once.
    const answer = await ctx.elicit(ASK_NAME, { key: "user_name" });
    return `Hello, ${acceptedField(answer, "name") ?? "stranger"}! (from task ${ctx.taskId ?? "?"})`;
  },
});

export const taskTools = [greet, slowCompute, failingJob, protocolErrorJob, confirmDelete, multiInput, toolWithTask];
