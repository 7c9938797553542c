/** Input during a task: questions wait as `inputRequests` until `tasks/update` brings their answers. */

import type { JsonObject } from "../core/types.ts";
import { isValidAnswer } from "../server/inputs/input-answer.ts";
import { checkCapabilities, type InputChannel, type InputRequest } from "../server/inputs/input.ts";

interface Waiter {
  keys: readonly string[];
  resolve(answers: Record<string, unknown>): void;
  reject(reason: unknown): void;
}

/**
 * The input channel of a running task. A question whose key has an answer (given before the task
 * existed, or by an earlier `tasks/update`) is answered at once; otherwise it becomes an
 * outstanding input request and the handler waits. Keys are unique over the task's life (extension
 * "Task Update Requests"): an answered key is never asked again, a handler asking it again gets
 * the same answer.
 */
export class TaskInputs implements InputChannel {
  readonly #answers: Map<string, unknown>;
  readonly #outstanding = new Map<string, InputRequest>();
  readonly #waiters = new Set<Waiter>();
  readonly #capabilities: JsonObject;
  readonly #changed: () => void;
  #closed: { reason: unknown } | undefined;

  /** `changed` runs whenever the set of outstanding requests changes. */
  constructor(answers: Readonly<Record<string, unknown>>, capabilities: JsonObject, changed: () => void) {
    this.#answers = new Map(Object.entries(answers));
    this.#capabilities = capabilities;
    this.#changed = changed;
  }

  request(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(this.#closed.reason);
    checkCapabilities(this.#capabilities, requests);
    const keys = Object.keys(requests);
    let added = false;
    for (const key of keys) {
      const request = requests[key] as InputRequest;
      if (isValidAnswer(request, this.#answers.get(key)) || this.#outstanding.has(key)) continue;
      this.#outstanding.set(key, request);
      added = true;
    }
    const found = this.#found(keys);
    if (found) return Promise.resolve(found);
    const waiting = new Promise<Record<string, unknown>>((resolve, reject) => this.#waiters.add({ keys, resolve, reject }));
    if (added) this.#changed();
    return waiting;
  }

  /** The outstanding input requests, by key. */
  outstanding(): Record<string, InputRequest> {
    return Object.fromEntries(this.#outstanding);
  }

  /**
   * Takes answers from `tasks/update`: keys that are not outstanding, and answers of the wrong
   * shape, are ignored (the request stays outstanding); a partial set is fine. Waiting handlers
   * whose every key is now answered continue.
   */
  answer(responses: JsonObject): void {
    let changed = false;
    for (const [key, answer] of Object.entries(responses)) {
      const request = this.#outstanding.get(key);
      if (request === undefined || !isValidAnswer(request, answer)) continue;
      this.#answers.set(key, answer);
      this.#outstanding.delete(key);
      changed = true;
    }
    if (!changed) return;
    for (const waiter of this.#waiters) {
      const found = this.#found(waiter.keys);
      if (!found) continue;
      this.#waiters.delete(waiter);
      waiter.resolve(found);
    }
    this.#changed();
  }

  /** Ends every wait with `reason` (the task was cancelled or expired); later questions fail at once. */
  close(reason: unknown): void {
    this.#closed = { reason };
    this.#outstanding.clear();
    for (const waiter of this.#waiters) waiter.reject(reason);
    this.#waiters.clear();
  }

  #found(keys: readonly string[]): Record<string, unknown> | undefined {
    const found: Record<string, unknown> = {};
    for (const key of keys) {
      if (this.#outstanding.has(key) || !this.#answers.has(key)) return undefined;
      found[key] = this.#answers.get(key);
    }
    return found;
  }
}
