/** The transport context of a handler running inside a task: the same Endpoint and Admission as its request, no stream. */

import type { Admission } from "../core/admission.ts";
import type { JsonObject } from "../core/types.ts";
import type { Endpoint } from "../http/endpoint.ts";
import type { ChangeFeed } from "../server/notifications/change-hub.ts";
import { relayedChangeFeed } from "../server/notifications/change-relay.ts";
import type { CompiledTool } from "../server/tools/compile-tool.ts";
import type { TransportContext } from "../server/context/transport.ts";
import type { TaskStart } from "../server/tasks/task-access.ts";

/**
 * What a task's handler sees of its transport. There is no response stream: progress messages
 * become the task's status message, and log messages are not sent (the extension supports neither
 * on tasks). Identity, limits, handles, quotas and change notifications are those of the request
 * that created the task.
 */
export class TaskTransport implements TransportContext {
  readonly era = "modern" as const;
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  // No log messages for tasks (extension "Task Status Notifications").
  readonly minLogRank = undefined;
  /** Progress is always wanted: it becomes the status message (never sent as a notification). */
  readonly progressToken: string;
  readonly signal: AbortSignal;
  readonly admission: Admission;
  readonly tool: CompiledTool;
  readonly taskId: string;
  readonly changes: ChangeFeed;
  readonly endpoint: Endpoint;
  readonly #onProgress: (message: string) => void;

  constructor(
    endpoint: Endpoint,
    admission: Admission,
    start: TaskStart,
    init: { taskId: string; tool: CompiledTool; signal: AbortSignal; onProgress: (message: string) => void },
  ) {
    this.endpoint = endpoint;
    this.admission = admission;
    this.protocolVersion = start.protocolVersion;
    this.clientCapabilities = start.clientCapabilities;
    this.progressToken = init.taskId;
    this.taskId = init.taskId;
    this.tool = init.tool;
    this.signal = init.signal;
    this.#onProgress = init.onProgress;
    this.changes = endpoint.relay ? relayedChangeFeed(endpoint.relay, undefined) : endpoint.server.changes;
  }

  notify(method: string, params: JsonObject): void {
    if (method !== "notifications/progress") return;
    const { progress, total, message } = params;
    // Progress and total are the numbers ctx.progress() was given.
    this.#onProgress(
      typeof message === "string" ? message : total === undefined ? `Progress: ${Number(progress)}` : `Progress: ${Number(progress)} of ${Number(total)}`,
    );
  }
}
