// The largest invalid inputs that fit under the limits, and bodies that arrive too slowly: always a well-formed answer.
import { describe, expect, it } from "vitest";
import { modern, resultOf, send } from "./fixture.ts";

const BODY_CAP = 1024 * 1024;

function call(tool: string, args: unknown) {
  return modern("plain", "tools/call", { name: tool, arguments: args }).then(resultOf);
}

/** Grows `make(n)` until its JSON nearly fills the body cap. */
function largest(make: (n: number) => unknown): unknown {
  let n = 1024;
  while (JSON.stringify(make(n * 2)).length < BODY_CAP - 4096) n *= 2;
  let step = n / 2;
  while (step >= 64) {
    if (JSON.stringify(make(n + step)).length < BODY_CAP - 4096) n += step;
    step /= 2;
  }
  return make(n);
}

const cases: [string, unknown][] = [
  ["70,000 strings where numbers belong", { lines: Array.from({ length: 70_000 }, () => "oops") }],
  ["the longest array of wrong items under the cap", largest((n) => ({ lines: Array.from({ length: n }, () => "x") }))],
  ["an array of objects where numbers belong", largest((n) => ({ lines: Array.from({ length: n }, () => ({ a: 1 })) }))],
  ["one string as long as the cap allows", largest((n) => ({ lines: "y".repeat(n) }))],
  [
    "an object with as many unknown properties as fit",
    largest((n) => ({ lines: 1, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) })),
  ],
  ["objects nested to the depth limit", { lines: [1], deep: JSON.parse(`${"[".repeat(55)}${"]".repeat(55)}`) as unknown }],
];

describe.each(["invoice_total", "invoice_total_zod"])("invalid arguments for %s", (tool) => {
  it.each(cases)("answers %s with an isError result that names the first problems", async (_label, args) => {
    const reply = await call(tool, args);
    expect(reply.status).toBe(200);
    expect(reply.error).toBeUndefined();
    expect(reply.result?.isError).toBe(true);
    const text = reply.result?.content[0]?.text as string;
    expect(text).toMatch(new RegExp(`^Invalid arguments for tool ${tool}: `));
    // A capped list: the answer stays small whatever the input.
    expect(text.length).toBeLessThan(2_000);
  });
});

describe("body read deadline", () => {
  it("answers 408 with a JSON-RPC error when the body trickles in slower than the tenant's deadline", async () => {
    const encoder = new TextEncoder();
    let sent = 0;
    const trickle = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.enqueue(encoder.encode(" "));
        if (++sent === 50) controller.close();
      },
    });
    const response = await send("open", { body: trickle, headers: { "mcp-protocol-version": "2025-11-25" } });
    expect(response.status).toBe(408);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringMatching(/did not arrive within 300 ms/) } });
  });

  it("accepts a body that arrives within the deadline in several chunks", async () => {
    const parts = ['{"jsonrpc":"2.0",', '"id":1,"method":"ping"}'];
    const chunked = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const part = parts.shift();
        if (part === undefined) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 20));
        controller.enqueue(new TextEncoder().encode(part));
      },
    });
    const response = await send("open", { body: chunked, headers: { "mcp-protocol-version": "2025-11-25" } });
    expect(response.status).not.toBe(408);
    await response.text();
  });
});
