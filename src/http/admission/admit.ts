/**
 * ADMIT (DESIGN §3): the one stage every request passes before it is routed, whatever path it
 * then takes (stateless POST, session POST/GET/DELETE, and anything added later).
 */

import type { Admission } from "../../core/admission.ts";
import { clientNetwork } from "../../core/client-address.ts";
import { detectEra, unsupportedVersion } from "../../core/era.ts";
import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import { own } from "../../core/json.ts";
import { telemetryText } from "../../core/telemetry-text.ts";
import { classifyMessage, type RequestId } from "../../core/jsonrpc.ts";
import { callerKey, type Principal } from "../../core/principal.ts";
import { DORMANT } from "../../core/shape-anchor.ts";
import { resolveTool } from "../../server/tools/call-tool.ts";
import type { TransportContext } from "../../server/context/transport.ts";
import type { CompiledTool } from "../../server/tools/compile-tool.ts";
import type { ToolFilter } from "../../server/tools/tool-filter.ts";
import type { Endpoint } from "../endpoint.ts";
import { logMessage } from "../debug-log.ts";
import { checkHeaderParams } from "./header-params.ts";
import { rateLimited } from "./rate-limiter.ts";
import { readBody } from "./read-body.ts";
import { checkAccept, checkContentType, headerReader, parseJson } from "./request-checks.ts";

import type { AdmissionTrace, AdmittedPost } from "./admitted.ts";

export { newTrace, type AdmissionTrace, type AdmittedPost } from "./admitted.ts";

/** What an anonymous caller of a protected tenant may ask: lifecycle, discovery, and (public) tools. */
const ANONYMOUS_METHODS: ReadonlySet<string> = new Set(["initialize", "ping", "server/discover", "tools/list", "tools/call"]);

// The admission of an anonymous caller with no client address is the same for every request of an
// endpoint: built once (most stateless traffic of a server without auth, locally all of it).
const anonymous = new WeakMap<Endpoint, Admission>();

/**
 * Anonymous callers are told apart for rate limits and quotas by the network of the address
 * Cloudflare reports (IPv4 as it is, IPv6 by /64: see {@link clientNetwork}). The header is read
 * here only, on the request as it reached the Worker: on Cloudflare the edge sets it and a client
 * cannot; requests forwarded to session and task objects carry the Admission instead, and never
 * this header. Under `wrangler dev` and in tests it is whatever the client sent. A value that is
 * not an IP address counts as no address (all such callers share one key).
 */
function anonymousNetwork(headers: Headers): string | undefined {
  const address = headers.get("cf-connecting-ip");
  return address === null ? undefined : clientNetwork(address);
}

function admissionOf(headers: Headers, endpoint: Endpoint, principal: Principal | undefined): Admission {
  // The address tells anonymous callers apart for rate limits and quotas only (session, task and
  // handle objects count against quotas too): without either, it is not read (a header read is a
  // call into the runtime, about 2k instructions).
  const address = principal || (!endpoint.rateLimiter && !endpoint.quotaCounter) ? undefined : anonymousNetwork(headers);
  if (!principal && address === undefined) {
    let shared = anonymous.get(endpoint);
    if (!shared) {
      const caller = callerKey(endpoint.tenant, undefined);
      shared = Object.freeze({ tenant: endpoint.tenant, principal: undefined, caller, quotaHolder: caller, limits: endpoint.limits, quotas: endpoint.quotas });
      anonymous.set(endpoint, shared);
    }
    return shared;
  }
  const caller = callerKey(endpoint.tenant, principal);
  return {
    tenant: endpoint.tenant,
    principal,
    caller,
    quotaHolder: address === undefined ? caller : JSON.stringify([endpoint.tenant, "address", address]),
    limits: endpoint.limits,
    quotas: endpoint.quotas,
  };
}

/**
 * Dormant admissions made by {@link admissionOf}, one of each shape (an anonymous caller's, shared
 * and frozen; a caller's own): what src/observe's traced samples copy (core/shape-anchor.ts).
 */
export const DORMANT_ADMISSIONS: readonly Admission[] = /* @__PURE__ */ dormantAdmissions();

function dormantAdmissions(): Admission[] {
  const endpoint = { tenant: "", limits: DORMANT, quotas: DORMANT, rateLimiter: undefined, quotaCounter: undefined } as unknown as Endpoint;
  const headers = new Headers();
  return [admissionOf(headers, endpoint, undefined), admissionOf(headers, endpoint, DORMANT)];
}

/** Authenticates the request when the endpoint requires auth (401 + WWW-Authenticate otherwise). */
async function authenticate(request: Request, endpoint: Endpoint, trace: AdmissionTrace): Promise<Admission> {
  const principal = endpoint.authorizer ? await endpoint.authorizer.authenticate(request) : undefined;
  trace.principal = principal;
  return admissionOf(request.headers, endpoint, principal);
}

/**
 * Admits a GET or DELETE (a session's stream or its end): authentication comes before any other
 * answer, so that a client probing with GET learns it needs a token (401) rather than 405; then
 * the same rate limits as a POST (429).
 */
export async function admitStream(request: Request, endpoint: Endpoint, trace: AdmissionTrace): Promise<Admission> {
  const admission = await authenticate(request, endpoint, trace);
  // An anonymous caller of a protected tenant may only use a session it opened (for public tools);
  // a GET without one is how clients probe for auth, so it keeps getting the 401 challenge.
  if (endpoint.authorizer && !admission.principal && !request.headers.has("mcp-session-id")) throw endpoint.authorizer.unauthorized(request);
  await checkRateLimits(endpoint, admission, undefined, undefined);
  return admission;
}

/**
 * Counts `count` more requests of an admitted caller against the tenant and principal rate limits
 * (429 once one is reached): for a request that does the work of several, such as a
 * `subscriptions/listen` that looks up many tasks.
 */
export async function chargeRateLimits(endpoint: Endpoint, admission: Admission, count: number, requestId: RequestId | undefined): Promise<void> {
  for (let i = 0; i < count; i++) await checkRateLimits(endpoint, admission, undefined, requestId);
}

/**
 * Admits a POST, in this order: media types; body size and read deadline (413/408); authentication
 * (401); JSON, message shape and era checks (400/404); the tool of a `tools/call`, resolved once
 * (-32602); its scopes (403); rate limits (429); and the session quota of an `initialize` (429).
 * Rejects with a {@link ProtocolError} (never throws); `trace.requestId` is the id to echo once the
 * message was read. `headers`: the request's, read once by the caller (each `request.headers` is a
 * call into the runtime, about a thousand instructions). Past the body, nothing waits unless an authorizer, a rate limiter or a session
 * quota has work to do (the hot path of most Workers: one wait, for the body).
 */
export function admitPost(request: Request, endpoint: Endpoint, trace: AdmissionTrace, headers: Headers = request.headers): Promise<AdmittedPost> {
  try {
    checkAccept(headers);
    checkContentType(headers);
    return readBody(request, endpoint.maxBodyBytes, endpoint.bodyTimeoutMs, headers).then((text) => admitBody(request, endpoint, trace, headers, text));
  } catch (error) {
    return Promise.reject(error);
  }
}

function admitBody(request: Request, endpoint: Endpoint, trace: AdmissionTrace, headers: Headers, text: string): AdmittedPost | Promise<AdmittedPost> {
  if (endpoint.debug) logMessage("in", text, headers);
  // Without an authorizer there is nothing to wait for (the hot path of most Workers).
  if (endpoint.authorizer) return authenticate(request, endpoint, trace).then((admission) => admitMessage(request, endpoint, trace, headers, text, admission));
  return admitMessage(request, endpoint, trace, headers, text, admissionOf(headers, endpoint, undefined));
}

function admitMessage(
  request: Request,
  endpoint: Endpoint,
  trace: AdmissionTrace,
  headers: Headers,
  text: string,
  admission: Admission,
): AdmittedPost | Promise<AdmittedPost> {
  const message = classifyMessage(parseJson(text, endpoint.maxJsonDepth));
  if (message.kind === "response") return { admission, text, message, info: undefined, tool: undefined, newSession: undefined, opening: undefined };
  const id = message.kind === "request" ? message.id : undefined;
  trace.requestId = id;
  // The trace's names are telemetry's copies (spans, the access log): bounded, whatever the client sent.
  trace.method = telemetryText(message.method);
  trace.params = message.params;
  const target = message.params ? (own(message.params, "name") ?? own(message.params, "uri")) : undefined;
  trace.target = typeof target === "string" ? telemetryText(target) : undefined;

  const header = headerReader(headers);
  const info = detectEra(message, header);
  trace.revision = telemetryText(info.protocolVersion);
  const initialize = message.method === "initialize";
  if (endpoint.revisions && !endpoint.revisions.has(info.protocolVersion) && !initialize) {
    throw unsupportedVersion(info.protocolVersion, id, [...endpoint.revisions]);
  }
  if (message.kind === "notification") return { admission, text, message, info, tool: undefined, newSession: undefined, opening: undefined };

  // An anonymous caller of a protected tenant (one with public tools) may only discover and call public tools.
  if (endpoint.authorizer && !admission.principal && !ANONYMOUS_METHODS.has(message.method)) throw endpoint.authorizer.unauthorized(request);
  const server = endpoint.server;
  if (info.era === "modern" && !server.hasMethod(message.method, info.era)) {
    throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`, { status: 404, requestId: message.id });
  }
  const admitted = (tool: CompiledTool | undefined): AdmittedPost | Promise<AdmittedPost> => {
    const post: AdmittedPost = { admission, text, message, info, tool, newSession: undefined, opening: undefined };
    const routes = endpoint.sessionRoutes;
    if (!(initialize && routes && info.era === "legacy")) return post;
    // The session routes came with the session gateway.
    return routes.open(endpoint, admission, message.id).then((opened) => ({ ...post, newSession: opened.id, opening: opened.opening }));
  };
  if (message.method === "tools/call" && server.tools.size > 0) {
    const beforeLimits =
      info.era === "modern"
        ? (found: CompiledTool) => checkHeaderParams(found, message.params ? own(message.params, "arguments") : undefined, header, message.id)
        : undefined;
    const name = message.params ? own(message.params, "name") : undefined;
    // Without a rate limiter the tool is admitted without a wait (the hot path).
    const tool = admitTool(endpoint, admission, request, name, message.id, beforeLimits);
    return tool instanceof Promise ? tool.then(admitted) : admitted(tool);
  }
  if (endpoint.rateLimiter) return checkRateLimits(endpoint, admission, undefined, message.id).then(() => admitted(undefined));
  return admitted(undefined);
}

/**
 * The tool part of admission, shared by every path that runs a tool on a caller's behalf (a
 * `tools/call`, and anything that calls a tool by name for it): resolves the tool once, checks
 * its scopes (403) and the rate limits (429). An unknown name is reported last (-32602), so a
 * caller without the scope, or over its limits, learns nothing about which tools exist.
 * `beforeLimits` runs on the resolved tool before scopes (the 2026-07-28 `Mcp-Param-*` checks).
 * `withinRequest` marks a tool called by name inside an admitted request: its tenant and principal
 * rate limits were counted once already, so only the tool's own limit is counted. Without rate
 * limits it answers (or throws) at once, with no promise: a `tools/call`'s hot path.
 */
export function admitTool(
  endpoint: Endpoint,
  admission: Admission,
  request: Request,
  name: unknown,
  requestId: RequestId | undefined,
  beforeLimits?: (tool: CompiledTool) => void,
  withinRequest = false,
): CompiledTool | Promise<CompiledTool> {
  const found = resolveAuthorized(endpoint, admission, request, name, beforeLimits);
  // Without rate limits there is nothing to wait for: the tool itself, or a throw (the hot path).
  if (!endpoint.rateLimiter) return admittedTool(found);
  return checkRateLimits(endpoint, admission, typeof name === "string" ? name : undefined, requestId, withinRequest).then(() => admittedTool(found));
}

/** The resolved tool, or the unknown name's error once the checks that come first have passed. */
function admittedTool(found: CompiledTool | UnknownTool): CompiledTool {
  if (found instanceof UnknownTool) throw found.error;
  return found;
}

/** A tool name that resolved to no tool: its error is thrown once the checks that come first have passed. */
class UnknownTool {
  constructor(readonly error: unknown) {}
}

/** The part of tool admission before rate limits: resolve the tool, run `beforeLimits` on it, check its scopes (403). */
function resolveAuthorized(
  endpoint: Endpoint,
  admission: Admission,
  request: Request,
  name: unknown,
  beforeLimits: ((tool: CompiledTool) => void) | undefined,
): CompiledTool | UnknownTool {
  let found: CompiledTool | UnknownTool;
  try {
    found = resolveTool(endpoint.server.tools, { name }, suggestable(endpoint, admission));
  } catch (error) {
    found = new UnknownTool(error);
  }
  if (!(found instanceof UnknownTool)) beforeLimits?.(found);
  if (endpoint.authorizer && typeof name === "string") endpoint.authorizer.authorizeTool(admission.principal, name, request);
  return found;
}

/**
 * The tools an unknown name's error may suggest: those this caller may call (its scopes, grants and
 * tenant). When a feature hides tools by request (apps' app-only tools), only those a model may
 * read: the feature filters' "model" view, which needs nothing of the request but the caller's
 * own filter, so no hidden tool is ever named.
 */
function suggestable(endpoint: Endpoint, admission: Admission): (name: string) => boolean {
  // Worked out only for an unknown name: a known tool's call never asks.
  let view: ToolFilter | undefined | false = false;
  return (tool) => {
    if (view === false) {
      const tools = endpoint.server.tools;
      const filter = endpoint.authorizer?.toolFilter?.(admission.principal);
      view = tools.hidesTools ? tools.viewFor({ toolFilter: filter } as TransportContext, "model") : filter;
    }
    return view === undefined || view.allows(tool);
  };
}

async function checkRateLimits(
  endpoint: Endpoint,
  admission: Admission,
  tool: string | undefined,
  requestId: RequestId | undefined,
  toolOnly = false,
): Promise<void> {
  if (!endpoint.rateLimiter) return;
  const wait = await endpoint.rateLimiter.check(admission, tool, toolOnly);
  if (wait !== undefined) throw rateLimited(wait, requestId);
}
