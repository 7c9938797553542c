/**
 * McpHandleObject: the Durable Object behind `ctx.handles` — one object per handle.
 *
 * Storage keys (KV API on the SQLite backend):
 * - `scope`     tenant and principal that created the handle; every read must present the same.
 * - `state`     the tool's state (structured clone).
 * - `expiresAt` epoch ms; reads after it see nothing.
 * Lifecycle: created by `ctx.handles.create`; an alarm at `expiresAt` deletes everything
 * (`deleteAll`), and reads check the expiry too, since an alarm may run late.
 */

import { DurableObject } from "cloudflare:workers";
import type { HandleStore } from "../../server/state/handles.ts";

interface Record {
  scope: string;
  state: unknown;
  expiresAt: number;
}

export class McpHandleObject extends DurableObject {
  async #live(scope: string): Promise<Record | undefined> {
    const stored = await this.ctx.storage.get<unknown>(["scope", "state", "expiresAt"]);
    const expiresAt = stored.get("expiresAt");
    if (stored.get("scope") !== scope || typeof expiresAt !== "number") return undefined;
    if (expiresAt <= Date.now()) {
      await this.ctx.storage.deleteAll();
      return undefined;
    }
    return { scope, state: stored.get("state"), expiresAt };
  }

  async create(scope: string, state: unknown, expiresAt: number): Promise<void> {
    await this.ctx.storage.put({ scope, state, expiresAt });
    await this.ctx.storage.setAlarm(expiresAt);
  }

  async read(scope: string): Promise<unknown> {
    return (await this.#live(scope))?.state;
  }

  async write(scope: string, state: unknown): Promise<boolean> {
    if (!(await this.#live(scope))) return false;
    await this.ctx.storage.put("state", state);
    return true;
  }

  async remove(scope: string): Promise<boolean> {
    if (!(await this.#live(scope))) return false;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    return true;
  }

  override async alarm(): Promise<void> {
    const expiresAt = await this.ctx.storage.get<number>("expiresAt");
    if (expiresAt !== undefined && expiresAt > Date.now()) await this.ctx.storage.setAlarm(expiresAt);
    else await this.ctx.storage.deleteAll();
  }
}

/** A {@link HandleStore} over the McpHandleObject namespace: the handle names its object. */
export function durableHandleStore(namespace: DurableObjectNamespace<McpHandleObject>): HandleStore {
  const stub = (handle: string) => namespace.get(namespace.idFromName(handle));
  return {
    create: (scope, handle, state, expiresAt) => stub(handle).create(scope, state, expiresAt),
    read: (scope, handle) => stub(handle).read(scope) as Promise<unknown>,
    write: (scope, handle, state) => stub(handle).write(scope, state),
    remove: (scope, handle) => stub(handle).remove(scope),
  };
}
