/** Session handles for 2026-07-28: opaque ids the model passes back to reach state kept between calls. */

import { misconfigured, missingBindings, type MissingBinding } from "../../core/missing-bindings.ts";
import { ToolError } from "../../core/tool-error.ts";
import type { Admission } from "../../core/admission.ts";
import { randomToken } from "../../core/bytes.ts";
import { leaseFor, type QuotaCounter } from "./quotas.ts";

/**
 * Where handle state lives (a Durable Object per handle on Workers; memory in tests). Every call
 * names the scope (tenant and principal) the handle must belong to; a foreign handle reads as absent.
 */
export interface HandleStore {
  /**
   * A new handle, for a store whose handles name where they live (the Durable Object store mints
   * `h_<object id>.<secret>`, so a made-up handle is refused before any object is reached).
   * Without it a handle is `h_` and 192 random bits.
   */
  mint?(): string;
  create(scope: string, handle: string, state: unknown, expiresAt: number): Promise<void>;
  /** The state, or undefined when the handle is unknown, expired or belongs to another scope. */
  read(scope: string, handle: string): Promise<unknown>;
  /** Replaces the state; false when the handle is unknown, expired or foreign. */
  write(scope: string, handle: string, state: unknown): Promise<boolean>;
  remove(scope: string, handle: string): Promise<boolean>;
}

export interface HandleOptions {
  /** Lifetime in ms from creation (default 1 hour, at most 30 days). */
  ttlMs?: number;
}

/** `ctx.handles`: create, read, update and delete state addressed by a handle. */
export interface Handles {
  /** Stores `state` (any structured-cloneable value) and returns a new unguessable handle. */
  create(state: unknown, options?: HandleOptions): Promise<string>;
  /** Reads the state; throws a {@link HandleError} for a forged, expired or foreign handle. */
  get<T = unknown>(handle: unknown): Promise<T>;
  /** Replaces the state; throws a {@link HandleError} like {@link get}. */
  update(handle: unknown, state: unknown): Promise<void>;
  delete(handle: unknown): Promise<void>;
}

/** Thrown for a handle that cannot be used; a tool call turns it into an `isError` result that shows its message. */
export class HandleError extends ToolError {
  override readonly name = "HandleError";
  override readonly code = "ERR_HANDLE";
}

const PREFIX = "h_";
/** `h_<secret>`, or `h_<object id>.<secret>` from a store that mints its own. */
const HANDLE = /^h_(?:[0-9a-f]{64}\.)?[A-Za-z0-9_-]{32}$/;
const DEFAULT_TTL_MS = 60 * 60_000;
const MAX_TTL_MS = 30 * 24 * 60 * 60_000;

function newHandle(): string {
  return PREFIX + randomToken(24);
}

function unusable(handle: unknown): HandleError {
  const shown = typeof handle === "string" ? `"${handle.slice(0, 40)}"` : String(handle);
  return new HandleError(`handle ${shown} is unknown, has expired, or was not created for you; create a new one`);
}

/**
 * The `ctx.handles` of one request, bound to the admitted caller. Without a store, every call
 * explains what to configure. With a quota counter, a caller (and a tenant) may hold only so many
 * live handles: creating one more is refused until one is deleted or expires.
 */
export function createHandles(store: HandleStore | undefined, admission: Admission, quotas?: QuotaCounter, now: () => number = Date.now): Handles {
  const scope = admission.caller;
  const need = (): HandleStore => {
    if (!store) {
      // The deployment's mistake, not the model's: a JSON-RPC error with the lines to add, and the same in the log.
      const because = "a tool uses ctx.handles (see docs/handles.md)";
      const absent: MissingBinding[] = [{ kind: "object", binding: "MCP_HANDLES", because }];
      if (!quotas) absent.push({ kind: "object", binding: "MCP_QUOTAS", because: "handles are counted against quotas (see docs/quotas.md)" });
      throw misconfigured(missingBindings(absent));
    }
    return store;
  };
  const check = (handle: unknown): string => {
    if (typeof handle !== "string" || !HANDLE.test(handle)) throw unusable(handle);
    return handle;
  };
  return {
    async create(state, options) {
      const ttlMs = Math.min(Math.max(options?.ttlMs ?? DEFAULT_TTL_MS, 1), MAX_TTL_MS);
      const target = need();
      const handle = target.mint?.() ?? newHandle();
      const expiresAt = now() + ttlMs;
      const limit = admission.quotas.handles;
      if (quotas && !(await quotas.acquire(admission.tenant, leaseFor(admission, "handles", handle, expiresAt), limit))) {
        throw new HandleError(
          `too many live handles: a caller may hold ${limit.perPrincipal} (and this server ${limit.perTenant}) at once; ` +
            "delete handles you no longer need, or wait for them to expire",
        );
      }
      try {
        await target.create(scope, handle, state, expiresAt);
      } catch (error) {
        await quotas?.release(admission.tenant, handle);
        throw error;
      }
      return handle;
    },
    async get<T>(handle: unknown): Promise<T> {
      const state = await need().read(scope, check(handle));
      if (state === undefined) throw unusable(handle);
      return state as T;
    },
    async update(handle, state) {
      if (!(await need().write(scope, check(handle), state))) throw unusable(handle);
    },
    async delete(handle) {
      if (!(await need().remove(scope, check(handle)))) throw unusable(handle);
      await quotas?.release(admission.tenant, handle as string);
    },
  };
}

/** A handle store in memory: for tests and single-isolate development only. */
export function createMemoryHandleStore(now: () => number = Date.now): HandleStore {
  const entries = new Map<string, { scope: string; state: unknown; expiresAt: number }>();
  const live = (scope: string, handle: string) => {
    const entry = entries.get(handle);
    if (!entry || entry.scope !== scope) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(handle);
      return undefined;
    }
    return entry;
  };
  return {
    async create(scope, handle, state, expiresAt) {
      entries.set(handle, { scope, state: structuredClone(state), expiresAt });
    },
    async read(scope, handle) {
      const entry = live(scope, handle);
      return entry ? structuredClone(entry.state) : undefined;
    },
    async write(scope, handle, state) {
      const entry = live(scope, handle);
      if (entry) entry.state = structuredClone(state);
      return entry !== undefined;
    },
    async remove(scope, handle) {
      return live(scope, handle) !== undefined && entries.delete(handle);
    },
  };
}
