// A code-mode program's inner call of a tool that reads ctx.accounts: the token stays on the server side,
// an unconnected account makes the execute call ask for the connect URL, and principals stay apart.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ErrorCode, ProtocolError } from "../../../../src/core/errors.ts";
import type { Authorizer } from "../../../../src/http/admission/authorizer.ts";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import { codeMode } from "../../../../src/server/code-mode/code-mode-feature.ts";
import type { SandboxRun, SandboxRunner } from "../../../../src/server/code-mode/sandbox.ts";
import { createServer } from "../../../../src/server/server.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { connectedAccounts } from "../../../../src/workers/accounts/connected-accounts.ts";
import { MODERN_META, request } from "../../app-client.ts";
import { cookieHeaderOf, memoryNamespace } from "./memory-namespace.ts";

const KEY = "k".repeat(43);
const BASE = "https://mcp.test";
const TOKENS: Record<string, string> = { ada: "ada-upstream-token-7f3a", bob: "bob-upstream-token-9c1e" };

/**
 * Runs the guarded program in this process: the module's default export becomes a function, and
 * `tools.<name>` goes through the run's `callTool` only (as the Dynamic Worker's RPC stub does).
 */
const nodeRunner: SandboxRunner = {
  async run(run: SandboxRun) {
    const body = run.program.replace("export default async function", "return async function");
    // A test runner in Node: the program is the test's own, and the guard is still in it.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call
    const program = new Function(body)() as (tools: unknown) => Promise<unknown>;
    const tools = new Proxy(
      {},
      {
        get: (_target, name) => async (args: unknown) => {
          const answer = await run.callTool(String(name), args);
          if (answer.ok) return answer.value;
          throw Object.assign(new Error(answer.message), { name: "ToolError", code: answer.code });
        },
      },
    );
    try {
      const value = await program(tools);
      return { ok: true, json: value === undefined ? undefined : JSON.stringify(value), console: "", consoleCut: false };
    } catch (error) {
      const failure = error as Error;
      return { ok: false, name: failure.name, message: failure.message, stack: failure.stack ?? "", console: "", consoleCut: false };
    }
  },
};

/** The user's identity at the upstream: the fixture API answers only with a valid upstream token. */
const whoamiUpstream = defineTool({
  name: "whoami_upstream",
  description: "Says who the user is at the fixture provider.",
  inputSchema: { type: "object" },
  handler: async (_args, ctx) => {
    const token = await ctx.accounts!.token("fixture");
    const response = await fetch("https://api.fixture.test/me", { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) return { isError: true, content: [{ type: "text", text: `the fixture API answered ${response.status}` }] };
    const { login } = await response.json<{ login: string }>();
    return { content: [{ type: "text", text: login }], structuredContent: { login } };
  },
});

const authorizer: Authorizer = {
  metadata: {},
  metadataJson: () => "{}",
  resourcePath: "/mcp",
  authenticate: async (incoming) => ({
    issuer: "https://issuer.test/",
    subject: incoming.headers.get("x-user") ?? "nobody",
    scopes: [],
    via: "api-key" as const,
  }),
  authorizeTool: () => {},
  unauthorized: () => new ProtocolError(ErrorCode.InvalidRequest, "Unauthorized", { status: 401 }),
};

function setup() {
  const accounts = connectedAccounts<Record<string, unknown>>({
    providers: {
      fixture: { title: "Fixture", authorizationEndpoint: "https://provider.test/authorize", tokenEndpoint: "https://provider.test/token", clientId: "c" },
    },
    baseUrl: BASE,
  });
  const env = { MCP_ACCOUNTS_KEY: KEY, MCP_ACCOUNTS: memoryNamespace(KEY) };
  const server = createServer({ info: { name: "t", version: "1" }, tools: [whoamiUpstream], features: [accounts.feature, codeMode({ runner: nodeRunner })] });
  const app = createMcpApp({ server, authorizer, env, stateSecret: "s" });
  const routes = accounts.routes({ fetch: () => new Response("mcp") });
  return { app, routes, env };
}

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: { elicitations: { url: string; mode: string }[] } } };

async function execute(app: ReturnType<typeof setup>["app"], user: string, code: string, modern = false): Promise<Answer> {
  const params: Record<string, unknown> = { name: "execute", arguments: { code } };
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "x-user": user };
  if (modern) {
    params["_meta"] = { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } } };
    Object.assign(headers, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "execute" });
  } else headers["mcp-protocol-version"] = "2025-11-25";
  const response = await request(app, "http://localhost/mcp", {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params }),
  });
  return response.json<Answer>();
}

/** Follows a connect URL as the user's browser: the confirmation, then the provider's callback with a code for `user`. */
async function connect({ routes, env }: ReturnType<typeof setup>, url: string, user: string): Promise<void> {
  const state = new URL(url).searchParams.get("state") ?? "";
  const ctx = {} as ExecutionContext;
  const confirmed = await routes.fetch(
    new Request(`${BASE}/accounts/connect`, { method: "POST", headers: { origin: BASE }, body: new URLSearchParams({ state }) }),
    env,
    ctx,
  );
  const callback = new Request(`${BASE}/accounts/callback?state=${encodeURIComponent(state)}&code=${user}`, { headers: { cookie: cookieHeaderOf(confirmed) } });
  expect((await routes.fetch(callback, env, ctx)).status).toBe(200);
}

/** What the program returned: the text of the execute result. */
function returned(answer: Answer): string {
  return (answer.result?.["content"] as { text: string }[] | undefined)?.[0]?.text ?? "";
}

const WHOAMI = "const me = await tools.whoami_upstream({});\nreturn me;";

beforeEach(() => {
  // The provider's token endpoint (the code names the user) and the fixture API (answers only a valid token).
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url === "https://provider.test/token") {
      const code = new URLSearchParams(init?.body as string).get("code") ?? "";
      return Response.json({ access_token: TOKENS[code], expires_in: 3600 });
    }
    const token = new Headers(init?.headers).get("authorization")?.slice("Bearer ".length);
    const login = Object.keys(TOKENS).find((user) => TOKENS[user] === token);
    return login === undefined ? new Response("no", { status: 401 }) : Response.json({ login });
  });
});
afterEach(() => vi.unstubAllGlobals());

describe("code mode with connected accounts", () => {
  it("answers an execute whose inner call needs an unconnected account with -32042 and the URL; the connected retry gets only what the tool returns", async () => {
    const test = setup();
    const asked = await execute(test.app, "ada", WHOAMI);
    expect(asked.error?.code).toBe(-32042);
    const url = asked.error?.data?.elicitations[0]?.url ?? "";
    expect(url.startsWith(`${BASE}/accounts/connect?state=`)).toBe(true);
    expect(asked.error?.message).not.toContain("state=");
    await connect(test, url, "ada");
    const done = await execute(test.app, "ada", WHOAMI);
    expect(done.result?.["isError"]).toBeFalsy();
    expect(JSON.parse(returned(done))).toEqual({ login: "ada" });
    expect(JSON.stringify(done.result)).not.toContain(TOKENS["ada"]);
  });

  it("gives a program that catches the refusal a plain message and the code, never the URL or a token", async () => {
    const test = setup();
    const caught = await execute(test.app, "ada", "try { await tools.whoami_upstream({}); } catch (e) { return { message: e.message, code: e.code }; }");
    const text = JSON.stringify(caught.result);
    expect(text).toContain("whoami_upstream needs the user to connect an account first");
    expect(text).toContain("-32042");
    expect(text).not.toContain("state=");
    expect(text).not.toContain("/accounts/connect");
  });

  it("never gives principal B's program principal A's account: bob is asked to connect, then gets his own", async () => {
    const test = setup();
    const first = await execute(test.app, "ada", WHOAMI);
    await connect(test, first.error?.data?.elicitations[0]?.url ?? "", "ada");
    const bob = await execute(test.app, "bob", WHOAMI);
    expect(bob.error?.code).toBe(-32042);
    const bobUrl = bob.error?.data?.elicitations[0]?.url ?? "";
    // bob's link is bob's: following it links bob's account, and ada's stays hers.
    await connect(test, bobUrl, "bob");
    expect(JSON.parse(returned(await execute(test.app, "bob", WHOAMI)))).toEqual({ login: "bob" });
    expect(JSON.parse(returned(await execute(test.app, "ada", WHOAMI)))).toEqual({ login: "ada" });
  });

  it("ends a 2026-07-28 execute with input_required holding the URL request", async () => {
    const test = setup();
    const asked = await execute(test.app, "ada", WHOAMI, true);
    expect(asked.result?.["resultType"]).toBe("input_required");
    expect(JSON.stringify(asked.result?.["inputRequests"])).toContain('"mode":"url"');
  });

  it("keeps an ordinary tool error an isError result: only a URL request is passed on", async () => {
    const test = setup();
    const failed = await execute(test.app, "ada", "throw new Error('plain');");
    expect(failed.error).toBeUndefined();
    expect(failed.result?.["isError"]).toBe(true);
  });
});
