// Providers from a tenant's config, as ctx.accounts reads them: each tenant its own, the code's first, a broken section named.
import { describe, expect, it } from "vitest";
import type { FeatureHost } from "../../../../src/server/feature.ts";
import type { TransportContext } from "../../../../src/server/context/transport.ts";
import { connectedAccounts, type HandlerAccounts } from "../../../../src/workers/accounts/connected-accounts.ts";
import type { TenantLookup } from "../../../../src/tenancy/tenant-lookup.ts";
import type { KeyedTenantStore } from "../../../../src/workers/keyed-tenant-store.ts";
import { admission, principal } from "../../../admission.ts";
import { transportContext } from "../../context.ts";
import { memoryNamespace } from "./memory-namespace.ts";

const KEY = "k".repeat(43);
const corp = { title: "Corp", authorizationEndpoint: "https://login.corp.test/authorize", tokenEndpoint: "https://login.corp.test/token", clientId: "mcp" };
const SECTIONS: Record<string, Record<string, unknown> | undefined> = {
  // As JSON.parse makes it: "__proto__" an own key.
  acme: JSON.parse(`{"providers": {"corp": ${JSON.stringify(corp)}, "__proto__": ${JSON.stringify(corp)}}}`) as Record<string, unknown>,
  globex: undefined,
  broken: { providers: { corp: { ...corp, clientId: "" } } },
};

function setup() {
  const accounts = connectedAccounts<Record<string, unknown>>({
    baseUrl: "https://mcp.test",
    providers: (tenant) => (tenant === "initech" ? { code: corp } : undefined),
  });
  const secretsRead: string[] = [];
  // The Worker's tenants (a lookup by id) and its keyed store's secrets, as createMultiTenantWorker hands them over.
  const lookup = {
    byId: async (id: string) => (Object.hasOwn(SECTIONS, id) ? { tenants: [{ id, accounts: SECTIONS[id] }] } : undefined),
  } as unknown as TenantLookup;
  const store = { secret: (_env: unknown, _tenant: string, name: string) => async () => (secretsRead.push(name), "s") } as unknown as KeyedTenantStore;
  accounts.useTenants(async () => lookup, store);
  const env = { MCP_ACCOUNTS_KEY: KEY, MCP_ACCOUNTS: memoryNamespace(KEY) };
  const member = accounts.feature.install({} as FeatureHost).context?.["accounts"] as (transport: TransportContext) => HandlerAccounts;
  const base = transportContext();
  const ctx = (tenant: string) =>
    member(
      transportContext({ endpoint: { ...base.endpoint, env }, admission: admission(tenant, principal("ada")), era: "legacy", protocolVersion: "2025-11-25" }),
    );
  return { ctx, secretsRead };
}

describe("providers from a tenant's config", () => {
  it("gives a tenant its own providers and no other tenant's", async () => {
    const { ctx } = setup();
    await expect(ctx("acme").token("corp")).rejects.toMatchObject({ code: -32042 });
    await expect(ctx("globex").token("corp")).rejects.toThrow('no connected account provider "corp" is declared for this tenant');
    await expect(ctx("nobody").token("corp")).rejects.toThrow("no connected account provider");
    // The code's providers of another tenant are not acme's; a name like __proto__ is a provider name, never the prototype.
    await expect(ctx("acme").token("code")).rejects.toThrow("no connected account provider");
    await expect(ctx("initech").token("code")).rejects.toMatchObject({ code: -32042 });
    await expect(ctx("acme").token("__proto__")).rejects.toMatchObject({ code: -32042 });
    await expect(ctx("acme").token("constructor")).rejects.toThrow("no connected account provider");
  });

  it("fails a call of a tenant whose section does not parse, naming the tenant and field", async () => {
    const { ctx } = setup();
    await expect(ctx("broken").token("corp")).rejects.toThrow("tenant broken: accounts.providers.corp.clientId must be a string of 1 to 256 characters");
  });
});
