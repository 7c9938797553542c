/** The hono app: the MCP endpoint (POST; GET and DELETE of sessions), metadata routes, JSON 404s. */

import { discoveryPreflight, discoveryResponse, serverCard, SERVER_CARD_TYPE } from "./server-card.ts";
import { Hono } from "hono";
import { METADATA_PATH } from "../auth/protected-resource.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import { admitStream, newTrace } from "./admit.ts";
import { writeAccessLog } from "./access-log.ts";
import { preflight, withCors } from "./cors.ts";
import { createEndpoint, type Endpoint, type McpAppOptions } from "./endpoint.ts";
import { handlePost, type WaitUntil } from "./mcp-post.ts";
import { errorResponse } from "./responses.ts";

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_JSON_DEPTH, type McpAppOptions } from "./endpoint.ts";

/** The platform's waitUntil for this request, if it has one (hono throws when there is no execution context). */
function waitUntilOf(c: { executionCtx: ExecutionContext }): WaitUntil | undefined {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}

/**
 * GET (stream, resume) and DELETE: admitted like every request (so a client without a token gets
 * 401 before anything else), then handed to the session the request names, or 405 without one.
 */
async function handleStream(request: Request, endpoint: Endpoint): Promise<Response> {
  const trace = newTrace();
  trace.method = request.method;
  let response: Response;
  try {
    const admission = await admitStream(request, endpoint, trace);
    const sessionId = request.headers.get("mcp-session-id");
    if (endpoint.sessions && sessionId !== null && (request.method === "GET" || request.method === "DELETE")) {
      response = await endpoint.sessions.forward(sessionId.trim(), request, undefined, admission, false);
    } else {
      const needs = endpoint.sessions ? "an Mcp-Session-Id from initialize" : "a session, and this server is stateless";
      response = errorResponse(
        new ProtocolError(ErrorCode.InvalidRequest, `Method Not Allowed: ${request.method} ${endpoint.path} needs ${needs}; send JSON-RPC messages with POST`, {
          status: 405,
        }),
        undefined,
        { allow: endpoint.sessions ? "GET, POST, DELETE" : "POST" },
      );
    }
  } catch (error) {
    response = errorResponse(error);
  }
  if (endpoint.accessLog) writeAccessLog(endpoint.tenant, trace, response.status);
  return response;
}

/** Builds the app once per isolate; its `fetch` answers requests. */
export function createMcpApp(options: McpAppOptions): Hono {
  return createEndpointApp(createEndpoint(options));
}

/** The app of an endpoint already resolved (the session and task objects build theirs the same way). */
export function createEndpointApp(endpoint: Endpoint): Hono {
  const { path, policy, authorizer } = endpoint;
  // The Host/Origin check runs inside each handler, not as middleware: one less async layer per request.
  // Browsers get CORS headers on every answer to an allowed Origin (refusals included).
  const guarded =
    (handler: (request: Request) => Response | Promise<Response>) =>
    async (c: { req: { raw: Request } }): Promise<Response> => {
      const request = c.req.raw;
      const refused = policy.check(request);
      if (refused) return errorResponse(refused);
      const response = await handler(request);
      return request.headers.has("origin") ? withCors(request, response) : response;
    };
  const notFound = new ProtocolError(ErrorCode.InvalidRequest, `Not Found: the MCP endpoint is ${path}`, { status: 404 });

  const app = new Hono();
  if (authorizer) {
    // RFC 9728 metadata, reachable without a token: the root form and the path-inserted form.
    const metadata = () =>
      new Response(JSON.stringify(authorizer.metadata), { headers: { "content-type": "application/json", "cache-control": "max-age=300" } });
    app.get(METADATA_PATH, guarded(metadata));
    app.get(`${METADATA_PATH}${authorizer.resourcePath}`, guarded(metadata));
  }
  const card = endpoint.serverCard;
  if (card) {
    // Public metadata: no Host/Origin guard (any site may read it, CORS *), no token.
    app.get(`${path}/server-card`, (c) => discoveryResponse(c.req.raw, serverCard(endpoint, new URL(c.req.url).origin, card), SERVER_CARD_TYPE));
    app.options(`${path}/server-card`, () => discoveryPreflight());
  }
  app.post(path, (c): Response | Promise<Response> => {
    const request = c.req.raw;
    const refused = policy.check(request);
    if (refused) return errorResponse(refused);
    const answer = handlePost(request, endpoint, waitUntilOf(c));
    return request.headers.has("origin") ? answer.then((response) => withCors(request, response)) : answer;
  });
  app.options(path, guarded(preflight));
  app.all(
    path,
    guarded((request) => handleStream(request, endpoint)),
  );
  app.notFound(guarded(() => errorResponse(notFound)));
  app.onError((error) => errorResponse(error));
  return app;
}
