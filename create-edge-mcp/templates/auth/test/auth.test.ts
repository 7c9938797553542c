// The Worker inside workerd: no credentials, an API key with and without the scope a tool needs, the metadata document.
import { describe, expect, it } from "vitest";
import { apiKey, withKeys } from "./mcp";

const reader = apiKey("reader", ["orders:read"]);
const guest = apiKey("guest", []);
const server = withKeys([await reader.entry, await guest.entry]);
const as = (key: string) => ({ authorization: `Bearer ${key}` });

describe("auth", () => {
  it("answers a request without credentials with 401 and a challenge that points to the metadata", async () => {
    const answer = await server.mcp("tools/list");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toContain('resource_metadata="http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp"');
  });

  it("refuses a key that is not configured", async () => {
    expect((await server.mcp("tools/list", {}, as("emk_not_a_configured_key"))).status).toBe(401);
  });

  it("serves a caller with an API key and tells the tools who it is", async () => {
    const { result } = await server.mcp("tools/call", { name: "whoami", arguments: {} }, as(reader.key));
    const text = (result?.["content"] as { text: string }[])[0]?.text ?? "";
    expect(JSON.parse(text)).toMatchObject({ subject: "reader", scopes: ["orders:read"] });
  });

  it("lets a key with the tool's scope call it", async () => {
    const { result } = await server.mcp("tools/call", { name: "list_orders", arguments: { limit: 1 } }, as(reader.key));
    expect(result).toMatchObject({ structuredContent: { orders: [{ id: "A-1001" }] } });
  });

  it("answers 403 insufficient_scope to a key without the tool's scope", async () => {
    const answer = await server.mcp("tools/call", { name: "list_orders", arguments: {} }, as(guest.key));
    expect(answer.status).toBe(403);
    expect(answer.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });

  it("publishes the protected resource metadata without credentials", async () => {
    const response = await server.fetch(new Request<unknown, IncomingRequestCfProperties>("http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp"));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ resource: "http://127.0.0.1:8787/mcp", authorization_servers: ["https://your-tenant.example-idp.com/"] });
  });
});
