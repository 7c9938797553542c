/** Era detection (DESIGN §2) and the 2026-07-28 request-metadata checks on headers and `_meta`. */

import { ErrorCode, ProtocolError } from "./errors.ts";
import { decodeHeaderValue } from "./header-value.ts";
import { isObject, own } from "./json.ts";
import type { InboundNotification, InboundRequest, Params } from "./jsonrpc.ts";
import { loggingLevelRank, type JsonObject } from "./types.ts";
import { DEFAULT_LEGACY_VERSION, MODERN_VERSION, MetaKey, SUPPORTED_VERSIONS, isLegacyVersion } from "./versions.ts";

export type HeaderReader = (name: string) => string | null;

export interface LegacyRequestInfo {
  era: "legacy";
  protocolVersion: string;
}

export interface ModernRequestInfo {
  era: "modern";
  protocolVersion: string;
  clientCapabilities: JsonObject;
  /** Rank of the requested log level; undefined when the request named none (then no logs). */
  minLogRank: number | undefined;
}

export type RequestInfo = LegacyRequestInfo | ModernRequestInfo;

function meta(params: Params | undefined): Params | undefined {
  const value = params ? own(params, "_meta") : undefined;
  return isObject(value) ? value : undefined;
}

function headerMismatch(message: string, requestId: string | number | undefined): ProtocolError {
  return new ProtocolError(ErrorCode.HeaderMismatch, message, requestId === undefined ? { status: 400 } : { status: 400, requestId });
}

export function unsupportedVersion(requested: unknown, requestId?: string | number, supported: readonly string[] = SUPPORTED_VERSIONS): ProtocolError {
  return new ProtocolError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${JSON.stringify(requested)}`, {
    status: 400,
    data: { supported, requested },
    ...(requestId === undefined ? {} : { requestId }),
  });
}

/** A 2026-07-28 request whose `_meta` lacks what it must carry (-32602, HTTP 400). */
function invalidMeta(text: string, requestId: string | number | undefined): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, text, requestId === undefined ? { status: 400 } : { status: 400, requestId });
}

/** The body field each method mirrors in `Mcp-Name` (2026-07-28 Streamable HTTP, standard headers). */
export const NAME_FIELD: ReadonlyMap<string, string> = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
  // Tasks extension, "Streamable HTTP: Routing Headers": the task id routes to the task's state.
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
]);

function checkModern(
  message: InboundRequest | InboundNotification,
  header: HeaderReader,
  headerVersion: string | null,
  m: Params | undefined,
): ModernRequestInfo {
  const id = message.kind === "request" ? message.id : undefined;
  if (!m)
    throw invalidMeta(
      `Missing params._meta: every 2026-07-28 request carries "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}" in params._meta`,
      id,
    );
  const version = own(m, MetaKey.protocolVersion);
  if (typeof version !== "string") throw invalidMeta(`Missing params._meta["${MetaKey.protocolVersion}"]`, id);
  const clientCapabilities = own(m, MetaKey.clientCapabilities);
  if (!isObject(clientCapabilities))
    throw invalidMeta(`Missing params._meta["${MetaKey.clientCapabilities}"] (an object; {} when the client has no optional capabilities)`, id);
  // Order fixed by 2026-07-28 server validation: missing _meta keys (-32602), then header
  // disagreement (-32020), then an unsupported version (-32022).
  if (headerVersion === null)
    throw headerMismatch(`Missing MCP-Protocol-Version header: it must equal params._meta["${MetaKey.protocolVersion}"] (${version})`, id);
  if (headerVersion !== version) {
    throw headerMismatch(`Header mismatch: MCP-Protocol-Version header value '${headerVersion}' does not match body value '${version}'`, id);
  }
  if (version !== MODERN_VERSION) throw unsupportedVersion(version, id);
  const level = own(m, MetaKey.logLevel);
  const minLogRank = level === undefined ? undefined : loggingLevelRank(level);
  if (level !== undefined && minLogRank === undefined)
    throw invalidMeta(`Invalid log level ${JSON.stringify(level)} in params._meta["${MetaKey.logLevel}"]`, id);

  if (message.kind === "request") {
    const method = header("mcp-method");
    if (method === null) throw headerMismatch(`Missing Mcp-Method header: it must equal the body's method (${message.method})`, id);
    if (decodeHeaderValue(method) !== message.method) {
      throw headerMismatch(`Header mismatch: Mcp-Method header value '${method}' does not match body value '${message.method}'`, id);
    }
    const field = NAME_FIELD.get(message.method);
    if (field !== undefined) {
      const bodyValue = message.params ? own(message.params, field) : undefined;
      const name = header("mcp-name");
      if (name === null) throw headerMismatch(`Missing Mcp-Name header: ${message.method} must send params.${field} in Mcp-Name`, id);
      if (typeof bodyValue === "string" && decodeHeaderValue(name) !== bodyValue) {
        throw headerMismatch(`Header mismatch: Mcp-Name header value '${name}' does not match body value '${bodyValue}'`, id);
      }
    }
  }
  return { era: "modern", protocolVersion: version, clientCapabilities, minLogRank };
}

/**
 * Decides the era of a request or notification and checks its version metadata. Modern when
 * `_meta` names a protocol version or the header names 2026-07-28; legacy for `initialize`,
 * a legacy header, or no header at all (assumed 2025-03-26, 2025-11-25 transports §A.7).
 * Throws a {@link ProtocolError} with the status 2026-07-28 prescribes (400).
 */
export function detectEra(message: InboundRequest | InboundNotification, header: HeaderReader): RequestInfo {
  const m = meta(message.params);
  const headerVersion = header("mcp-protocol-version");
  if ((m && own(m, MetaKey.protocolVersion) !== undefined) || headerVersion === MODERN_VERSION) return checkModern(message, header, headerVersion, m);
  if (message.method === "initialize") {
    const requested = message.params ? own(message.params, "protocolVersion") : undefined;
    return { era: "legacy", protocolVersion: typeof requested === "string" && isLegacyVersion(requested) ? requested : DEFAULT_LEGACY_VERSION };
  }
  if (headerVersion === null) return { era: "legacy", protocolVersion: DEFAULT_LEGACY_VERSION };
  if (isLegacyVersion(headerVersion)) return { era: "legacy", protocolVersion: headerVersion };
  throw unsupportedVersion(headerVersion, message.kind === "request" ? message.id : undefined);
}
