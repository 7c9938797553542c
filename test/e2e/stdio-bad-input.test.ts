// Bad input over stdio gets the error the HTTP endpoint gives for the same body (from `wrangler dev` of the demo).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { linePeer, type LinePeer } from "./stdio-lines.ts";
import { freshState, killGroup, spawnEdgeMcp } from "./stdio-server.ts";

const HTTP = `${inject("baseUrlAuto")}/mcp`;
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** The JSON-RPC body the HTTP endpoint answers to `body` (with the headers `extra` adds). */
async function overHttp(body: string, extra: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(HTTP, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra },
    body,
  });
  return { status: response.status, body: await response.json<Record<string, unknown>>() };
}

let pid: number | undefined;
let peer: LinePeer;

beforeAll(async () => {
  const child = spawnEdgeMcp([], { persistTo: freshState() });
  pid = child.pid;
  peer = linePeer(child);
  peer.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  expect(JSON.parse(await peer.next())).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25" } });
  peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
});
afterAll(() => killGroup(pid));

/** Sends one line and returns the one line that answers it. */
async function ask(line: string | object): Promise<Record<string, unknown>> {
  peer.send(line);
  return JSON.parse(await peer.next()) as Record<string, unknown>;
}

describe("edge-mcp stdio with bad input", () => {
  it("answers a malformed line with the HTTP endpoint's -32700 parse error, and goes on", async () => {
    const answer = await ask("{not json");
    const http = await overHttp("{not json");
    expect(http.status).toBe(400);
    expect(answer).toEqual(http.body);
    expect(answer).toMatchObject({ error: { code: -32700 } });
    expect(await ask({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("answers a batch with the HTTP endpoint's -32600", async () => {
    const batch = JSON.stringify([
      { jsonrpc: "2.0", id: 2, method: "ping" },
      { jsonrpc: "2.0", id: 3, method: "ping" },
    ]);
    const answer = await ask(batch);
    expect(answer).toEqual((await overHttp(batch)).body);
    expect(answer).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/^Batch requests are not supported/) } });
  });

  it("answers an unknown method with -32601, in both revisions, as HTTP does", async () => {
    const legacy = { jsonrpc: "2.0", id: 4, method: "no/such/method" };
    expect(await ask(legacy)).toEqual((await overHttp(JSON.stringify(legacy), { "mcp-protocol-version": "2025-11-25" })).body);
    const modern = { jsonrpc: "2.0", id: 5, method: "no/such/method", params: { _meta: META } };
    const http = await overHttp(JSON.stringify(modern), { "mcp-protocol-version": "2026-07-28", "mcp-method": "no/such/method" });
    expect(http.status).toBe(404);
    expect(await ask(modern)).toEqual(http.body);
    expect(http.body).toMatchObject({ id: 5, error: { code: -32601 } });
  });

  it("answers a request larger than the 1 MiB body cap with the HTTP endpoint's 413 error, under the request's id", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: "big", method: "tools/call", params: { name: "echo", arguments: { text: "x".repeat(1024 * 1024) } } });
    const http = await overHttp(big);
    expect(http.status).toBe(413);
    // HTTP pairs the answer with its request by the exchange; over stdio the id says which request it answers.
    expect(await ask(big)).toEqual({ jsonrpc: "2.0", id: "big", error: http.body["error"] });
    expect(await ask({ jsonrpc: "2.0", id: 6, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 6, result: {} });
  });

  it("answers an invalid request object with the HTTP endpoint's -32600, naming the problem", async () => {
    const invalid = { jsonrpc: "1.0", id: 7, method: "ping" };
    expect(await ask(invalid)).toEqual((await overHttp(JSON.stringify(invalid))).body);
  });
});
