/** The tasks extension (`io.modelcontextprotocol/tasks`) as the method handlers see it: negotiation, errors, and the task host of a request. */

import { ErrorCode, ProtocolError, invalidParams } from "../../core/errors.ts";
import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";

/** The extension's identifier, in `capabilities.extensions` of clients and of `server/discover`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** A task's status (tasks extension, "Task Status"). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Whether a status is final: the task will not change again. */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** What a task needs to run a tool call outside the request that asked for it. */
export interface TaskStart {
  /** The tool's name, resolved again where the task runs. */
  tool: string;
  /** The arguments as the client sent them (validated again where the task runs). */
  arguments: JsonObject | undefined;
  protocolVersion: string;
  /** The capabilities the creating request declared: input inside the task is checked against them. */
  clientCapabilities: JsonObject;
  /** Answers the client gave before the task existed (multi round-trip requests), by input key. */
  answers: Record<string, unknown>;
}

/**
 * The tasks of the caller of one request (its admission is already bound in). Implemented by the
 * HTTP layer over its task gateway; absent when the endpoint has no tasks.
 */
export interface TaskAccess {
  /** Creates the task and starts it; resolves with its first state once a `tasks/get` would find it. */
  create(start: TaskStart): Promise<JsonObject>;
  /** The detailed task (`tasks/get` shape, without resultType), or undefined when unknown, expired or foreign. */
  get(taskId: string): Promise<JsonObject | undefined>;
  /** Delivers answers to outstanding input requests; false when the task is unknown. */
  update(taskId: string, responses: JsonObject): Promise<boolean>;
  /** Asks the task to stop; false when the task is unknown. */
  cancel(taskId: string): Promise<boolean>;
}

/** Whether the client declared the tasks extension on this request (2026-07-28: capabilities travel per request). */
export function declaresTasks(clientCapabilities: JsonObject): boolean {
  const extensions = clientCapabilities["extensions"];
  return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION) && isObject(extensions[TASKS_EXTENSION]);
}

/** -32021 naming the tasks extension, for a client that did not declare it (HTTP 400). */
export function tasksExtensionRequired(what: string): ProtocolError {
  return new ProtocolError(
    ErrorCode.MissingRequiredClientCapability,
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in params._meta clientCapabilities.extensions`,
    {
      status: 400,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    },
  );
}

/**
 * -32602 for a task id that is unknown, expired, or another caller's: the same answer for all
 * three, so nobody learns that someone else's task exists.
 */
export function unknownTask(): ProtocolError {
  return invalidParams("Unknown task: no task with this taskId exists for this caller (it may have expired)");
}

declare module "../context/transport.ts" {
  interface TransportContext {
    /** The caller's tasks, when the endpoint runs tasks (tasks extension). */
    tasks?: TaskAccess | undefined;
  }
}
