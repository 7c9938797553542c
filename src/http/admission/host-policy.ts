/** Host and Origin allowlists against DNS rebinding (2025-11-25 transports "Security Warning"). */

import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import { hostnameOf, requestHost } from "../../core/host.ts";

export interface HostPolicyOptions {
  /** Extra allowed Host names: exact (`mcp.example.com`), wildcard (`*.example.com`), or `*` for any. */
  hosts?: readonly string[];
  /** Extra allowed browser origins, exact (`https://app.example.com`), or `*` for any. */
  origins?: readonly string[];
}

/** Loopback names (RFC 6761 reserves `*.localhost`) and workers.dev, allowed unless configured otherwise. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ["localhost", "*.localhost", "127.0.0.1", "[::1]", "*.workers.dev"];
const LOOPBACK_HOSTS: readonly string[] = ["localhost", "*.localhost", "127.0.0.1", "[::1]"];

type Matcher = (hostname: string) => boolean;

function compile(patterns: readonly string[]): Matcher {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  let any = false;
  for (const raw of patterns) {
    const pattern = raw.trim().toLowerCase();
    if (pattern === "") continue;
    if (pattern === "*") any = true;
    else if (pattern.startsWith("*.")) suffixes.push(pattern.slice(1));
    else exact.add(pattern);
  }
  return (hostname) => any || exact.has(hostname) || suffixes.some((suffix) => hostname.endsWith(suffix) && hostname.length > suffix.length);
}

function forbidden(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, message, { status: 403 });
}

export interface HostPolicy {
  /**
   * Returns an error (HTTP 403) when the Host or Origin is not allowed, else undefined. `origin` is
   * the request's Origin header when the caller has read it already (read here otherwise), and
   * `headers` the request's headers when it has them (each `request.headers` is a runtime call).
   */
  check(request: Request, origin?: string | null, headers?: Headers): ProtocolError | undefined;
}

/**
 * Builds the policy once. A request passes when its Host is allowed, and its Origin, if any, is
 * the same origin, a loopback origin, an allowed origin, or has an allowed configured host.
 */
export function createHostPolicy(options: HostPolicyOptions = {}): HostPolicy {
  const extraHosts = options.hosts ?? [];
  const hostAllowed = compile([...DEFAULT_ALLOWED_HOSTS, ...extraHosts]);
  const originHostAllowed = compile([...LOOPBACK_HOSTS, ...extraHosts.filter((h) => h.trim() !== "*")]);
  const origins = new Set((options.origins ?? []).map((o) => o.trim().toLowerCase()).filter((o) => o !== ""));
  const anyOrigin = origins.has("*");

  return {
    check(request, originHeader, headers = request.headers) {
      const host = requestHost(request, headers);
      const hostname = hostnameOf(host);
      if (!hostAllowed(hostname)) {
        return forbidden(`Host '${host}' is not allowed (DNS rebinding protection); add it to ALLOWED_HOSTS to serve it`);
      }
      const origin = originHeader === undefined ? headers.get("origin") : originHeader;
      if (origin === null || anyOrigin) return undefined;
      const normalised = origin.trim().toLowerCase();
      if (origins.has(normalised)) return undefined;
      let originUrl: URL | undefined;
      try {
        originUrl = normalised === "null" ? undefined : new URL(normalised);
      } catch {
        originUrl = undefined;
      }
      if (originUrl && (originUrl.host === host.trim().toLowerCase() || originHostAllowed(hostnameOf(originUrl.host)))) return undefined;
      return forbidden(`Origin '${origin}' is not allowed; add it to ALLOWED_ORIGINS to accept requests from that page`);
    },
  };
}
