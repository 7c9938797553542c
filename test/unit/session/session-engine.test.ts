// The session engine on its own (memory storage): creation, id and caller checks, admission limits, expiry, quotas.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEndpoint } from "../../../src/http/endpoint.ts";
import { createMemoryQuotaCounter } from "../../../src/server/state/quotas.ts";
import { createServer } from "../../../src/server/server.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { SessionEngine } from "../../../src/session/session-engine.ts";
import { createMemorySessionStorage } from "../../../src/session/session-record.ts";
import { admission, principal } from "../../admission.ts";
import { sha256Hex } from "../../../src/core/bytes.ts";

const slow = defineTool({
  name: "slow",
  description: "Takes a second.",
  inputSchema: { type: "object" },
  handler: () => new Promise<string>((resolve) => setTimeout(() => resolve("late"), 1000)),
});
const quick = defineTool({ name: "quick", description: "Answers at once.", inputSchema: { type: "object" }, handler: () => "ok" });
const server = createServer({ info: { name: "t", version: "1" }, tools: [slow, quick] });
const ID = "object-id.secret";
const ADA = admission("limited", principal("ada"), { limits: { toolTimeoutMs: 30 } });
const BOB = admission("limited", principal("bob"), { limits: { toolTimeoutMs: 30 } });

function post(body: unknown): Request {
  return new Request("https://session/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify(body),
  });
}

const ID_HASH = await sha256Hex(ID);
const initialize = () =>
  post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });

async function started(now = () => Date.now(), { leaseExpiresAt, idleTtlMs }: { leaseExpiresAt?: number; idleTtlMs?: number } = {}) {
  const storage = createMemorySessionStorage();
  const quotas = createMemoryQuotaCounter(now);
  const renew = vi.spyOn(quotas, "renew");
  const endpoint = createEndpoint({ server, tenant: "limited", quotaCounter: quotas });
  const engine = new SessionEngine({ endpointFor: async () => endpoint, storage, now, ...(idleTtlMs === undefined ? {} : { idleTtlMs }) });
  const init = await engine.handle(initialize(), { sessionId: ID, admission: ADA, opening: { idHash: ID_HASH, leaseExpiresAt } });
  expect(init.headers.get("mcp-session-id")).toBe(ID);
  return { engine, storage, quotas, renew };
}

const call = (name: string) => post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name } });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("SessionEngine", () => {
  it("applies the admission's tool deadline inside the session", async () => {
    const { engine } = await started();
    const body = await (await engine.handle(call("slow"), { sessionId: ID, admission: ADA })).json<{ result: unknown }>();
    expect(body.result).toMatchObject({ isError: true, content: [{ text: "Tool slow did not finish within 30 ms" }] });
  });

  it("answers 404 to another id or another principal on the same object", async () => {
    const { engine } = await started();
    expect((await engine.handle(call("quick"), { sessionId: "object-id.other", admission: ADA })).status).toBe(404);
    expect((await engine.handle(call("quick"), { sessionId: ID, admission: BOB })).status).toBe(404);
    expect((await engine.handle(call("quick"), { sessionId: ID, admission: ADA })).status).toBe(200);
  });

  it("refuses a second initialize in the session", async () => {
    const { engine } = await started();
    const again = await engine.handle(
      post({
        jsonrpc: "2.0",
        id: 3,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      }),
      { sessionId: ID, admission: ADA },
    );
    expect(again.status).toBe(400);
  });

  it("expires after the idle time and keeps a session that is still in use", async () => {
    let now = 1_000_000;
    const { engine, storage } = await started(() => now);
    now += 10 * 60_000;
    await engine.expire();
    expect(await storage.loadRecord()).toBeDefined();
    expect(storage.expiry).toBe(1_000_000 + 30 * 60_000);
    now += 25 * 60_000;
    await engine.expire();
    expect(await storage.loadRecord()).toBeUndefined();
    expect((await engine.handle(call("quick"), { sessionId: ID, admission: ADA })).status).toBe(404);
  });

  it("digests the session id once per object, and still refuses a wrong secret or another caller after that", async () => {
    const { engine, storage } = await started();
    const digest = vi.spyOn(crypto.subtle, "digest");
    for (let i = 0; i < 3; i++) expect((await engine.handle(call("quick"), { sessionId: ID, admission: ADA })).status).toBe(200);
    expect(digest).not.toHaveBeenCalled();
    expect((await engine.handle(call("quick"), { sessionId: "object-id.secreT", admission: ADA })).status).toBe(404);
    expect((await engine.handle(call("quick"), { sessionId: "object-id.secret2", admission: ADA })).status).toBe(404);
    expect((await engine.handle(call("quick"), { sessionId: ID, admission: BOB })).status).toBe(404);
    // A new instance over the same storage (the object was evicted) checks the digest once again.
    const endpoint = createEndpoint({ server, tenant: "limited" });
    const reloaded = new SessionEngine({ endpointFor: async () => endpoint, storage });
    expect((await reloaded.handle(call("quick"), { sessionId: "object-id.other", admission: ADA })).status).toBe(404);
    expect((await reloaded.handle(call("quick"), { sessionId: ID, admission: ADA })).status).toBe(200);
    expect((await reloaded.handle(call("quick"), { sessionId: ID, admission: ADA })).status).toBe(200);
    expect(digest).toHaveBeenCalledTimes(2);
    // Once deleted, the id is refused.
    expect((await reloaded.handle(new Request("https://session/mcp", { method: "DELETE" }), { sessionId: ID, admission: ADA })).status).toBe(204);
    expect((await reloaded.handle(call("quick"), { sessionId: ID, admission: ADA })).status).toBe(404);
  });

  it("keeps the digest and the quota place admission took: initialize neither digests the id nor renews a place that outlasts its idle time", async () => {
    const digest = vi.spyOn(crypto.subtle, "digest");
    const now = 1_000_000;
    const { storage, renew } = await started(() => now, { leaseExpiresAt: now + 31 * 60_000 });
    expect(digest).not.toHaveBeenCalled();
    expect(renew).not.toHaveBeenCalled();
    expect((await storage.loadRecord())?.idHash).toBe(ID_HASH);
    expect(storage.expiry).toBe(now + 30 * 60_000);
  });

  it("renews the quota place at initialize when the session may idle past it, or when its end is unknown", async () => {
    const now = 1_000_000;
    const longer = await started(() => now, { leaseExpiresAt: now + 31 * 60_000, idleTtlMs: 45 * 60_000 });
    expect(longer.renew).toHaveBeenCalledExactlyOnceWith("limited", ID_HASH, now + 45 * 60_000);
    vi.restoreAllMocks();
    const unknown = await started(() => now);
    expect(unknown.renew).toHaveBeenCalledExactlyOnceWith("limited", ID_HASH, now + 30 * 60_000);
  });
});
