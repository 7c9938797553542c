// A client that goes away cancels its 2026-07-28 call under `wrangler dev` (enable_request_signal).
// workerd learns of a disconnect only when a write to the connection fails: these pass because the
// answer carries keep-alive comments (a JSON answer is turned into SSE for a handler that reads its signal).
import { mkdtempSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const ENTRY = fileURLToPath(new URL("./fixtures/disconnect-worker.ts", import.meta.url));
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
// Longer than any disconnect takes to be noticed here, short enough that a handler left running ends.
const HANDLER_MS = 6_000;

let worker: WranglerDev;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "edge-mcp-disconnect-"));
  const config = join(dir, "wrangler.toml");
  writeFileSync(
    config,
    [
      'name = "edge-mcp-disconnect"',
      `main = ${JSON.stringify(ENTRY)}`,
      'compatibility_date = "2026-04-01"',
      'compatibility_flags = ["enable_request_signal"]',
    ].join("\n"),
  );
  worker = await startWranglerDev({ name: "disconnect", configPath: config });
}, 60_000);

afterAll(async () => {
  await worker?.stop();
});

let nextId = 1;

function callBody(name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args, _meta: { ...META, ...meta } } });
}

function callHeaders(name: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": name,
  };
}

/** What the fixture recorded for the `wait` call with this mark. */
async function outcomeOf(mark: string): Promise<string> {
  const response = await fetch(`${worker.baseUrl}/mcp`, { method: "POST", headers: callHeaders("outcome"), body: callBody("outcome", { mark }) });
  const body = await response.json<{ result: { content: [{ text: string }] } }>();
  return body.result.content[0].text;
}

/** Polls the record until it is no longer `from` (the test timeout bounds the wait). */
async function outcomeAfter(mark: string, from: string): Promise<string> {
  for (;;) {
    const outcome = await outcomeOf(mark);
    if (outcome !== from) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("client disconnect under wrangler dev", () => {
  it("aborts the signal of a quiet call (no notifications) when the client aborts its fetch", async () => {
    const mark = `json-${Date.now()}`;
    const controller = new AbortController();
    const answer = fetch(`${worker.baseUrl}/mcp`, {
      method: "POST",
      headers: callHeaders("wait"),
      body: callBody("wait", { mark, ms: HANDLER_MS }),
      signal: controller.signal,
    }).then((response) => response.text());
    answer.catch(() => {});
    expect(await outcomeAfter(mark, "unknown")).toBe("running");
    controller.abort();
    expect(await outcomeAfter(mark, "running")).toMatch(/^aborted: AbortError/);
  });

  it("aborts the signal of a call whose SSE answer has gone quiet when the client's socket is destroyed", async () => {
    const mark = `sse-${Date.now()}`;
    const body = callBody("wait", { mark, ms: HANDLER_MS, notify: true }, { progressToken: mark });
    const { hostname, port } = new URL(worker.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.on("error", () => {});
    const head = Object.entries({ ...callHeaders("wait"), host: `${hostname}:${port}`, "content-length": String(Buffer.byteLength(body)) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(`POST /mcp HTTP/1.1\r\n${head}\r\n${body}`);
    // The progress notification arrives first: the answer is a stream, then nothing more is written.
    const first = await new Promise<string>((resolve) => socket.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8"))));
    expect(first).toMatch(/text\/event-stream/);
    expect(await outcomeOf(mark)).toBe("running");
    socket.destroy();
    expect(await outcomeAfter(mark, "running")).toMatch(/^aborted: AbortError/);
  });
});
