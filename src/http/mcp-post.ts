/** The POST pipeline of the MCP endpoint: checks, parse, era, dispatch, JSON or SSE encoding. */

import { detectEra, unsupportedVersion } from "../core/era.ts";
import { ErrorCode, ProtocolError, invalidRequest } from "../core/errors.ts";
import { jsonDepthExceeds, own } from "../core/json.ts";
import { classifyMessage, type InboundRequest } from "../core/jsonrpc.ts";
import type { JsonObject } from "../core/types.ts";
import { resolveTool } from "../server/call-tool.ts";
import type { HandleStore } from "../server/handles.ts";
import type { ToolLimits } from "../server/request-context.ts";
import type { Authorizer } from "./authorizer.ts";
import { relayedChangeFeed, type ChangeRelay } from "../server/change-relay.ts";
import type { SessionGateway } from "../session/session-gateway.ts";
import type { StateSealer } from "../server/request-state.ts";
import type { McpServer } from "../server/server.ts";
import { logMessage } from "./debug-log.ts";
import { checkHeaderParams } from "./header-params.ts";
import { listen, type ListenSettings } from "./listen.ts";
import { readBody } from "./read-body.ts";
import { Exchange, type ResponseMode } from "./exchange.ts";
import { errorMessage, errorResponse, toProtocolError } from "./responses.ts";

export type { ResponseMode };

export interface PostOptions {
  server: McpServer;
  /** The tenant this endpoint serves (multi-tenant Workers); scopes everything minted here. */
  tenant: string | undefined;
  /** Verifies the caller and its tool scopes; absent: no auth. */
  authorizer: Authorizer | undefined;
  rateLimiter: RateLimiter | undefined;
  /** Carries change notifications across isolates (a Durable Object hub); in-isolate only when absent. */
  relay: ChangeRelay | undefined;
  /** Settings of listen streams (the defaults when absent). */
  listen: ListenSettings | undefined;
  /** Revisions served (all when absent). */
  revisions: ReadonlySet<string> | undefined;
  limits: ToolLimits | undefined;
  accessLog: boolean;
  /** Legacy sessions, when enabled: 2025-era traffic is forwarded to its session. */
  sessions: SessionGateway | undefined;
  sealer: StateSealer;
  handleStore: HandleStore | undefined;
  maxBodyBytes: number;
  maxJsonDepth: number;
  responseMode: ResponseMode;
  debug: boolean;
}

const OWS = /^[ \t]+|[ \t]+$/g;

/** Strips optional whitespace (space, tab) around a header value; most values have none. */
function trimOws(value: string | null): string | null {
  if (value === null || value === "") return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  return first === 32 || first === 9 || last === 32 || last === 9 ? value.replace(OWS, "") : value;
}

interface AccessEntry {
  started: number;
  tenant: string | undefined;
  revision: string | undefined;
  method: string | undefined;
  target: string | undefined;
  principal: string | undefined;
}

/** One structured line per request for operators (`wrangler tail`): never tokens or arguments. */
function writeAccessLog(entry: AccessEntry, status: number): void {
  console.log(
    JSON.stringify({
      event: "mcp.request",
      tenant: entry.tenant,
      revision: entry.revision,
      method: entry.method,
      target: entry.target,
      status,
      durationMs: Date.now() - entry.started,
      principal: entry.principal,
    }),
  );
}

/** Checks rate limits for one request; resolves with the seconds to wait when one is reached. */
export interface RateLimiter {
  check(key: { tenant: string | undefined; principal: string | undefined; tool: string | undefined }): Promise<number | undefined>;
}


function mediaTypes(header: string | null): string[] {
  if (header === null) return [];
  return header.split(",").map((part) => (part.split(";")[0] ?? "").trim().toLowerCase());
}

// What the official clients send: accepted without parsing (the common case on the hot path).
const USUAL_ACCEPT = new Set(["application/json, text/event-stream", "text/event-stream, application/json"]);

function checkAccept(request: Request): void {
  const accept = request.headers.get("accept");
  if (accept !== null && USUAL_ACCEPT.has(accept)) return;
  const types = mediaTypes(accept);
  const json = types.some((t) => t === "application/json" || t === "application/*" || t === "*/*");
  const sse = types.some((t) => t === "text/event-stream" || t === "text/*" || t === "*/*");
  if (!json || !sse) {
    throw new ProtocolError(ErrorCode.InvalidRequest, `Not Acceptable: the Accept header must list both application/json and text/event-stream`, { status: 406 });
  }
}

function checkContentType(request: Request): void {
  const header = request.headers.get("content-type");
  if (header === "application/json") return;
  const [type = "", ...parameters] = (header ?? "").split(";").map((part) => part.trim().toLowerCase());
  const charset = parameters.find((p) => p.startsWith("charset="))?.slice("charset=".length).replaceAll('"', "");
  if (type !== "application/json" || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
    throw new ProtocolError(ErrorCode.InvalidRequest, `Unsupported Media Type: send the JSON-RPC message as application/json (UTF-8); received ${header === null ? "no Content-Type" : `'${header}'`}`, { status: 415 });
  }
}

function parse(text: string, maxDepth: number): unknown {
  if (jsonDepthExceeds(text, maxDepth)) throw invalidRequest(`The JSON body is nested deeper than the limit of ${maxDepth} levels`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message}` : "";
    throw new ProtocolError(ErrorCode.ParseError, `Parse error: the body is not valid JSON${detail}`, { status: 400 });
  }
}

/** Answers one POST to the MCP endpoint. Never throws: every failure is a JSON-RPC error response. */
export async function handlePost(request: Request, options: PostOptions, waitUntil?: (promise: Promise<unknown>) => void): Promise<Response> {
  if (!options.accessLog) return answer(request, options, undefined, waitUntil);
  const entry: AccessEntry = { started: Date.now(), tenant: options.tenant, revision: undefined, method: undefined, target: undefined, principal: undefined };
  const response = await answer(request, options, entry, waitUntil);
  writeAccessLog(entry, response.status);
  return response;
}

async function answer(request: Request, options: PostOptions, entry: AccessEntry | undefined, waitUntil: ((promise: Promise<unknown>) => void) | undefined): Promise<Response> {
  // Optional whitespace around a field value is not part of it (RFC 9110 §5.5); values that need
  // leading or trailing spaces travel base64-encoded (2026-07-28 "Value encoding").
  const header = (name: string): string | null => trimOws(request.headers.get(name));
  let message;
  try {
    const principal = options.authorizer ? await options.authorizer.authenticate(request) : undefined;
    if (entry) entry.principal = principal?.subject;
    const scope = principal ? `${options.tenant ?? "default"}:${principal.subject}` : (options.tenant ?? "default");
    checkAccept(request);
    checkContentType(request);
    const text = await readBody(request, options.maxBodyBytes);
    if (options.debug) logMessage("in", text, request.headers);
    message = classifyMessage(parse(text, options.maxJsonDepth));
    const info = message.kind === "response" ? undefined : detectEra(message, header);
    if (entry && message.kind !== "response") {
      entry.method = message.method;
      entry.revision = info?.protocolVersion;
      const target = message.params ? (own(message.params, "name") ?? own(message.params, "uri")) : undefined;
      entry.target = typeof target === "string" ? target : undefined;
    }
    if (info && options.revisions && !options.revisions.has(info.protocolVersion) && !(message.kind === "request" && message.method === "initialize")) {
      throw unsupportedVersion(info.protocolVersion, message.kind === "request" ? message.id : undefined, [...options.revisions]);
    }
    if (options.sessions && info?.era !== "modern") {
      // 2025-era traffic with sessions on: initialize opens a session, everything else needs one.
      if (message.kind === "request" && message.method === "initialize") {
        return await options.sessions.forward(options.sessions.mint(), request, text, scope, true);
      }
      const sessionId = header("mcp-session-id");
      if (sessionId === null) {
        throw invalidRequest(`Missing Mcp-Session-Id header: this server keeps 2025-era clients in sessions; send initialize first and then the Mcp-Session-Id it returns`);
      }
      return await options.sessions.forward(sessionId, request, text, scope, false);
    }
    if (message.kind === "response" || info === undefined) {
      throw invalidRequest(`This server sent no request awaiting a response (no session): JSON-RPC responses are not accepted here`);
    }
    if (message.kind === "notification") return new Response(null, { status: 202 });

    if (options.authorizer && principal && message.method === "tools/call") {
      const name = message.params ? own(message.params, "name") : undefined;
      if (typeof name === "string") options.authorizer.authorizeTool(principal, name, request);
    }
    if (options.rateLimiter) {
      const tool = message.method === "tools/call" && message.params ? own(message.params, "name") : undefined;
      const wait = await options.rateLimiter.check({ tenant: options.tenant, principal: principal?.subject, tool: typeof tool === "string" ? tool : undefined });
      if (wait !== undefined) {
        throw new ProtocolError(ErrorCode.RateLimited, `Rate limit exceeded: retry after ${wait} s`, {
          status: 429,
          requestId: message.id,
          data: { retryAfterSeconds: wait },
          headers: { "retry-after": String(wait) },
        });
      }
    }
    if (info.era === "modern") {
      if (!options.server.hasMethod(message.method, info.era)) {
        throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`, { status: 404, requestId: message.id });
      }
      if (message.method === "subscriptions/listen") {
        return listen(message, options.relay ?? options.server.changes, { ...options.listen, debug: options.debug, signal: request.signal });
      }
      if (message.method === "tools/call") {
        const tool = resolveTool(options.server.tools, message.params);
        checkHeaderParams(tool, message.params ? own(message.params, "arguments") : undefined, header, message.id);
      }
    }
    const exchange = new Exchange(request, {
      era: info.era,
      protocolVersion: info.protocolVersion,
      clientCapabilities: info.era === "modern" ? info.clientCapabilities : {},
      // Legacy stateless requests cannot carry a level set earlier; info and above are sent.
      minLogRank: info.era === "modern" ? info.minLogRank : 1,
      progressToken: progressTokenOf(message),
      sealer: options.sealer,
      scope,
      tenant: options.tenant,
      principal,
      versions: options.revisions,
      changes: options.relay ? relayedChangeFeed(options.relay, waitUntil) : undefined,
      limits: options.limits,
      handleStore: options.handleStore,
      responseMode: options.responseMode,
      debug: options.debug,
    });
    const inbound = message;
    return await exchange.respond(inbound.id, (ctx) => options.server.handle(inbound, ctx));
  } catch (error) {
    const protocolError = toProtocolError(error);
    if (options.debug) logMessage("out", errorMessage(protocolError, message?.kind === "request" ? message.id : undefined));
    return errorResponse(protocolError, message?.kind === "request" ? message.id : undefined);
  }
}

function progressTokenOf(message: InboundRequest): string | number | undefined {
  const meta = message.params ? own(message.params, "_meta") : undefined;
  if (typeof meta !== "object" || meta === null) return undefined;
  const token = own(meta as JsonObject, "progressToken");
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}
