// A connect link asked for in a 2025-11-25 session: the signed state names the session (object id and id digest,
// never the id), and the callback that completes the connection sends notifications/elicitation/complete with the
// link's elicitation id on that session's GET stream, and to no other session, principal or tenant.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256Hex, toBase64Url } from "../../../../src/core/bytes.ts";
import { createEndpoint } from "../../../../src/http/endpoint.ts";
import { createServer } from "../../../../src/server/server.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { SessionEngine } from "../../../../src/session/session-engine.ts";
import { createMemorySessionStorage } from "../../../../src/session/session-record.ts";
import type { AccountProvider } from "../../../../src/workers/accounts/account-provider.ts";
import { connectedAccounts } from "../../../../src/workers/accounts/connected-accounts.ts";
import { openConnectState, sessionReference, signConnectState, type ConnectState } from "../../../../src/workers/accounts/connect-state.ts";
import { AccountKeys } from "../../../../src/workers/accounts/account-keys.ts";
import { admission, principal } from "../../../admission.ts";
import { cookieHeaderOf, memoryNamespace } from "./memory-namespace.ts";

const KEY = "k".repeat(43);
const BASE = "https://mcp.test";
const FIXTURE: AccountProvider<Env> = {
  authorizationEndpoint: "https://provider.test/authorize",
  tokenEndpoint: "https://provider.test/token",
  clientId: "client",
};
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
const ADA = admission("acme", principal("ada"));
const BOB = admission("acme", principal("bob"));
const ADA_SESSION = "a0a0a0.ada-secret-0123456789";
const BOB_SESSION = "b0b0b0.bob-secret-0123456789";

interface Env {
  MCP_ACCOUNTS_KEY: string;
  MCP_ACCOUNTS: unknown;
  MCP_SESSIONS?: unknown;
}

const whoami = defineTool({
  name: "whoami_upstream",
  description: "Acts for the user at the fixture provider.",
  inputSchema: { type: "object" },
  handler: async (_args, ctx) => `token of ${(await ctx.accounts!.token("fixture")).length} characters`,
});

async function setup({ sessions = true } = {}) {
  const accounts = connectedAccounts<Env>({ providers: { fixture: FIXTURE }, baseUrl: BASE });
  const server = createServer({ info: { name: "t", version: "1" }, tools: [whoami], features: [accounts.feature] });
  // The sessions namespace: object id → engine, as MCP_SESSIONS reaches McpSessionObject.notify over RPC.
  const engines = new Map<string, SessionEngine>();
  const namespace = {
    idFromString: (id: string) => id,
    get: (id: string) => ({
      notify: (idHash: string, caller: string, message: never) => engines.get(id)?.notify(idHash, caller, message) ?? Promise.resolve(false),
    }),
  };
  const env: Env = { MCP_ACCOUNTS_KEY: KEY, MCP_ACCOUNTS: memoryNamespace(KEY), ...(sessions ? { MCP_SESSIONS: namespace } : {}) };
  const endpoint = createEndpoint({ server, tenant: "acme", env });
  const routes = accounts.routes({ fetch: () => new Response("the MCP Worker") });
  const get = (path: string, init?: RequestInit) => routes.fetch(new Request(`${BASE}${path}`, init), env, {} as ExecutionContext);

  /** Opens a session of `who` at the object `sessionId` names, with its GET stream. */
  async function session(sessionId: string, who = ADA) {
    const engine = new SessionEngine({ endpointFor: async () => endpoint, storage: createMemorySessionStorage() });
    engines.set(sessionId.split(".")[0] ?? "", engine);
    const post = (body: unknown) =>
      engine.handle(new Request(`${BASE}/mcp`, { method: "POST", headers: HEADERS, body: JSON.stringify(body) }), { sessionId, admission: who });
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { url: {} } }, clientInfo: { name: "c", version: "1" } },
    };
    const opened = await engine.handle(new Request(`${BASE}/mcp`, { method: "POST", headers: HEADERS, body: JSON.stringify(init) }), {
      sessionId,
      admission: who,
      opening: { idHash: await sha256Hex(sessionId), leaseExpiresAt: undefined },
    });
    expect(opened.status).toBe(200);
    const stream = await engine.handle(new Request(`${BASE}/mcp`, { method: "GET", headers: HEADERS }), { sessionId, admission: who });
    // Read in the background: a read raced against a timer would swallow the chunk it later gets.
    let events = "";
    void stream.body?.pipeThrough(new TextDecoderStream()).pipeTo(new WritableStream({ write: (chunk) => void (events += chunk) }));
    return {
      engine,
      /** tools/call whoami_upstream: the JSON-RPC answer. */
      async call(
        id = 2,
      ): Promise<{ result?: { content: { text: string }[] }; error?: { code: number; data: { elicitations: { elicitationId: string; url: string }[] } } }> {
        return (await post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "whoami_upstream", arguments: {} } })).json();
      },
      /** What the GET stream carried, read for `ms`. */
      async events(ms = 50): Promise<string> {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return events;
      },
    };
  }

  /** Confirms the link in a browser and completes the provider's callback: the callback's response. */
  async function complete(state: string): Promise<Response> {
    const confirmed = await get("/accounts/connect", { method: "POST", headers: { origin: BASE }, body: new URLSearchParams({ state }) });
    expect(confirmed.status).toBe(303);
    vi.stubGlobal("fetch", async () => Response.json({ access_token: "upstream-access", refresh_token: "upstream-refresh", expires_in: 3600 }));
    return get(`/accounts/callback?state=${encodeURIComponent(state)}&code=good`, { headers: { cookie: cookieHeaderOf(confirmed) } });
  }

  return { env, get, session, complete, keys: () => AccountKeys.from(KEY, "MCP_ACCOUNTS_KEY") };
}

const stateOf = (url: string): string => new URL(url).searchParams.get("state") ?? "";
const completion = (elicitationId: string) =>
  `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId } })}`;

afterEach(() => vi.unstubAllGlobals());

describe("notifications/elicitation/complete for a connect link asked for in a 2025-11-25 session", () => {
  it("names the session in the signed state by object id and id digest, never by the id", async () => {
    const { session, keys } = await setup();
    const ada = await session(ADA_SESSION);
    const answer = await ada.call();
    expect(answer.error?.code).toBe(-32042);
    const url = answer.error?.data.elicitations[0]?.url ?? "";
    expect(url).not.toContain("ada-secret");
    const opened = (await openConnectState(await keys(), stateOf(url))) as ConnectState;
    expect(opened.session).toBe(`a0a0a0.${await sha256Hex(ADA_SESSION)}`);
    expect(opened.session).toBe(await sessionReference(ADA_SESSION));
    expect(opened.nonce).toBe(answer.error?.data.elicitations[0]?.elicitationId);
  });

  it("sends the completion with the same elicitation id on the session's GET stream once connected; the retry runs", async () => {
    const { session, complete } = await setup();
    const ada = await session(ADA_SESSION);
    const answer = await ada.call();
    const elicitation = answer.error?.data.elicitations[0] ?? { elicitationId: "", url: "" };
    expect(await ada.events()).not.toContain("elicitation/complete");
    const callback = await complete(stateOf(elicitation.url));
    expect(callback.status).toBe(200);
    expect(await ada.events()).toContain(completion(elicitation.elicitationId));
    const retried = await ada.call(3);
    expect(retried.result?.content[0]?.text).toBe(`token of ${"upstream-access".length} characters`);
  });

  it("sends nothing to a session of another principal, even at the object the link names", async () => {
    const { session, complete } = await setup();
    const ada = await session(ADA_SESSION);
    const elicitation = (await ada.call()).error?.data.elicitations[0] ?? { elicitationId: "", url: "" };
    // Bob's session now answers at the object id ada's link names: its record's caller and id digest are not the link's.
    const bob = await session(`a0a0a0.${BOB_SESSION.split(".")[1]}`, BOB);
    expect((await complete(stateOf(elicitation.url))).status).toBe(200);
    expect(await bob.events()).not.toContain("elicitation/complete");
  });

  it("refuses a state whose session was changed, or signed with another key: nothing is linked, nothing is sent", async () => {
    const { session, get, keys } = await setup();
    const ada = await session(ADA_SESSION);
    const bob = await session(BOB_SESSION, BOB);
    const state = stateOf((await ada.call()).error?.data.elicitations[0]?.url ?? "");
    const opened = (await openConnectState(await keys(), state)) as ConnectState;
    const [, signature] = state.split(".");
    const moved = { ...opened, session: await sessionReference(BOB_SESSION) };
    const fields = [1, moved.tenant, moved.issuer, moved.subject, moved.provider, moved.nonce, moved.expiresAt, moved.session];
    const tampered = `${toBase64Url(new TextEncoder().encode(JSON.stringify(fields)))}.${signature}`;
    const otherKey = await signConnectState(await AccountKeys.from("o".repeat(43), "MCP_ACCOUNTS_KEY"), moved);
    for (const forged of [tampered, otherKey]) {
      const response = await get(`/accounts/callback?state=${encodeURIComponent(forged)}&code=good`);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("This connect link is not valid");
    }
    expect(await bob.events()).not.toContain("elicitation/complete");
    expect(await ada.events()).not.toContain("elicitation/complete");
  });

  it("refuses a state whose session is not a session reference", async () => {
    const { keys } = await setup();
    for (const session of ["ada-secret", "a0a0a0.short", `A0.${"0".repeat(64)}`, `a0a0a0.${"0".repeat(64)}.x`]) {
      const state = await signConnectState(await keys(), {
        tenant: "acme",
        issuer: "i",
        subject: "ada",
        provider: "fixture",
        nonce: "n",
        expiresAt: Date.now() + 60_000,
        session,
      });
      expect(await openConnectState(await keys(), state), session).toBe("malformed");
    }
    expect(await sessionReference("no-dot")).toBeUndefined();
    expect(await sessionReference("NOT-HEX.secret")).toBeUndefined();
  });

  it("completes the connection after the session ended, or without a sessions binding, sending nothing", async () => {
    for (const sessions of [true, false]) {
      const { session, complete } = await setup({ sessions });
      const ada = await session(ADA_SESSION);
      const elicitation = (await ada.call()).error?.data.elicitations[0] ?? { elicitationId: "", url: "" };
      if (sessions) await ada.engine.handle(new Request(`${BASE}/mcp`, { method: "DELETE", headers: HEADERS }), { sessionId: ADA_SESSION, admission: ADA });
      const callback = await complete(stateOf(elicitation.url));
      expect(callback.status).toBe(200);
      expect(await callback.text()).toContain("Connected fixture for ada");
      expect(await ada.events()).not.toContain("elicitation/complete");
    }
  });
});
