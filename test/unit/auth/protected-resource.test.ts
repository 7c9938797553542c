import { describe, expect, it } from "vitest";
import { parseAuthConfig } from "../../../src/auth/auth-config.ts";
import { matchMetadataPath, metadataUrls, protectedResourceMetadata } from "../../../src/auth/protected-resource.ts";
import { ISSUER, RESOURCE } from "./fixtures.ts";

const KEYS = [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }];

describe("protectedResourceMetadata", () => {
  it("names the resource, its authorization servers (the issuers by default), scopes and the header method", () => {
    const tenant = parseAuthConfig({ resource: RESOURCE, issuer: ISSUER, keys: KEYS, scopesSupported: ["tools:read"] }, "acme");
    expect(protectedResourceMetadata(tenant)).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      scopes_supported: ["tools:read"],
      bearer_methods_supported: ["header"],
    });
  });

  it("uses the configured authorization servers and leaves out absent scopes", () => {
    const tenant = parseAuthConfig({ resource: RESOURCE, issuer: ISSUER, authorizationServers: ["https://login.example.com"], keys: KEYS }, "acme");
    expect(protectedResourceMetadata(tenant)).toEqual({
      resource: RESOURCE,
      authorization_servers: ["https://login.example.com"],
      bearer_methods_supported: ["header"],
    });
  });

  it("has no authorization servers for a tenant that takes API keys only", () => {
    const tenant = parseAuthConfig({ resource: RESOURCE, apiKeys: [{ id: "k", sha256: "a".repeat(64) }] }, "acme");
    expect(protectedResourceMetadata(tenant)).toEqual({ resource: RESOURCE, bearer_methods_supported: ["header"] });
  });
});

describe("metadataUrls", () => {
  it("gives the root and the path-inserted well-known URLs (RFC 9728 §3.1)", () => {
    expect(metadataUrls(RESOURCE)).toEqual({
      root: "https://mcp.example.com/.well-known/oauth-protected-resource",
      pathInserted: "https://mcp.example.com/.well-known/oauth-protected-resource/t/acme/mcp",
    });
    expect(metadataUrls("http://127.0.0.1:8787/mcp").pathInserted).toBe("http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp");
  });

  it("gives the root twice for a resource without a path, and keeps a significant trailing slash", () => {
    const root = "https://mcp.example.com/.well-known/oauth-protected-resource";
    expect(metadataUrls("https://mcp.example.com")).toEqual({ root, pathInserted: root });
    expect(metadataUrls("https://mcp.example.com/")).toEqual({ root, pathInserted: root });
    expect(metadataUrls("https://mcp.example.com/mcp/").pathInserted).toBe(`${root}/mcp/`);
  });
});

describe("matchMetadataPath", () => {
  const acme = "https://mcp.example.com/t/acme/mcp";
  const globex = "https://mcp.example.com/t/globex/mcp";

  it("finds the resource of a path-inserted URL", () => {
    expect(matchMetadataPath("/.well-known/oauth-protected-resource/t/acme/mcp", [acme, globex])).toBe(acme);
    expect(matchMetadataPath("/.well-known/oauth-protected-resource/t/globex/mcp", [acme, globex])).toBe(globex);
  });

  it("answers the root for a single resource or one without a path, and not when ambiguous", () => {
    expect(matchMetadataPath("/.well-known/oauth-protected-resource", [acme])).toBe(acme);
    expect(matchMetadataPath("/.well-known/oauth-protected-resource", [acme, globex])).toBeUndefined();
    expect(matchMetadataPath("/.well-known/oauth-protected-resource", [acme, "https://mcp.example.com"])).toBe("https://mcp.example.com");
  });

  it("matches nothing else", () => {
    expect(matchMetadataPath("/.well-known/oauth-protected-resource/t/acme", [acme])).toBeUndefined();
    expect(matchMetadataPath("/.well-known/oauth-protected-resource/t/acme/mcp/", [acme])).toBeUndefined();
    expect(matchMetadataPath("/.well-known/oauth-protected-resourcex", [acme])).toBeUndefined();
    expect(matchMetadataPath("/t/acme/mcp", [acme])).toBeUndefined();
    expect(matchMetadataPath("/.well-known/oauth-protected-resource", [])).toBeUndefined();
  });
});
