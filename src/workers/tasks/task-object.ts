/**
 * McpTaskObject: the Durable Object behind each task of the tasks extension, one per task.
 *
 * Storage (KV API on the SQLite backend):
 * - `task`: the TaskRecord (task id, tenant, caller key, quota lease id, tool, status, status
 *   message, timestamps, ttlMs, pollIntervalMs, outstanding input requests, result or error).
 * The arguments and answers are kept in memory only: they are needed while the handler runs, and
 * a handler that stops (the object was evicted or restarted) is never resumed.
 * Lifecycle: created by the `tools/call` the Worker turns into a task (a unique object id, the
 * first part of the task id; see taskObjectId); the handler runs here, with the creating request's admission. While the task is unfinished
 * an alarm every 30 s checks that this instance still runs it (and the alarm keeps the object in
 * memory); a new instance that finds an unfinished task marks it `failed`. The last alarm, at
 * createdAt + ttlMs, deletes all storage and frees the task's quota place.
 */

import { DurableObject } from "cloudflare:workers";
import type { Admission } from "../../core/admission.ts";
import type { JsonObject } from "../../core/types.ts";
import type { Endpoint } from "../../http/endpoint.ts";
import type { TaskSettings } from "../../http/tasks/task-gateway.ts";
import type { McpServer, ServerOptions } from "../../server/server.ts";
import type { TaskStart } from "../../server/tasks/task-access.ts";
import { TaskEngine, type CreateOutcome } from "../../tasks/task-engine.ts";
import type { TaskRecord, TaskStorage } from "../../tasks/task-record.ts";
import { makingOf, workerEndpoints, type WorkerOptions } from "../create-worker.ts";
import type { McpEnv, McpWorker } from "../env.ts";
import { wiringOf } from "../durable-wiring.ts";
import { definitionFailureOf } from "../definition-failure.ts";
import { failedObjectClass } from "../failed-object.ts";
import { durableTaskGateway, type TaskObjectRpc } from "./task-gateway.ts";

function durableTaskStorage(storage: DurableObjectStorage): TaskStorage {
  return {
    load: () => storage.get<TaskRecord>("task"),
    save: (record) => storage.put("task", record),
    setAlarm: (at) => storage.setAlarm(at),
    async deleteAll() {
      await storage.deleteAlarm();
      await storage.deleteAll();
    },
  };
}

/** The Durable Object class `createTaskObject` makes: export it under the class name bound as MCP_TASKS. */
export type TaskObjectClass = new (ctx: DurableObjectState, env: McpEnv) => DurableObject<McpEnv> & TaskObjectRpc;

/** The endpoint of a task's tenant (multi-tenant Workers build it from the tenant's config). */
export type TaskEndpointResolver = (tenant: string, env: McpEnv) => Promise<Endpoint>;

/**
 * Makes the task Durable Object class of a Worker. Export it from the Worker entry under the class
 * name bound as MCP_TASKS in wrangler.toml. Given the Worker from `createWorker`, it runs on that
 * Worker's server and options, and hands the Worker its gateway to MCP_TASKS. Given a server, it
 * runs on the options passed here and wires no Worker (a Worker binding MCP_TASKS needs the class made from it).
 *
 * @example
 * const worker = createWorker(server);
 * export default worker;
 * export const McpTaskObject = createTaskObject(worker);
 */
export function createTaskObject(source: McpWorker<never> | McpServer | ServerOptions | TaskEndpointResolver, options: WorkerOptions = {}): TaskObjectClass {
  // A Worker whose definitions are wrong answers with its error under development; so does its class.
  const failure = definitionFailureOf(source);
  if (failure) return failedObjectClass(failure) as unknown as TaskObjectClass;
  // The Worker (and this class's own endpoints) reach MCP_TASKS through the gateway this class hands it.
  const wiring = wiringOf(source) ?? {};
  wiring.tasks = durableTaskGateway;
  const made = makingOf(source);
  const resolve: TaskEndpointResolver =
    typeof source === "function"
      ? source
      : made
        ? workerEndpoints(made.server, { ...made.options, ...options }, wiring)
        : workerEndpoints(source as McpServer | ServerOptions, options, wiring);
  return class McpTaskObject extends DurableObject<McpEnv> implements TaskObjectRpc {
    readonly #engine: TaskEngine;

    constructor(ctx: DurableObjectState, env: McpEnv) {
      super(ctx, env);
      this.#engine = new TaskEngine({ endpointFor: (tenant) => resolve(tenant, env), storage: durableTaskStorage(ctx.storage) });
    }

    create(taskId: string, admission: Admission, start: TaskStart, settings: Required<TaskSettings>): Promise<CreateOutcome> {
      return this.#engine.create(taskId, admission, start, settings);
    }

    get(taskId: string, caller: string): Promise<JsonObject | undefined> {
      return this.#engine.get(taskId, caller);
    }

    update(taskId: string, caller: string, responses: JsonObject): Promise<boolean> {
      return this.#engine.update(taskId, caller, responses);
    }

    cancel(taskId: string, caller: string): Promise<boolean> {
      return this.#engine.cancel(taskId, caller);
    }

    override alarm(): Promise<void> {
      return this.#engine.alarm();
    }
  };
}
