/** Limits in front of the authorization endpoints: requests per client network per minute, and bounded bodies. */

import { clientNetwork } from "../core/client-address.ts";
import { ProtocolError } from "../core/errors.ts";
import { readBody } from "../http/admission/read-body.ts";

/** Options of {@link endpointGuard}. */
export interface EndpointGuardOptions {
  /** Requests to the authorization endpoints one client network may make per minute, in this isolate (default 60). */
  perMinute?: number;
  /** The largest request body the endpoints read, in bytes (default 16 KiB). */
  maxBodyBytes?: number;
}

/** How many client networks one isolate tracks at once (the oldest window is dropped first). */
const MAX_TRACKED = 10_000;
const WINDOW_MS = 60_000;
/** How long a body may take to arrive, in ms. */
const BODY_TIMEOUT_MS = 10_000;

interface Window {
  start: number;
  count: number;
}

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

/** The guard: answers 429 or 413 itself, or gives back the request (its body read once, bounded). */
export type EndpointGuard = (request: Request) => Promise<Request | Response>;

/**
 * Rate limits and body bounds of the authorization endpoints (`/authorize`, the token, registration
 * and callback endpoints). Counted per client network (`CF-Connecting-IP`: IPv4 address, IPv6 /64)
 * in fixed one-minute windows in this isolate; a request without an address is counted under one
 * shared key. A body over the bound is refused with 413 before it is read past the bound, one that
 * does not arrive within 10 s with 408.
 */
export function endpointGuard(options: EndpointGuardOptions = {}): EndpointGuard {
  const perMinute = options.perMinute ?? 60;
  const maxBody = options.maxBodyBytes ?? 16 * 1024;
  const windows = new Map<string, Window>();
  return async (request) => {
    const key = clientNetwork(request.headers.get("cf-connecting-ip") ?? "") ?? "unknown";
    const now = Date.now();
    let window = windows.get(key);
    if (window === undefined || now - window.start >= WINDOW_MS) {
      windows.delete(key);
      if (windows.size >= MAX_TRACKED) windows.delete(windows.keys().next().value as string);
      window = { start: now, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    if (window.count > perMinute) {
      const retry = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
      return oauthError(429, "slow_down", "too many requests to the authorization endpoints from this network", { "retry-after": String(retry) });
    }
    if (request.method !== "POST") return request;
    try {
      const body = await readBody(request, maxBody, BODY_TIMEOUT_MS);
      return new Request(request.url, { method: request.method, headers: request.headers, body });
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      return oauthError(error.status, "invalid_request", error.message);
    }
  };
}
