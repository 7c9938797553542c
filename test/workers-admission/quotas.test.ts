// Quotas on live handles and sessions, per principal and per tenant, counted in one Durable Object per tenant.
import { describe, expect, it } from "vitest";
import { bearer, initialize, modern, resultOf, send } from "./fixture.ts";

async function save(tenant: string, authorization?: string) {
  return (await resultOf(await modern(tenant, "tools/call", { name: "note_save", arguments: { text: "n" } }, authorization))).result;
}

describe("handle quotas", () => {
  it("refuses a principal's handle past its quota with an isError result, and frees a place on delete", async () => {
    const bob = await bearer({ sub: "quota-bob" });
    const handles: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await save("secure", bob);
      expect(result?.isError).toBeUndefined();
      handles.push(result?.content[0]?.text as string);
    }
    const over = await save("secure", bob);
    expect(over?.isError).toBe(true);
    expect(over?.content[0]?.text).toMatch(/too many live handles: a caller may hold 3/);
    // Another principal of the tenant has its own allowance.
    expect((await save("secure", await bearer({ sub: "quota-carol" })))?.isError).toBeUndefined();
    const deleted = await resultOf(await modern("secure", "tools/call", { name: "note_delete", arguments: { handle: handles[0] } }, bob));
    expect(deleted.result?.content[0]?.text).toBe("deleted");
    expect((await save("secure", bob))?.isError).toBeUndefined();
  });

  it("counts anonymous callers by their client address when the platform gives one", async () => {
    const from = (address: string) =>
      send("open", {
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "note_save",
            arguments: { text: "n" },
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
          },
        },
        headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "note_save", "cf-connecting-ip": address },
      }).then(resultOf);
    expect((await from("192.0.2.1")).result?.isError).toBeUndefined();
    expect((await from("192.0.2.1")).result?.isError).toBeUndefined();
    expect((await from("192.0.2.1")).result?.isError).toBe(true);
    expect((await from("192.0.2.2")).result?.isError).toBeUndefined();
  });
});

describe("session quotas", () => {
  it("answers initialize past the quota with 429 and a JSON-RPC error, and frees the place when a session ends", async () => {
    const dave = await bearer({ sub: "quota-dave" });
    const first = await initialize("secure", dave);
    const second = await initialize("secure", dave);
    expect([first.status, second.status]).toEqual([200, 200]);
    const over = await send("secure", {
      body: {
        jsonrpc: "2.0",
        id: 3,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      headers: { authorization: dave },
    });
    expect(over.status).toBe(429);
    expect(over.headers.get("mcp-session-id")).toBeNull();
    expect(await over.json()).toMatchObject({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -31429, message: expect.stringMatching(/Too many open sessions/), data: { quota: "sessions", perPrincipal: 2 } },
    });
    const ended = await send("secure", { method: "DELETE", headers: { "mcp-session-id": first.sessionId as string, authorization: dave } });
    expect(ended.status).toBe(204);
    expect((await initialize("secure", dave)).status).toBe(200);
  });

  it("caps the sessions of a whole tenant", async () => {
    // The open tenant allows 3 per caller and 5 in all: two addresses fill it.
    const open = (address: string) =>
      send("open", {
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        },
        headers: { "cf-connecting-ip": address },
      });
    const statuses: number[] = [];
    for (const address of ["198.51.100.1", "198.51.100.1", "198.51.100.1", "198.51.100.2", "198.51.100.2", "198.51.100.2"]) {
      const response = await open(address);
      statuses.push(response.status);
      await response.text();
    }
    // Earlier tests of this file may hold sessions of the open tenant too: the sixth is refused at the latest.
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
  });
});
