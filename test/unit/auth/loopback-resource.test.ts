// A dev server on another loopback port advertises, and accepts tokens for, the URL it is reached at.
import { describe, expect, it } from "vitest";
import { isLoopbackResource, servedResource } from "../../../src/auth/loopback-resource.ts";
import { createAuthorizer } from "../../../src/http/admission/authorizer.ts";
import { ProtocolError } from "../../../src/core/errors.ts";
import { config, sign, testKey } from "./fixtures.ts";

const DEV = "http://127.0.0.1:8787/t/acme/mcp";

describe("servedResource", () => {
  it("moves a loopback resource to the port the request reached", () => {
    expect(servedResource(DEV, "http://127.0.0.1:8799/t/acme/mcp")).toBe("http://127.0.0.1:8799/t/acme/mcp");
    expect(servedResource("http://localhost:8787/mcp", "http://localhost:9000/.well-known/oauth-protected-resource/mcp")).toBe("http://localhost:9000/mcp");
    expect(servedResource("http://[::1]:8787/mcp", "http://[::1]:8788/mcp")).toBe("http://[::1]:8788/mcp");
  });

  it("keeps the resource as configured on the same port, another host, another scheme, or a public host", () => {
    expect(servedResource(DEV, "http://127.0.0.1:8787/t/acme/mcp")).toBe(DEV);
    expect(servedResource(DEV, "http://localhost:8799/t/acme/mcp")).toBe(DEV);
    expect(servedResource(DEV, "https://127.0.0.1:8799/t/acme/mcp")).toBe(DEV);
    expect(servedResource("https://mcp.example.com/t/acme/mcp", "https://mcp.example.com:8443/t/acme/mcp")).toBe("https://mcp.example.com/t/acme/mcp");
    expect(isLoopbackResource("https://mcp.example.com/mcp")).toBe(false);
  });
});

describe("an authorizer for a loopback resource", () => {
  const setup = async (resource: string) => {
    const key = await testKey("ES256", "k1");
    const authorizer = createAuthorizer(config({ resource, keys: [key.publicJwk] }));
    const call = (url: string, token: string) => new Request(url, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    return { key, authorizer, call };
  };

  it("names the reached URL in its metadata", async () => {
    const { authorizer } = await setup(DEV);
    const at = (url: string) => JSON.parse(authorizer.metadataJson(new Request(url))) as { resource: string };
    expect(at("http://127.0.0.1:8799/.well-known/oauth-protected-resource/t/acme/mcp").resource).toBe("http://127.0.0.1:8799/t/acme/mcp");
    expect(at("http://127.0.0.1:8787/.well-known/oauth-protected-resource/t/acme/mcp").resource).toBe(DEV);
  });

  it("accepts a token for the reached URL or for the configured one, and refuses one for a third port", async () => {
    const { key, authorizer, call } = await setup(DEV);
    const reached = "http://127.0.0.1:8799/t/acme/mcp";
    const forReached = await sign(key, { claims: { aud: reached } });
    const forConfigured = await sign(key, { claims: { aud: DEV } });
    const forOther = await sign(key, { claims: { aud: "http://127.0.0.1:8800/t/acme/mcp" } });
    expect((await authorizer.authenticate(call(reached, forReached)))?.subject).toBe("user-1");
    expect((await authorizer.authenticate(call(reached, forConfigured)))?.subject).toBe("user-1");
    await expect(authorizer.authenticate(call(reached, forOther))).rejects.toBeInstanceOf(ProtocolError);
    // On the configured port, only the configured resource is an audience.
    await expect(authorizer.authenticate(call(DEV, forReached))).rejects.toMatchObject({ status: 401 });
  });

  it("never widens the audience of a public resource", async () => {
    const resource = "https://mcp.example.com/t/acme/mcp";
    const { key, authorizer, call } = await setup(resource);
    const forPort = await sign(key, { claims: { aud: "https://mcp.example.com:8443/t/acme/mcp" } });
    await expect(authorizer.authenticate(call("https://mcp.example.com:8443/t/acme/mcp", forPort))).rejects.toMatchObject({ status: 401 });
    expect((JSON.parse(authorizer.metadataJson(new Request("https://mcp.example.com:8443/x"))) as { resource: string }).resource).toBe(resource);
  });
});
