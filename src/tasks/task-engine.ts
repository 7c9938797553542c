/** One task's state machine: create, run the handler, take input, cancel, expire, and notice an interrupted run. */

import type { Admission, QuotaLimit } from "../core/admission.ts";
import { sha256Hex } from "../core/bytes.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import type { JsonObject } from "../core/types.ts";
import type { Endpoint } from "../http/endpoint.ts";
import { toProtocolError } from "../http/responses.ts";
import type { TaskSettings } from "../http/tasks/task-gateway.ts";
import { callTool, capResult } from "../server/tools/call-tool.ts";
import { leaseFor } from "../server/state/quotas.ts";
import { isTerminal, type TaskStart, type TaskStatus } from "../server/tasks/task-access.ts";
import { TaskInputs } from "./task-inputs.ts";
import { detailedTask, expiresAt, taskView, type TaskRecord, type TaskStorage } from "./task-record.ts";
import { TaskTransport } from "./task-transport.ts";

export interface TaskEngineOptions {
  /** The endpoint of a tenant, built the same way the Worker builds it. */
  endpointFor(tenant: string): Promise<Endpoint>;
  storage: TaskStorage;
  /** How often an unfinished task checks in (an alarm), so that an interrupted run is noticed (default 30 s). */
  watchMs?: number;
  now?: () => number;
}

export type CreateOutcome = { ok: true; task: JsonObject } | { ok: false; quota: QuotaLimit };

/** Results are stored in the task object: larger ones are replaced by an isError result. */
export const MAX_TASK_RESULT_BYTES = 1024 * 1024;
const DEFAULT_WATCH_MS = 30_000;

/** The error of a task whose handler stopped without finishing (the object was evicted or restarted). */
function interrupted(): ProtocolError {
  return new ProtocolError(
    ErrorCode.InternalError,
    "The task was interrupted before it finished (its server restarted); call the tool again to start a new task",
  );
}

/**
 * The engine of one task. Its host (a Durable Object named by the task id) gives it every call for
 * the task, so the running handler, `tasks/update` answers and `tasks/cancel` meet here. The record
 * is saved on every change; the handler itself lives only in this instance's memory, so a new
 * instance that finds an unfinished task marks it `failed` rather than leave it `working` forever.
 */
export class TaskEngine {
  readonly #options: TaskEngineOptions;
  #record: TaskRecord | undefined;
  #loaded = false;
  #endpoint: Endpoint | undefined;
  /** Set while this instance runs the task's handler. */
  #controller: AbortController | undefined;
  #inputs: TaskInputs | undefined;

  constructor(options: TaskEngineOptions) {
    this.#options = options;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  async #load(): Promise<TaskRecord | undefined> {
    if (!this.#loaded) {
      this.#record = await this.#options.storage.load();
      this.#loaded = true;
    }
    return this.#record;
  }

  async #endpointOf(tenant: string): Promise<Endpoint> {
    this.#endpoint ??= await this.#options.endpointFor(tenant);
    return this.#endpoint;
  }

  /**
   * Creates the task for the admitted caller, takes its quota place, stores it, and starts the
   * handler; resolves once a `tasks/get` would find it (extension "Task Creation").
   */
  async create(taskId: string, admission: Admission, start: TaskStart, settings: Required<TaskSettings>): Promise<CreateOutcome> {
    if (await this.#load()) throw new Error("a task with this id already exists");
    const endpoint = await this.#endpointOf(admission.tenant);
    const now = this.#now();
    const leaseId = await sha256Hex(taskId);
    const limit = admission.quotas.tasks;
    const lease = leaseFor(admission, "tasks", leaseId, now + settings.ttlMs);
    if (endpoint.quotaCounter && !(await endpoint.quotaCounter.acquire(admission.tenant, lease, limit))) return { ok: false, quota: limit };
    const record: TaskRecord = {
      taskId,
      tenant: admission.tenant,
      caller: admission.caller,
      leaseId,
      tool: start.tool,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: settings.ttlMs,
      pollIntervalMs: settings.pollIntervalMs,
      inputRequests: {},
    };
    try {
      await this.#save(record);
      await this.#options.storage.setAlarm(Math.min(expiresAt(record), now + this.#watchMs()));
    } catch (error) {
      await endpoint.quotaCounter?.release(admission.tenant, leaseId);
      throw error;
    }
    this.#run(endpoint, admission, start, record);
    return { ok: true, task: taskView(record) };
  }

  /** The detailed task, or undefined for an unknown, expired or foreign one. */
  async get(taskId: string, caller: string): Promise<JsonObject | undefined> {
    const record = await this.#live(taskId, caller);
    return record && detailedTask(record);
  }

  /** Delivers answers to outstanding input requests (others are ignored); false when the task is unknown. */
  async update(taskId: string, caller: string, responses: JsonObject): Promise<boolean> {
    const record = await this.#live(taskId, caller);
    if (!record) return false;
    if (!isTerminal(record.status)) this.#inputs?.answer(responses);
    return true;
  }

  /**
   * Cancels the task: the handler's signal aborts, waiting input ends, and the task is `cancelled`
   * at once (its late result is dropped). A finished task stays as it is. False when unknown.
   */
  async cancel(taskId: string, caller: string): Promise<boolean> {
    const record = await this.#live(taskId, caller);
    if (!record) return false;
    if (!isTerminal(record.status)) {
      const reason = new DOMException("The task was cancelled", "AbortError");
      this.#controller?.abort(reason);
      this.#inputs?.close(reason);
      await this.#finish({ status: "cancelled", statusMessage: "Cancelled by the client" });
    }
    return true;
  }

  /** The host's alarm: deletes the task after its TTL; meanwhile notices a run that this instance lost. */
  async alarm(): Promise<void> {
    const record = await this.#load();
    if (!record) return;
    const now = this.#now();
    if (now >= expiresAt(record)) return this.#expire(record);
    if (!isTerminal(record.status) && !this.#controller)
      await this.#finish({ status: "failed", error: interrupted().toJSON(), statusMessage: interrupted().message });
    const current = this.#record;
    if (current) await this.#options.storage.setAlarm(isTerminal(current.status) ? expiresAt(current) : Math.min(expiresAt(current), now + this.#watchMs()));
  }

  #watchMs(): number {
    return this.#options.watchMs ?? DEFAULT_WATCH_MS;
  }

  /** The record when it exists, is the caller's and has not expired; an unfinished task nobody runs fails here. */
  async #live(taskId: string, caller: string): Promise<TaskRecord | undefined> {
    const record = await this.#load();
    if (!record || record.taskId !== taskId || record.caller !== caller) return undefined;
    if (this.#now() >= expiresAt(record)) {
      await this.#expire(record);
      return undefined;
    }
    if (!isTerminal(record.status) && !this.#controller) {
      await this.#finish({ status: "failed", error: interrupted().toJSON(), statusMessage: interrupted().message });
    }
    return this.#record;
  }

  #run(endpoint: Endpoint, admission: Admission, start: TaskStart, record: TaskRecord): void {
    const controller = new AbortController();
    this.#controller = controller;
    const inputs = new TaskInputs(start.answers, start.clientCapabilities, () => void this.#inputsChanged());
    this.#inputs = inputs;
    const tool = endpoint.server.tools.get(start.tool) ?? endpoint.server.tools.unavailable(start.tool);
    let run: Promise<JsonObject>;
    if (!tool) {
      run = Promise.reject(new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${start.tool}`));
    } else {
      const transport = new TaskTransport(endpoint, admission, start, {
        taskId: record.taskId,
        tool,
        signal: controller.signal,
        onProgress: (message) => void this.#progress(message),
      });
      const ctx = endpoint.server.handlerContext(transport, inputs);
      const maxBytes = Math.min(admission.limits.maxResultBytes ?? MAX_TASK_RESULT_BYTES, MAX_TASK_RESULT_BYTES);
      // No call deadline: a task is bounded by its TTL and by cancellation instead.
      run = callTool(tool, start.arguments === undefined ? {} : { arguments: start.arguments }, ctx).then(
        (result) => capResult(result, maxBytes, tool.name) as unknown as JsonObject,
      );
    }
    run
      .then(
        (result) => this.#finish({ status: "completed", result }),
        (error: unknown) => {
          const protocolError = toProtocolError(error);
          return this.#finish({ status: "failed", error: protocolError.toJSON(), statusMessage: protocolError.message });
        },
      )
      .catch((error: unknown) => console.error("edge-mcp: a task's result could not be stored:", error))
      .finally(() => {
        if (this.#controller === controller) this.#controller = undefined;
        inputs.close(new DOMException("The task has ended", "AbortError"));
      });
  }

  async #finish(patch: { status: TaskStatus; result?: JsonObject; error?: JsonObject; statusMessage?: string }): Promise<void> {
    const record = this.#record;
    if (!record || isTerminal(record.status)) return;
    // A progress message is stale once the task has ended: only the ending's own message stays.
    const { statusMessage: _progress, ...rest } = record;
    const next: TaskRecord = { ...rest, ...patch, inputRequests: {}, lastUpdatedAt: this.#now() };
    await this.#save(next);
    // The watch is no longer needed: the next alarm is the deletion.
    await this.#options.storage.setAlarm(expiresAt(next));
    await this.#publish(next);
  }

  async #inputsChanged(): Promise<void> {
    const record = this.#record;
    const inputs = this.#inputs;
    if (!record || !inputs || isTerminal(record.status)) return;
    const inputRequests = inputs.outstanding();
    const next: TaskRecord = {
      ...record,
      inputRequests,
      status: Object.keys(inputRequests).length > 0 ? "input_required" : "working",
      lastUpdatedAt: this.#now(),
    };
    await this.#save(next).catch((error: unknown) => console.error("edge-mcp: a task's input requests could not be stored:", error));
    await this.#publish(next);
  }

  async #progress(message: string): Promise<void> {
    const record = this.#record;
    if (!record || isTerminal(record.status) || record.statusMessage === message) return;
    const next: TaskRecord = { ...record, statusMessage: message, lastUpdatedAt: this.#now() };
    await this.#save(next).catch((error: unknown) => console.error("edge-mcp: a task's status message could not be stored:", error));
    await this.#publish(next);
  }

  async #save(record: TaskRecord): Promise<void> {
    this.#record = record;
    this.#loaded = true;
    await this.#options.storage.save(record);
  }

  /** `notifications/tasks` with the detailed task, to listen streams that follow it (through the tenant's hub). */
  async #publish(record: TaskRecord): Promise<void> {
    try {
      const endpoint = await this.#endpointOf(record.tenant);
      const params = detailedTask(record);
      if (endpoint.relay) await endpoint.relay.publish("notifications/tasks", params);
      else endpoint.server.changes.emit("notifications/tasks", params);
    } catch (error) {
      console.error("edge-mcp: a task notification could not be sent:", error instanceof Error ? error.message : error);
    }
  }

  async #expire(record: TaskRecord): Promise<void> {
    const reason = new DOMException("The task expired", "AbortError");
    this.#controller?.abort(reason);
    this.#controller = undefined;
    this.#inputs?.close(reason);
    this.#record = undefined;
    this.#loaded = true;
    await this.#options.storage.deleteAll();
    const endpoint = await this.#endpointOf(record.tenant);
    await endpoint.quotaCounter?.release(record.tenant, record.leaseId);
  }
}
