// The Worker inside workerd: the MCP endpoint asks for a token, and the metadata documents send a client to this
// Worker's own authorization server, which registers clients and starts the sign-in.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";

const ORIGIN = "http://127.0.0.1:8787";
const send = (path: string, init?: RequestInit<IncomingRequestCfProperties>) =>
  worker.fetch(new Request<unknown, IncomingRequestCfProperties>(`${ORIGIN}${path}`, init), env, createExecutionContext());

describe("sign-in", () => {
  it("answers an MCP request without a token with 401 and a challenge that points to the metadata", async () => {
    const answer = await send("/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
  });

  it("names this Worker as the resource's authorization server, with PKCE S256 and client metadata documents", async () => {
    const resource = await (await send("/.well-known/oauth-protected-resource/mcp")).json<{ resource: string; authorization_servers: string[] }>();
    expect(resource).toMatchObject({ resource: `${ORIGIN}/mcp`, authorization_servers: [ORIGIN] });
    const server = await (await send("/.well-known/oauth-authorization-server")).json<Record<string, unknown>>();
    expect(server).toMatchObject({ issuer: ORIGIN, code_challenge_methods_supported: ["S256"], client_id_metadata_document_supported: true });
  });

  it("registers a client dynamically and refuses one without redirect URIs", async () => {
    const register = (body: unknown) =>
      send("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const made = await register({ client_name: "Test client", redirect_uris: ["http://127.0.0.1:9999/callback"], token_endpoint_auth_method: "none" });
    expect(made.status).toBe(201);
    expect(await made.json()).toHaveProperty("client_id");
    expect((await register({ client_name: "No redirects" })).status).toBe(400);
  });
});
