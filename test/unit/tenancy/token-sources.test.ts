// A tenant naming issuer templates, introspection or an authorization server: served only when the Worker opts in
// (tokenSources()), and set aside with its own problem when a setting is wrong, at load, before any request.
import { describe, expect, it } from "vitest";
import { defineModule, defineTool } from "../../../src/index.ts";
import { checkTokenSourceConfig } from "../../../src/auth/tokens/token-sources.ts";
import { parseTenantsDocument } from "../../../src/tenancy/tenant-config.ts";
import { TenantDirectory } from "../../../src/tenancy/tenant-directory.ts";

const resource = "https://mcp.example.com/mcp";
const introspection = {
  endpoint: "https://login.example.com/introspect",
  clientId: "mcp",
  clientSecretBinding: "INTROSPECTION_SECRET",
  issuer: "https://login.example.com",
};

const MODULES = { docs: defineModule({ tools: [defineTool({ name: "docs_read", description: "d", inputSchema: { type: "object" }, handler: () => "d" })] }) };

function load(auth: Record<string, unknown>, optedIn: boolean): TenantDirectory {
  const document = parseTenantsDocument({ tenants: [{ id: "t", hosts: ["t.example"], modules: [{ name: "docs" }], auth: { resource, ...auth } }] });
  return new TenantDirectory(document, {
    modules: MODULES,
    service: () => undefined,
    info: { name: "t", version: "1" },
    ...(optedIn ? { checkTokenSources: checkTokenSourceConfig } : {}),
  });
}

describe("token sources of a tenant", () => {
  it.each([
    ["introspection", { introspection }],
    ["authorizationServer", { authorizationServer: { binding: "AUTH_SERVER", issuer: "https://auth.example.com" } }],
    [
      "issuerTemplates",
      { issuerTemplates: [{ template: "https://login.microsoftonline.com/{tid}/v2.0", allowed: ["a"], jwksUri: "https://k.example.com/keys" }] },
    ],
  ])("sets aside a tenant naming %s when the Worker did not opt in, saying how to", (field, auth) => {
    expect(load(auth, false).broken[0]?.problem).toBe(
      `tenant "t": auth.${field} needs the Worker to opt in: createMultiTenantWorker({ ..., tokenSources: tokenSources() }) from edge-mcp`,
    );
    expect(load(auth, true).broken).toEqual([]);
  });

  it("sets aside a tenant whose settings are wrong, naming every problem, when the Worker opted in", () => {
    const broken = load(
      { introspection: { ...introspection, endpoint: "http://login.example.com/introspect", clientSecretBinding: "s3cr3t value", cacheEntries: 0 } },
      true,
    ).broken;
    expect(broken[0]?.problem).toMatch(/auth\.introspection\.endpoint: must be an https URL/);
    expect(broken[0]?.problem).toMatch(/auth\.introspection\.clientSecretBinding: must be the name of a secret binding/);
    expect(broken[0]?.problem).toMatch(/auth\.introspection\.cacheEntries: must be an integer from 1 to 100000/);
  });

  it("refuses introspection and authorizationServer together, and settings that are not objects", () => {
    expect(load({ introspection, authorizationServer: { binding: "A", issuer: "https://a.example.com" } }, true).broken[0]?.problem).toMatch(
      /set introspection or authorizationServer, not both/,
    );
    expect(load({ introspection: "https://login.example.com/introspect" }, true).broken[0]?.problem).toMatch(/auth\.introspection: must be an object/);
  });

  it("lists the authorization server's issuer in the metadata when authorizationServers is not set", () => {
    expect(load({ introspection }, true).auth(load({ introspection }, true).tenants[0] as never)?.authorizationServers).toEqual(["https://login.example.com"]);
  });
});
