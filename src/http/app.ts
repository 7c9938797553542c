/** The app of an endpoint: the MCP endpoint (POST; GET and DELETE of sessions), metadata routes, JSON 404s. */

import { METADATA_PATH } from "../auth/protected-resource.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import { admitStream, newTrace } from "./admission/admit.ts";
import { writeAccessLog } from "./access-log.ts";
import { preflight, withCors } from "./admission/cors.ts";
import type { Endpoint } from "./endpoint.ts";
import { handlePost } from "./mcp-post.ts";
import type { WaitUntil } from "../core/names.ts";
import { errorResponse, toProtocolError } from "./responses.ts";

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_JSON_DEPTH, type McpAppOptions } from "./endpoint.ts";

/**
 * An MCP endpoint as a fetch handler: a Worker's `fetch`, or mounted in any router (for hono:
 * `app.all("/mcp", (c) => mcp.fetch(c.req.raw, c.env, c.executionCtx))`).
 */
export interface McpApp {
  fetch(request: Request, env?: unknown, ctx?: { waitUntil(promise: Promise<unknown>): void }): Promise<Response>;
}

/** The path of a request URL, without parsing the whole URL (the hot path: every request). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}

/**
 * GET (stream, resume) and DELETE: admitted like every request (so a client without a token gets
 * 401 before anything else), then handed to the session the request names, or 405 without one.
 */
async function handleStream(request: Request, endpoint: Endpoint, waitUntil: WaitUntil | undefined): Promise<Response> {
  const trace = newTrace();
  trace.method = request.method;
  const observation = endpoint.observer?.begin(request, trace, endpoint.tenant, endpoint.authorizer !== undefined || endpoint.rateLimiter !== undefined);
  let response: Response;
  let failure: ProtocolError | undefined;
  try {
    let admission = await admitStream(request, endpoint, trace);
    if (observation) {
      admission = observation.admittedStream(admission);
      endpoint = observation.routed(endpoint);
    }
    const sessionId = request.headers.get("mcp-session-id");
    if (endpoint.sessionRoutes && sessionId !== null && (request.method === "GET" || request.method === "DELETE")) {
      response = await endpoint.sessionRoutes.stream(request, endpoint, admission, sessionId.trim(), waitUntil);
    } else {
      const needs = endpoint.sessions ? "an Mcp-Session-Id from initialize" : "a session, and this server is stateless";
      failure = new ProtocolError(
        ErrorCode.InvalidRequest,
        `Method Not Allowed: ${request.method} ${endpoint.path} needs ${needs}; send JSON-RPC messages with POST`,
        {
          status: 405,
        },
      );
      response = errorResponse(failure, undefined, { allow: endpoint.sessions ? "GET, POST, DELETE" : "POST" });
    }
  } catch (error) {
    failure = toProtocolError(error);
    response = errorResponse(failure);
  }
  observation?.end(response.status, failure, waitUntil);
  if (endpoint.accessLog) writeAccessLog(endpoint.tenant, trace, response.status);
  return response;
}

/** The app of an endpoint already resolved (the session and task objects build theirs the same way). */
export function createEndpointApp(endpoint: Endpoint): McpApp {
  const { path, policy, authorizer } = endpoint;
  const notFound = new ProtocolError(ErrorCode.InvalidRequest, `Not Found: the MCP endpoint is ${path}`, { status: 404 });
  // RFC 9728 metadata, reachable without a token: the root form and the path-inserted form.
  const metadataPaths = authorizer ? new Set([METADATA_PATH, `${METADATA_PATH}${authorizer.resourcePath}`]) : undefined;

  const card = endpoint.serverCard;
  const cardPath = `${path}/server-card`;
  const route = (request: Request, ctx: { waitUntil(promise: Promise<unknown>): void } | undefined, headers: Headers): Response | Promise<Response> => {
    const method = request.method;
    const at = pathOf(request.url);
    if (at === path) {
      const waitUntil: WaitUntil | undefined = ctx && ((promise) => ctx.waitUntil(promise));
      if (method === "POST") return handlePost(request, endpoint, waitUntil, headers);
      if (method === "OPTIONS") return preflight(request);
      return handleStream(request, endpoint, waitUntil).catch(errorResponse);
    }
    if (authorizer !== undefined && (method === "GET" || method === "HEAD") && metadataPaths?.has(at)) {
      return new Response(method === "HEAD" ? null : authorizer.metadataJson(request), {
        headers: { "content-type": "application/json", "cache-control": "max-age=300" },
      });
    }
    return errorResponse(notFound);
  };

  const serveCard = async (served: NonNullable<typeof card>, request: Request): Promise<Response> => served.serve(request, endpoint);

  return {
    fetch(request, _env, ctx) {
      // The Server Card is public metadata: no Host/Origin check (any site may read it, CORS *), no token.
      if (card !== undefined && pathOf(request.url) === cardPath) return serveCard(card, request);
      // The Host/Origin check runs first for every route.
      // The headers are read once here (each `request.headers` is a runtime call), for the policy,
      // CORS and admission; the Origin header once, for the policy and for CORS.
      const headers = request.headers;
      const origin = headers.get("origin");
      let response: Response | Promise<Response>;
      try {
        const refused = policy.check(request, origin, headers);
        response = refused ? errorResponse(refused) : route(request, ctx, headers);
      } catch (error) {
        response = errorResponse(error);
      }
      // Browsers get CORS headers on every answer to an allowed Origin (refusals included). Otherwise
      // no wrapper to wait through: a POST's answer is the route's own promise (routes never reject).
      if (origin !== null) return Promise.resolve(response).then((answer) => withCors(request, answer));
      return response instanceof Promise ? response : Promise.resolve(response);
    },
  };
}
