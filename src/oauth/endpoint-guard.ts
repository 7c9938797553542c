/** Limits in front of the authorization endpoints: requests per client network per minute, and bounded bodies. */

import { clientNetwork } from "../core/client-address.ts";

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

async function boundedBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) return undefined;
  const reader = request.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The guard: answers 429 or 413 itself, or gives back the request (its body read once, bounded). */
export type EndpointGuard = (request: Request) => Promise<Request | Response>;

/**
 * Rate limits and body bounds of the authorization endpoints (`/authorize`, the token, registration
 * and callback endpoints). Counted per client network (`CF-Connecting-IP`: IPv4 address, IPv6 /64)
 * in fixed one-minute windows in this isolate; a request without an address is counted under one
 * shared key. A body over the bound is refused with 413 before it is read past the bound.
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
    const body = await boundedBody(request, maxBody);
    if (body === undefined) return oauthError(413, "invalid_request", `the request body is larger than ${maxBody} bytes`);
    return new Request(request.url, { method: request.method, headers: request.headers, body });
  };
}
