import { afterEach, describe, expect, it, vi } from "vitest";
import { ProtocolError } from "../../../../src/core/errors.ts";
import { ToolError } from "../../../../src/core/tool-error.ts";
import type { FeatureHost } from "../../../../src/server/feature.ts";
import type { TransportContext } from "../../../../src/server/context/transport.ts";
import { InputRequired } from "../../../../src/server/inputs/input.ts";
import { connectedAccounts, type HandlerAccounts } from "../../../../src/workers/accounts/connected-accounts.ts";
import { admission, principal } from "../../../admission.ts";
import { transportContext } from "../../context.ts";
import { cookieHeaderOf, memoryNamespace } from "./memory-namespace.ts";

const KEY = "k".repeat(43);
const BASE = "https://mcp.test";

function setup() {
  const accounts = connectedAccounts<Record<string, unknown>>({
    providers: (tenant) =>
      tenant === "acme"
        ? {
            fixture: {
              title: "Fixture",
              authorizationEndpoint: "https://provider.test/authorize",
              tokenEndpoint: "https://provider.test/token",
              clientId: "c",
            },
          }
        : undefined,
    baseUrl: BASE,
  });
  const env = { MCP_ACCOUNTS_KEY: KEY, MCP_ACCOUNTS: memoryNamespace(KEY) };
  const member = accounts.feature.install({} as FeatureHost).context?.["accounts"] as (transport: TransportContext) => HandlerAccounts;
  const base = transportContext();
  const ctx = (tenant: string, who: ReturnType<typeof principal> | undefined, overrides: Partial<TransportContext> = {}) =>
    member(transportContext({ endpoint: { ...base.endpoint, env }, admission: admission(tenant, who), ...overrides }));
  return { ctx, accounts, env };
}

const legacy: Partial<TransportContext> = { era: "legacy", protocolVersion: "2025-11-25" };

afterEach(() => vi.unstubAllGlobals());

describe("ctx.accounts", () => {
  it("answers a 2025-11-25 call of an unconnected user with -32042 and the connect URL in data.elicitations, not in the message", async () => {
    const { ctx } = setup();
    const error = await ctx("acme", principal("ada"), legacy)
      .token("fixture")
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProtocolError);
    const protocol = error as ProtocolError;
    expect(protocol.code).toBe(-32042);
    const [elicitation] = (protocol.data as { elicitations: { mode: string; url: string; elicitationId: string; message: string }[] }).elicitations;
    expect(elicitation?.mode).toBe("url");
    expect(elicitation?.url.startsWith(`${BASE}/accounts/connect?state=`)).toBe(true);
    expect(elicitation?.elicitationId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(protocol.message).not.toContain("state=");
  });

  it("answers a 2026-07-28 call with a URL request in input_required, and -32021 to a client without URL elicitation", async () => {
    const { ctx } = setup();
    const asked = await ctx("acme", principal("ada"), { clientCapabilities: { elicitation: { url: {} } } })
      .token("fixture")
      .catch((thrown: unknown) => thrown);
    expect(asked).toBeInstanceOf(InputRequired);
    expect((asked as InputRequired).requests["connect_fixture"]).toMatchObject({ method: "elicitation/create", params: { mode: "url" } });
    const refused = await ctx("acme", principal("ada"), { clientCapabilities: { elicitation: {} } })
      .token("fixture")
      .catch((thrown: unknown) => thrown);
    expect((refused as ProtocolError).code).toBe(-32021);
  });

  it("refuses an anonymous caller and a provider the tenant does not declare (tenant B never sees tenant A's providers)", async () => {
    const { ctx } = setup();
    await expect(ctx("acme", undefined, legacy).token("fixture")).rejects.toBeInstanceOf(ToolError);
    await expect(ctx("globex", principal("ada"), legacy).token("fixture")).rejects.toThrow(/no connected account provider "fixture"/);
    await expect(ctx("acme", principal("ada"), legacy).token("__proto__")).rejects.toThrow(/no connected account provider/);
  });

  it("gives each principal its own account: after ada connects, ada gets her token and bob is still asked to connect", async () => {
    const { ctx, accounts, env } = setup();
    const error = (await ctx("acme", principal("ada"), legacy)
      .token("fixture")
      .catch((thrown: unknown) => thrown)) as ProtocolError;
    const url = (error.data as { elicitations: { url: string }[] }).elicitations[0]?.url ?? "";
    const state = new URL(url).searchParams.get("state") ?? "";
    vi.stubGlobal("fetch", async () => Response.json({ access_token: "ada-upstream-token", expires_in: 3600 }));
    const routes = accounts.routes({ fetch: () => new Response("mcp") });
    const confirmed = await routes.fetch(
      new Request(`${BASE}/accounts/connect`, { method: "POST", headers: { origin: BASE }, body: new URLSearchParams({ state }) }),
      env,
      {} as ExecutionContext,
    );
    const cookie = cookieHeaderOf(confirmed);
    const callback = new Request(`${BASE}/accounts/callback?state=${encodeURIComponent(state)}&code=c`, { headers: { cookie } });
    expect((await routes.fetch(callback, env, {} as ExecutionContext)).status).toBe(200);
    expect(await ctx("acme", principal("ada"), legacy).token("fixture")).toBe("ada-upstream-token");
    await expect(ctx("acme", principal("bob"), legacy).token("fixture")).rejects.toMatchObject({ code: -32042 });
    // Token exchange goes through the same account: ada's works, bob is asked to connect.
    expect(await ctx("acme", principal("ada"), legacy).exchange("fixture", { audience: "https://api.test" })).toBe("ada-upstream-token");
    await expect(ctx("acme", principal("bob"), legacy).exchange("fixture", { audience: "https://api.test" })).rejects.toMatchObject({ code: -32042 });
    // The admin view: ada's account, no token; disconnecting it makes her connect again.
    const admin = accounts.admin(env);
    const ada = { tenant: "acme", issuer: principal("ada").issuer, subject: "ada" };
    expect(await admin.list(ada)).toEqual([{ provider: "fixture", status: "connected", connectedAt: expect.any(Number) as number }]);
    expect(JSON.stringify(await admin.list(ada))).not.toContain("ada-upstream-token");
    expect(await admin.list({ ...ada, subject: "bob" })).toEqual([]);
    expect(await admin.disconnect(ada, "fixture")).toBe(true);
    await expect(ctx("acme", principal("ada"), legacy).token("fixture")).rejects.toMatchObject({ code: -32042 });
    // The same subject from another issuer, or in another tenant's object, is another principal.
    await expect(ctx("acme", principal("ada", [], "https://other-issuer.test/"), legacy).token("fixture")).rejects.toMatchObject({ code: -32042 });
  });
});
