/** What a task object stores about its task, and the wire shapes built from it. */

import type { JsonObject } from "../core/types.ts";
import type { InputRequest } from "../server/inputs/input.ts";
import type { TaskStatus } from "../server/tasks/task-access.ts";

/** The stored state of one task: everything `tasks/get` shows, plus whom it belongs to. */
export interface TaskRecord {
  taskId: string;
  tenant: string;
  /** The admission's caller key: only this caller may see or change the task. */
  caller: string;
  /** The task's quota lease (a digest of its id: the id itself is a credential). */
  leaseId: string;
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  /** Epoch ms. */
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  /** Outstanding input requests, by key (non-empty exactly while `input_required`). */
  inputRequests: Record<string, InputRequest>;
  /** The tool result, once `completed`. */
  result?: JsonObject;
  /** The JSON-RPC error, once `failed`. */
  error?: JsonObject;
}

/** Where a task object keeps its record; a Durable Object's storage on Workers, memory in tests. */
export interface TaskStorage {
  load(): Promise<TaskRecord | undefined>;
  save(record: TaskRecord): Promise<void>;
  setAlarm(at: number): Promise<void>;
  deleteAll(): Promise<void>;
}

/** When the task is deleted. */
export function expiresAt(record: TaskRecord): number {
  return record.createdAt + record.ttlMs;
}

/** The Task fields (extension "Tasks"): the CreateTaskResult body, without resultType. */
export function taskView(record: TaskRecord): JsonObject {
  const view: JsonObject = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) view["statusMessage"] = record.statusMessage;
  view["createdAt"] = new Date(record.createdAt).toISOString();
  view["lastUpdatedAt"] = new Date(record.lastUpdatedAt).toISOString();
  view["ttlMs"] = record.ttlMs;
  view["pollIntervalMs"] = record.pollIntervalMs;
  return view;
}

/** The DetailedTask of `tasks/get` and `notifications/tasks`: the Task plus what its status carries. */
export function detailedTask(record: TaskRecord): JsonObject {
  const view = taskView(record);
  if (record.status === "input_required") view["inputRequests"] = record.inputRequests;
  if (record.status === "completed" && record.result !== undefined) view["result"] = record.result;
  if (record.status === "failed" && record.error !== undefined) view["error"] = record.error;
  return view;
}

/** Task storage in memory: for tests and single-isolate development only. */
export function createMemoryTaskStorage(): TaskStorage & { readonly alarm: number | undefined; readonly record: TaskRecord | undefined } {
  let record: TaskRecord | undefined;
  let alarm: number | undefined;
  return {
    get alarm() {
      return alarm;
    },
    get record() {
      return record;
    },
    load: async () => (record === undefined ? undefined : structuredClone(record)),
    save: async (value) => {
      record = structuredClone(value);
    },
    setAlarm: async (at) => {
      alarm = at;
    },
    deleteAll: async () => {
      record = undefined;
      alarm = undefined;
    },
  };
}
