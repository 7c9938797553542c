/**
 * McpHandleObject: the Durable Object behind `ctx.handles` — one object per handle.
 *
 * Storage keys (KV API on the SQLite backend):
 * - `handle`    the whole handle (`h_<object id>.<secret>`); every call must present the same, so a
 *               leaked object id with another secret reads as absent.
 * - `scope`     tenant and principal that created the handle; every read must present the same.
 * - `state`     the tool's state (structured clone).
 * - `expiresAt` epoch ms; reads after it see nothing.
 * Lifecycle: created by `ctx.handles.create`; an alarm at `expiresAt` deletes everything
 * (`deleteAll`), and reads check the expiry too, since an alarm may run late.
 */

import { DurableObject } from "cloudflare:workers";
import { randomToken } from "../../core/bytes.ts";
import { DefinitionError } from "../../core/definition-error.ts";
import type { HandleStore } from "../../server/state/handles.ts";

interface Record {
  scope: string;
  state: unknown;
  expiresAt: number;
}

export class McpHandleObject extends DurableObject {
  async #live(scope: string, handle: string): Promise<Record | undefined> {
    const stored = await this.ctx.storage.get<unknown>(["handle", "scope", "state", "expiresAt"]);
    const expiresAt = stored.get("expiresAt");
    if (stored.get("handle") !== handle || stored.get("scope") !== scope || typeof expiresAt !== "number") return undefined;
    if (expiresAt <= Date.now()) {
      await this.ctx.storage.deleteAll();
      return undefined;
    }
    return { scope, state: stored.get("state"), expiresAt };
  }

  async create(scope: string, handle: string, state: unknown, expiresAt: number): Promise<void> {
    await this.ctx.storage.put({ handle, scope, state, expiresAt });
    await this.ctx.storage.setAlarm(expiresAt);
  }

  async read(scope: string, handle: string): Promise<unknown> {
    return (await this.#live(scope, handle))?.state;
  }

  async write(scope: string, handle: string, state: unknown): Promise<boolean> {
    if (!(await this.#live(scope, handle))) return false;
    await this.ctx.storage.put("state", state);
    return true;
  }

  async remove(scope: string, handle: string): Promise<boolean> {
    if (!(await this.#live(scope, handle))) return false;
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

const SECRET = /^[A-Za-z0-9_-]{32}$/;

/**
 * The object a handle names, or undefined for a handle this namespace did not make. A handle is
 * `h_<object id>.<secret>`, as a task id is: `idFromString` checks the object id's keyed tag (the
 * namespace's own MAC, computed in the Worker), so a made-up handle wakes no object; the 192-bit
 * secret, compared by the object with the handle it stored, keeps a leaked object id useless.
 */
export function handleObjectId(namespace: DurableObjectNamespace<McpHandleObject>, handle: string): DurableObjectId | undefined {
  if (!handle.startsWith("h_") || handle.indexOf(".") !== 66 || !SECRET.test(handle.slice(67))) return undefined;
  try {
    return namespace.idFromString(handle.slice(2, 66));
  } catch {
    return undefined;
  }
}

/** A {@link HandleStore} over the McpHandleObject namespace: the handle names its object (see {@link handleObjectId}). */
export function durableHandleStore(namespace: DurableObjectNamespace<McpHandleObject>): HandleStore {
  if (typeof namespace?.idFromString !== "function" || typeof namespace.newUniqueId !== "function")
    throw new DefinitionError("MCP_HANDLES must be a Durable Object namespace binding of McpHandleObject");
  const stub = (handle: string) => {
    const id = handleObjectId(namespace, handle);
    return id && namespace.get(id);
  };
  return {
    mint: () => `h_${namespace.newUniqueId().toString()}.${randomToken(24)}`,
    async create(scope, handle, state, expiresAt) {
      const object = stub(handle);
      if (!object) throw new Error(`edge-mcp: handle ${handle.slice(0, 8)}… was not minted by this store`);
      await object.create(scope, handle, state, expiresAt);
    },
    read: async (scope, handle): Promise<unknown> => stub(handle)?.read(scope, handle),
    write: async (scope, handle, state) => (await stub(handle)?.write(scope, handle, state)) ?? false,
    remove: async (scope, handle) => (await stub(handle)?.remove(scope, handle)) ?? false,
  };
}
