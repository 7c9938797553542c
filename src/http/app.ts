/** The hono app: the MCP endpoint (POST), 405 for GET/DELETE without sessions, and JSON 404s elsewhere. */

import { Hono } from "hono";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import type { HandleStore } from "../server/handles.ts";
import type { ChangeRelay } from "../server/change-relay.ts";
import type { ToolLimits } from "../server/request-context.ts";
import { METADATA_PATH } from "../auth/protected-resource.ts";
import type { Authorizer } from "./authorizer.ts";
import type { SessionGateway } from "../session/session-gateway.ts";
import { createStateSealer } from "../server/request-state.ts";
import type { McpServer } from "../server/server.ts";
import { preflight, withCors } from "./cors.ts";
import { createHostPolicy, type HostPolicyOptions } from "./host-policy.ts";
import type { ListenSettings } from "./listen.ts";
import { handlePost, type RateLimiter, type ResponseMode } from "./mcp-post.ts";
import { errorResponse } from "./responses.ts";

export interface McpAppOptions {
  server: McpServer;
  /** Path of the MCP endpoint (default `/mcp`). */
  path?: string;
  /** Host/Origin allowlist additions (localhost names are always allowed). */
  allow?: HostPolicyOptions;
  /** Largest accepted request body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Deepest accepted JSON nesting (default 64). */
  maxJsonDepth?: number;
  responseMode?: ResponseMode;
  /** Log every JSON-RPC message in and out, credentials redacted. */
  debug?: boolean;
  /**
   * HMAC secret for MRTR `requestState` (a Worker secret). Without one, a random key per isolate
   * is used: retries that reach another isolate are then refused.
   */
  stateSecret?: string;
  /** Where `ctx.handles` keeps state; on Workers, `createWorker` binds MCP_HANDLES here. */
  handleStore?: HandleStore;
  /** Legacy sessions for 2025-era clients; on Workers, the MCP_SESSIONS Durable Object namespace. */
  sessions?: SessionGateway;
  /** The tenant this app serves: scopes cursors, requestState, handles and sessions. */
  tenant?: string;
  /**
   * OAuth resource server: every request must carry valid credentials. Build it with
   * `createAuthorizer(parseAuthConfig(...))`; kept out of this module so unauthenticated servers
   * do not bundle the token verifier.
   */
  authorizer?: Authorizer;
  rateLimiter?: RateLimiter;
  /** Revisions served (default: all). */
  revisions?: readonly string[];
  /** One structured JSON log line per request (default false). */
  accessLog?: boolean;
  /** Carries change notifications across isolates; on Workers, the MCP_NOTIFICATIONS hub. */
  relay?: ChangeRelay;
  /** `subscriptions/listen` streams: the slow-listener limit and the heartbeat. */
  listen?: ListenSettings;
  /** Limits on tool calls: a deadline and a result size. */
  limits?: ToolLimits;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The platform's waitUntil for this request, if it has one (hono throws when there is no execution context). */
function waitUntilOf(c: { executionCtx: ExecutionContext }): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}

export const DEFAULT_MAX_JSON_DEPTH = 64;

/** Builds the app once per isolate; its `fetch` answers requests. */
export function createMcpApp(options: McpAppOptions): Hono {
  const path = options.path ?? "/mcp";
  const policy = createHostPolicy(options.allow);
  const post = {
    server: options.server,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    responseMode: options.responseMode ?? "auto",
    debug: options.debug ?? false,
    sealer: createStateSealer({ secret: options.stateSecret }),
    handleStore: options.handleStore,
    sessions: options.sessions,
    tenant: options.tenant,
    authorizer: options.authorizer,
    rateLimiter: options.rateLimiter,
    revisions: options.revisions ? new Set(options.revisions) : undefined,
    accessLog: options.accessLog ?? false,
    relay: options.relay,
    listen: options.listen,
    limits: options.limits,
  };
  const methodNotAllowed = (method: string): Response =>
    errorResponse(
      new ProtocolError(ErrorCode.InvalidRequest, `Method Not Allowed: ${method} ${path} needs a session, and this server is stateless; send JSON-RPC messages with POST`, { status: 405 }),
      undefined,
      { allow: "POST" },
    );

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
  const authorizer = post.authorizer;
  if (authorizer) {
    // RFC 9728 metadata, reachable without a token: the root form and the path-inserted form.
    const metadata = () => new Response(JSON.stringify(authorizer.metadata), { headers: { "content-type": "application/json", "cache-control": "max-age=300" } });
    app.get(METADATA_PATH, guarded(metadata));
    app.get(`${METADATA_PATH}${authorizer.resourcePath}`, guarded(metadata));
  }
  app.post(path, (c): Response | Promise<Response> => {
    const request = c.req.raw;
    const refused = policy.check(request);
    if (refused) return errorResponse(refused);
    const answer = handlePost(request, post, waitUntilOf(c));
    return request.headers.has("origin") ? answer.then((response) => withCors(request, response)) : answer;
  });
  app.options(path, guarded(preflight));
  app.all(
    path,
    guarded((request) => {
      // GET (stream, resume) and DELETE belong to a legacy session when the request names one.
      const sessionId = request.headers.get("mcp-session-id");
      if (options.sessions && sessionId !== null && (request.method === "GET" || request.method === "DELETE")) {
        const sessions = options.sessions;
        const tenant = options.tenant ?? "default";
        if (!authorizer) return sessions.forward(sessionId.trim(), request, undefined, tenant, false);
        // A session is bound to its principal: GET and DELETE must prove the same identity.
        return authorizer.authenticate(request).then(
          (principal) => sessions.forward(sessionId.trim(), request, undefined, `${tenant}:${principal.subject}`, false),
          (error: unknown) => errorResponse(error),
        );
      }
      return methodNotAllowed(request.method);
    }),
  );
  app.notFound(guarded(() => errorResponse(notFound)));
  app.onError((error) => errorResponse(error));
  return app;
}
