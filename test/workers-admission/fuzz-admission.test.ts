// Fuzz (seeded, deterministic) of the surfaces that name objects or hold quota places: task ids in tasks/* and
// subscriptions/listen, initialize params, client addresses. Each answer is a JSON-RPC error or result with the
// status the spec names, nothing answers 5xx, no task object is created, and no refusal keeps a quota place.
import { env } from "cloudflare:workers";
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WITH_TASKS, modern, resultOf, send } from "./fixture.ts";
import { from, initializeFrom } from "./network.ts";
import { seededRandom as random } from "../seeded-random.mjs";

const tasksNamespace = (env as unknown as { MCP_TASKS: DurableObjectNamespace }).MCP_TASKS;

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const text = (next: () => number, alphabet: string, length: number): string =>
  Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const HEX = "0123456789abcdef";
// Printable ASCII without spaces: a task id travels in the Mcp-Name header too.
const PRINTABLE = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join("");

/** Task ids a client could make up: right shapes with wrong content, near misses, and noise. */
function taskId(next: () => number): string {
  return pick(next, [
    () => text(next, B64, 32),
    () => `${text(next, HEX, 64)}.${text(next, B64, 32)}`,
    () => `${text(next, HEX, 64)}.${text(next, B64, Math.floor(next() * 40))}`,
    () => `${text(next, HEX, Math.floor(next() * 80))}.${text(next, B64, 32)}`,
    () => `${text(next, "0123456789ABCDEF", 64)}.${text(next, B64, 32)}`,
    () => text(next, PRINTABLE, 1 + Math.floor(next() * 120)),
    () => ".".repeat(1 + Math.floor(next() * 70)),
  ])();
}

async function taskObjects(): Promise<number> {
  return (await listDurableObjectIds(tasksNamespace)).length;
}

describe("fuzzing task ids", () => {
  it("answers 180 made-up ids in tasks/get, tasks/update and tasks/cancel as unknown (or as a header mismatch), creating no object", async () => {
    const next = random(0x2121);
    const before = await taskObjects();
    for (let n = 0; n < 60; n++) {
      const id = taskId(next);
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const params = method === "tasks/update" ? { taskId: id, inputResponses: {} } : { taskId: id };
        const answer = await resultOf(await modern("open", method, params, undefined, WITH_TASKS));
        expect([200, 400], `${method} ${id}`).toContain(answer.status);
        expect([-32602, -32020], `${method} ${id}`).toContain(answer.error?.code);
      }
    }
    expect(await taskObjects()).toBe(before);
  }, 120_000);

  it("agrees to none of 20 lists of made-up taskIds in subscriptions/listen, and refuses malformed lists with -32602, creating no object", async () => {
    const next = random(0x2122);
    const before = await taskObjects();
    for (let n = 0; n < 20; n++) {
      const count = Math.floor(next() * 110);
      const ids: unknown[] = Array.from({ length: count }, () => (next() < 0.03 ? pick(next, [1, null, {}, []]) : taskId(next)));
      const response = await modern("open", "subscriptions/listen", { notifications: { taskIds: ids } }, undefined, WITH_TASKS);
      const wellFormed = ids.every((id) => typeof id === "string") && new Set(ids).size <= 100;
      if (wellFormed) {
        expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        let head = "";
        while (!head.includes("\n\n")) head += new TextDecoder().decode((await reader.read()).value);
        expect(head).toMatch(/notifications\/subscriptions\/acknowledged/);
        expect(head).not.toMatch(/"taskIds":\[".+?"\]/);
        await reader.cancel();
      } else {
        expect((await resultOf(response)).error?.code).toBe(-32602);
      }
    }
    expect(await taskObjects()).toBe(before);
  }, 120_000);
});

describe("fuzzing quota places", () => {
  it("gives back the session place of 30 refused initialize requests: a valid one still opens a session (cap 3)", async () => {
    const next = random(0x2123);
    const address = "2001:db8:f1:1::1";
    const values = [undefined, null, 0, 2025, -1.5, true, false, [], ["2025-11-25"], {}, { v: "2025-11-25" }];
    for (let n = 0; n < 30; n++) {
      const protocolVersion = pick(next, values);
      const params: Record<string, unknown> = protocolVersion === undefined ? {} : { protocolVersion };
      if (next() < 0.3) params["capabilities"] = pick(next, [null, 1, "x", []]);
      const response = await initializeFrom("open", address, params, 1000 + n);
      expect(response.status).toBe(400);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 1000 + n, error: { code: -32602 } });
    }
    const valid = await initializeFrom("open", address);
    expect(valid.status).toBe(200);
    expect(valid.headers.get("mcp-session-id")).toBeTruthy();
  }, 120_000);

  it("admits 60 requests with random CF-Connecting-IP values (addresses, near misses, noise) without an error", async () => {
    const next = random(0x2124);
    for (let n = 0; n < 60; n++) {
      const address = pick(next, [
        () => Array.from({ length: 4 }, () => Math.floor(next() * 300)).join("."),
        () => Array.from({ length: 8 }, () => Math.floor(next() * 0x10000).toString(16)).join(":"),
        () => `${text(next, HEX, 4)}::${text(next, HEX, 1 + Math.floor(next() * 4))}`,
        () => `::ffff:${Array.from({ length: 4 }, () => Math.floor(next() * 256)).join(".")}`,
        () => text(next, PRINTABLE, 1 + Math.floor(next() * 70)),
      ])();
      const response = await from("open", address, "server/discover");
      expect(response.status, address).toBe(200);
      expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 1, result: {} });
    }
  }, 120_000);

  it("keeps GET and DELETE with random session ids to JSON-RPC errors (404/400), never 5xx", async () => {
    const next = random(0x2125);
    for (let n = 0; n < 30; n++) {
      const sessionId = pick(next, [() => `${text(next, HEX, 64)}.${text(next, B64, 32)}`, () => text(next, PRINTABLE, 1 + Math.floor(next() * 100))])();
      const method = pick(next, ["GET", "DELETE"]);
      const response = await send("open", {
        method,
        headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", accept: "text/event-stream", "cf-connecting-ip": "203.0.113.222" },
      });
      expect([400, 404], `${method} ${sessionId}`).toContain(response.status);
      expect((await response.json<{ error?: { code: number } }>()).error?.code).toBe(-32600);
    }
  }, 120_000);
});
