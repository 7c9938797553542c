/** `mcp()`: an MCP endpoint as a Hono handler, mounted beside the app's own routes and behind its own middleware. */

import type { Context, Env, MiddlewareHandler } from "hono";
import { cloneRawRequest } from "hono/request";
import { routePath } from "hono/route";
import { DefinitionError } from "../core/definition-error.ts";
import type { Principal } from "../core/principal.ts";
import type { McpServer, ServerOptions } from "../server/server.ts";
import { compiled, makingOf, wiredWorker, type WorkerOptions } from "../workers/create-worker.ts";
import { wiringOf } from "../workers/durable-wiring.ts";
import type { McpWorker } from "../workers/env.ts";
import { contextAuthorizer } from "./context-authorizer.ts";

/** The bindings of a Hono env (`c.env`). */
type BindingsOf<E extends Env> = E["Bindings"] extends object ? E["Bindings"] : object;

/**
 * Options of {@link mcp}: those of `createWorker` (read from `c.env` as a Worker reads its env), and
 * how the app's own auth middleware hands its caller over.
 */
export interface McpHandlerOptions<E extends Env = Env> extends WorkerOptions<BindingsOf<E>> {
  /**
   * The caller the app's own auth middleware signed in (for example from `c.get("user")`), as the
   * principal tools receive; undefined refuses the request with 401. In place of `authorizer`.
   */
  principal?: (c: Context<E>) => Principal | undefined | Promise<Principal | undefined>;
  /** With `principal`: scopes a tool needs, by tool name (`"*"` for every other tool); a caller without them gets 403. */
  toolScopes?: Record<string, string[]>;
}

const FALLBACK_CONTEXT: ExecutionContext = {
  // Outside a Worker (`app.request()` in a test) nothing keeps the isolate alive: the work just runs.
  waitUntil: (promise) => void promise.catch(() => undefined),
  passThroughOnException: () => undefined,
  props: {},
};

// Outside a Worker (`app.request()` without bindings) there is no env: the endpoint reads none.
const NO_BINDINGS: object = Object.freeze({});

/** The Worker context of a request; Hono throws when it has none. */
function executionContextOf(c: Context): ExecutionContext {
  try {
    return c.executionCtx;
  } catch {
    return FALLBACK_CONTEXT;
  }
}

/**
 * An MCP endpoint as a Hono handler: `app.all("/mcp", mcp(server))`. It serves the path of the route
 * it is mounted on (`app.route()` prefixes and `basePath()` included), with the bindings of `c.env`
 * and `c.executionCtx.waitUntil`. The app's middleware runs first (logging, CORS, its own auth);
 * the endpoint's own checks still run on every request (Host/Origin, credentials, rate limits,
 * quotas). A route with parameters or a wildcard serves the endpoint at `path` (default `/mcp`).
 *
 * Given the Worker from `createWorker`, it runs that Worker's server and options (those given
 * here win), so its Durable Object classes are made from the same Worker.
 *
 * @example
 * const app = new Hono();
 * app.get("/", (c) => c.text("home"));
 * app.all("/mcp", mcp({ info: { name: "shop", version: "1.0.0" }, tools: [echo] }));
 * export default app;
 */
export function mcp<E extends Env = Env>(source: McpWorker<never> | McpServer | ServerOptions, options: McpHandlerOptions<E> = {}): MiddlewareHandler<E> {
  const { principal, toolScopes, ...own } = options;
  const made = makingOf(source);
  const workerOptions: WorkerOptions<BindingsOf<E>> = made ? { ...(made.options as WorkerOptions<BindingsOf<E>>), ...own } : own;
  if (principal && workerOptions.authorizer) {
    throw new DefinitionError("mcp(): give principal (the app's middleware signs callers in) or authorizer (edge-mcp verifies tokens), not both");
  }
  if (toolScopes && !principal)
    throw new DefinitionError("mcp(): toolScopes applies to callers from principal; with an authorizer, set toolScopes in its auth config");
  const principals = principal ? new WeakMap<Request, Principal>() : undefined;
  if (principals) workerOptions.authorizer = contextAuthorizer(principals, toolScopes ? { toolScopes } : {});
  // Compiled once for every path it is mounted on (tool services rebuild it per env from its options).
  const server = made?.server ?? (source as McpServer | ServerOptions);
  const served = workerOptions.services ? server : compiled(server);
  const fixedPath = workerOptions.path;
  // One Worker per path the handler is mounted on: route patterns are the app's own, so these are few.
  const workers = new Map<string, McpWorker<BindingsOf<E>>>();
  // The classes made from the Worker hand their gateways to it: every Worker mounted from it shares them.
  const wiring = wiringOf(source) ?? {};
  const workerAt = (path: string): McpWorker<BindingsOf<E>> => {
    let worker = workers.get(path);
    if (worker === undefined) {
      worker = wiredWorker(served, { ...workerOptions, path }, wiring);
      workers.set(path, worker);
    }
    return worker;
  };

  return async (c) => {
    let path = fixedPath;
    if (path === undefined) {
      const route = routePath(c);
      path = /[:*]/.test(route) ? "/mcp" : route;
    }
    // A middleware before this one may have read the body (c.req.json()): hand on a request that still has it.
    const request = c.req.raw.bodyUsed ? await cloneRawRequest(c.req) : c.req.raw;
    if (principals && principal) {
      const caller = await principal(c);
      if (caller !== undefined) principals.set(request, caller);
    }
    const response = await workerAt(path).fetch(
      // With Node's types beside the Workers ones (the tests' tsconfig), Request lacks the incoming `cf` fields.
      request as unknown as Parameters<McpWorker<BindingsOf<E>>["fetch"]>[0],
      c.env ?? NO_BINDINGS,
      executionContextOf(c),
    );
    // As c.json() would: the headers the app's middleware set before next() (c.header()) join the
    // endpoint's, which win; Hono itself adds them to a bare Response only when c.res was read first.
    return c.newResponse(response.body, response);
  };
}
