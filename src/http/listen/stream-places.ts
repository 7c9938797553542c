/** Listen streams counted per caller: each open `subscriptions/listen` or session GET stream holds a place in the `streams` quota. */

import { DEFAULT_QUOTAS, type Admission, type QuotaLimit } from "../../core/admission.ts";
import { randomToken } from "../../core/bytes.ts";
import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import type { RequestId } from "../../core/jsonrpc.ts";
import { createMemoryQuotaCounter, leaseFor, type QuotaCounter } from "../../server/state/quotas.ts";
import type { Endpoint } from "../endpoint.ts";

/**
 * How long a stream's place lasts unless renewed. An open stream renews it every half of this;
 * a place whose isolate went away without releasing it (evicted, crashed) is free again after it.
 */
export const STREAM_LEASE_MS = 5 * 60_000;

// Without a quota counter (no MCP_QUOTAS bound), streams are counted in this isolate only.
let isolateCounter: QuotaCounter | undefined;

/** A place taken for one open stream; `release` frees it (once; later calls do nothing). */
export interface StreamPlace {
  release(): void;
}

/** 429 for a stream that would put the caller (or the tenant) over its `streams` quota. */
function tooManyStreams(limit: QuotaLimit, requestId: RequestId | undefined): ProtocolError {
  const { perPrincipal, perTenant, anonymous } = limit;
  return new ProtocolError(
    ErrorCode.RateLimited,
    `Too many open listen streams: a caller may hold ${perPrincipal} (and this server ${perTenant}) at once; ` +
      "close a subscriptions/listen or GET stream before opening another",
    {
      status: 429,
      data: { quota: "streams", perPrincipal, perTenant, anonymous },
      headers: { "retry-after": "10" },
      ...(requestId === undefined ? {} : { requestId }),
    },
  );
}

/**
 * Takes a place in the caller's `streams` quota for a stream about to open, or throws 429 (a
 * JSON-RPC error naming the quota). `waitUntil` keeps the release alive after the response ends.
 */
export async function takeStreamPlace(
  endpoint: Endpoint,
  admission: Admission,
  requestId: RequestId | undefined,
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
): Promise<StreamPlace> {
  const counter: QuotaCounter = endpoint.quotaCounter ?? (isolateCounter ??= createMemoryQuotaCounter());
  const { tenant } = admission;
  // An admission decoded from an older record may lack the kind: the defaults apply.
  const limit = admission.quotas.streams ?? DEFAULT_QUOTAS.streams;
  const id = `stream:${randomToken(16)}`;
  if (!(await counter.acquire(tenant, leaseFor(admission, "streams", id, Date.now() + STREAM_LEASE_MS), limit))) throw tooManyStreams(limit, requestId);
  const quiet = (promise: Promise<unknown>) => {
    const settled = promise.catch((error: unknown) => console.error("edge-mcp: a listen stream's quota place could not be updated", error));
    waitUntil?.(settled);
  };
  const renewal = setInterval(() => quiet(counter.renew(tenant, id, Date.now() + STREAM_LEASE_MS)), STREAM_LEASE_MS / 2);
  (renewal as { unref?: () => void }).unref?.();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(renewal);
      quiet(counter.release(tenant, id));
    },
  };
}

/**
 * Holds `place` while the response streams (a session's GET stream, forwarded from its object) and
 * frees it when the stream ends or the client goes away; at once for an answer that is no stream.
 */
export function holdWhileStreaming(response: Response, place: StreamPlace, waitUntil: ((promise: Promise<unknown>) => void) | undefined): Response {
  if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    place.release();
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const piped = response.body
    .pipeTo(writable)
    .catch(() => undefined)
    .finally(() => place.release());
  waitUntil?.(piped);
  return new Response(readable, response);
}
