// SessionEngine.notify: a notification no request carries reaches the session's standalone GET stream,
// only for the session's own id digest and caller, and only while that stream is open.
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/core/bytes.ts";
import { createEndpoint } from "../../../src/http/endpoint.ts";
import { createServer } from "../../../src/server/server.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { SessionEngine } from "../../../src/session/session-engine.ts";
import { createMemorySessionStorage } from "../../../src/session/session-record.ts";
import { admission, principal } from "../../admission.ts";

const quick = defineTool({ name: "quick", description: "Answers at once.", inputSchema: { type: "object" }, handler: () => "ok" });
const server = createServer({ info: { name: "t", version: "1" }, tools: [quick] });
const ID = "0123abcd.secret";
const ID_HASH = await sha256Hex(ID);
const ADA = admission("acme", principal("ada"));
const BOB = admission("acme", principal("bob"));
const ADA_OTHER_TENANT = admission("globex", principal("ada"));
const MESSAGE = { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "nonce-1" } };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

async function started() {
  const engine = new SessionEngine({ endpointFor: async () => createEndpoint({ server, tenant: "acme" }), storage: createMemorySessionStorage() });
  const init = new Request("https://session/mcp", {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    }),
  });
  expect((await engine.handle(init, { sessionId: ID, admission: ADA, opening: { idHash: ID_HASH, leaseExpiresAt: undefined } })).status).toBe(200);
  return engine;
}

/** Opens the session's standalone GET stream and collects what it carries. */
async function listen(engine: SessionEngine) {
  const response = await engine.handle(new Request("https://session/mcp", { method: "GET", headers: HEADERS }), { sessionId: ID, admission: ADA });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  return {
    /** What the stream carried within `ms`. */
    async read(ms = 50): Promise<string> {
      const deadline = Date.now() + ms;
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) return text;
        const chunk = await Promise.race([reader.read(), new Promise<undefined>((resolve) => setTimeout(resolve, left))]);
        if (chunk === undefined || chunk.done) return text;
        text += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

describe("SessionEngine.notify", () => {
  it("writes the message on the open standalone stream of the session's own id and caller", async () => {
    const engine = await started();
    const stream = await listen(engine);
    expect(await engine.notify(ID_HASH, ADA.caller, MESSAGE)).toBe(true);
    const events = await stream.read();
    expect(events).toContain(`data: ${JSON.stringify(MESSAGE)}`);
  });

  it("sends nothing to another principal's or another tenant's caller, or to another id's digest", async () => {
    const engine = await started();
    const stream = await listen(engine);
    expect(await engine.notify(ID_HASH, BOB.caller, MESSAGE)).toBe(false);
    expect(await engine.notify(ID_HASH, ADA_OTHER_TENANT.caller, MESSAGE)).toBe(false);
    expect(await engine.notify(await sha256Hex("0123abcd.other"), ADA.caller, MESSAGE)).toBe(false);
    expect(await engine.notify("", ADA.caller, MESSAGE)).toBe(false);
    expect(await stream.read()).not.toContain("elicitation/complete");
  });

  it("sends nothing without a standalone stream, after the session ended, or before it exists", async () => {
    const engine = await started();
    expect(await engine.notify(ID_HASH, ADA.caller, MESSAGE)).toBe(false);
    await listen(engine);
    await engine.handle(new Request("https://session/mcp", { method: "DELETE", headers: HEADERS }), { sessionId: ID, admission: ADA });
    expect(await engine.notify(ID_HASH, ADA.caller, MESSAGE)).toBe(false);
    const fresh = new SessionEngine({ endpointFor: async () => createEndpoint({ server, tenant: "acme" }), storage: createMemorySessionStorage() });
    expect(await fresh.notify(ID_HASH, ADA.caller, MESSAGE)).toBe(false);
  });
});
