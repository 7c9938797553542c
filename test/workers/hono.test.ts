// edge-mcp/hono: the endpoint mounted in a Hono app, at the route's path, behind the app's own middleware.
import { Hono } from "hono";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { describe, expect, it } from "vitest";
import { createServer, defineTool, type Authorizer, type Principal } from "../../src/index.ts";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { mcp } from "../../src/hono/index.ts";
import { createWorker } from "../../src/workers/index.ts";

const whoami = defineTool({
  name: "whoami",
  description: "Says who is calling.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, ctx) => ctx.principal?.subject ?? "anonymous",
});
const count = defineTool({
  name: "count",
  description: "Reports progress, then answers.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: async (_args, ctx) => {
    ctx.progress(1, 2, "halfway");
    await new Promise((resolve) => setTimeout(resolve, 10));
    return "counted";
  },
});
const server = createServer({ info: { name: "hono-test", version: "1.0.0" }, tools: [whoami] });

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
const CALL = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } };

/** Any Hono app (its env types do not matter to a request). */
interface App {
  request(url: string, init?: RequestInit): Response | Promise<Response>;
}

function post(app: App, path: string, body: object = LIST, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    app.request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...headers },
      body: JSON.stringify(body),
    }),
  );
}

async function toolNames(response: Response): Promise<string[]> {
  const body = await response.json<{ result: { tools: { name: string }[] } }>();
  return body.result.tools.map((tool) => tool.name);
}

async function callText(response: Response): Promise<string | undefined> {
  const body = await response.json<{ result?: { content: { text: string }[] } }>();
  return body.result?.content[0]?.text;
}

type Users = { Variables: { user?: string } };

describe("mcp() in a Hono app", () => {
  it("serves the endpoint on its route beside the app's other routes, which answer as before", async () => {
    const app = new Hono();
    app.get("/", (c) => c.text("home"));
    app.all("/mcp", mcp(server));
    expect(await toolNames(await post(app, "/mcp"))).toEqual(["whoami"]);
    expect(await (await app.request("http://localhost/")).text()).toBe("home");
    expect((await post(app, "/other")).status).toBe(404);
  });

  it("serves the path of the route under app.route() and basePath(), and leaves other paths to the app", async () => {
    const api = new Hono();
    api.all("/mcp", mcp(server));
    const app = new Hono().basePath("/v1");
    app.route("/api", api);
    expect(await toolNames(await post(app, "/v1/api/mcp"))).toEqual(["whoami"]);
    expect((await post(app, "/mcp")).status).toBe(404);
    expect((await post(app, "/v1/mcp")).status).toBe(404);
  });

  it("serves one handler on two routes, each at its own path", async () => {
    const handler = mcp(server);
    const app = new Hono();
    app.all("/a/mcp", handler);
    app.all("/b/mcp", handler);
    expect(await toolNames(await post(app, "/a/mcp"))).toEqual(["whoami"]);
    expect(await toolNames(await post(app, "/b/mcp"))).toEqual(["whoami"]);
  });

  it("serves `path` on a wildcard route, and answers the endpoint's JSON 404 elsewhere", async () => {
    const app = new Hono();
    app.all("/rpc/*", mcp(server, { path: "/rpc/mcp" }));
    expect(await toolNames(await post(app, "/rpc/mcp"))).toEqual(["whoami"]);
    const other = await post(app, "/rpc/else");
    expect(other.status).toBe(404);
    expect((await other.json<{ error: { message: string } }>()).error.message).toContain("/rpc/mcp");
  });

  it("runs the app's middleware around MCP requests: headers set before and after next() reach the answer, a body read first is still there", async () => {
    const app = new Hono<{ Variables: { method: string } }>();
    app.use("/mcp", async (c, next) => {
      const body = await c.req.json<{ method: string }>();
      c.set("method", body.method);
      await next();
      c.header("x-rpc-method", c.get("method"));
    });
    app.use("/mcp", requestId());
    app.all("/mcp", mcp(server));
    const response = await post(app, "/mcp");
    expect(response.headers.get("x-rpc-method")).toBe("tools/list");
    expect(response.headers.get("x-request-id")).toMatch(/\S/);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await toolNames(response)).toEqual(["whoami"]);
  });

  it("streams an SSE answer through the app's middleware", async () => {
    const app = new Hono();
    app.use("/mcp", requestId());
    app.all("/mcp", mcp({ info: { name: "sse", version: "1.0.0" }, tools: [count] }));
    const response = await post(app, "/mcp", {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "count", arguments: {}, _meta: { progressToken: "p" } },
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("x-request-id")).toMatch(/\S/);
    const text = await response.text();
    expect(text).toContain("notifications/progress");
    expect(text).toContain("counted");
  });

  it("keeps the endpoint's Host/Origin check behind hono's cors(): a foreign Origin gets 403 though cors() allows every origin", async () => {
    const app = new Hono();
    app.use("/mcp", cors());
    app.all("/mcp", mcp(server));
    const preflight = await app.request("http://localhost/mcp", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    expect((await post(app, "/mcp", LIST, { origin: "https://evil.example" })).status).toBe(403);
    const local = await post(app, "/mcp", LIST, { origin: "http://localhost:5173" });
    expect(local.status).toBe(200);
    expect(local.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("hands the principal from the app's auth middleware to tools, and refuses a request it did not sign in with 401", async () => {
    const app = new Hono<Users>();
    app.use("/mcp", async (c, next) => {
      const user = c.req.header("x-user");
      if (user !== undefined) c.set("user", user);
      await next();
    });
    const principal = (user: string): Principal => ({ issuer: "https://app.example", subject: user, scopes: user === "ada" ? ["admin"] : [], via: "jwt" });
    app.all("/mcp", mcp<Users>(server, { principal: (c) => (c.var.user === undefined ? undefined : principal(c.var.user)) }));
    expect(await callText(await post(app, "/mcp", CALL, { "x-user": "ada" }))).toBe("ada");
    expect((await post(app, "/mcp", CALL)).status).toBe(401);

    const scoped = new Hono<Users>();
    scoped.use("/mcp", async (c, next) => {
      c.set("user", c.req.header("x-user") ?? "nobody");
      await next();
    });
    scoped.all("/mcp", mcp<Users>(server, { principal: (c) => principal(c.var.user ?? "nobody"), toolScopes: { whoami: ["admin"] } }));
    expect(await callText(await post(scoped, "/mcp", CALL, { "x-user": "ada" }))).toBe("ada");
    expect((await post(scoped, "/mcp", CALL, { "x-user": "bob" })).status).toBe(403);
    expect(await toolNames(await post(scoped, "/mcp", LIST, { "x-user": "bob" }))).toEqual([]);
  });

  it("runs a Worker from createWorker with its own options, those given to mcp() winning", async () => {
    const worker = createWorker(server, { revisions: ["2026-07-28"] });
    const app = new Hono();
    app.all("/mcp", mcp(worker));
    expect((await post(app, "/mcp")).status).toBe(400);
    const opened = new Hono();
    opened.all("/mcp", mcp(worker, { revisions: ["2025-11-25", "2026-07-28"] }));
    expect(await toolNames(await post(opened, "/mcp"))).toEqual(["whoami"]);
  });

  it("serves the OAuth metadata of an authorizer on the well-known route the app mounts it on", async () => {
    const authorizer = {
      authenticate: () => Promise.resolve(undefined),
      unauthorized: () => new Error("unreachable"),
      authorizeTool: () => undefined,
      metadata: { resource: "http://localhost/mcp" },
      metadataJson: () => JSON.stringify({ resource: "http://localhost/mcp" }),
      resourcePath: "/mcp",
    } as unknown as Authorizer;
    const handler = mcp(server, { authorizer });
    const app = new Hono();
    app.all("/mcp", handler);
    app.get("/.well-known/oauth-protected-resource/*", handler);
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const metadata = await app.request(`http://localhost${path}`);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toEqual({ resource: "http://localhost/mcp" });
    }
  });

  it("refuses at startup a principal beside an authorizer, and toolScopes without a principal", () => {
    const authorizer = { authenticate: () => Promise.resolve(undefined) } as never;
    expect(() => mcp(server, { principal: () => undefined, authorizer })).toThrow(DefinitionError);
    expect(() => mcp(server, { toolScopes: { whoami: ["admin"] } })).toThrow(DefinitionError);
  });
});
