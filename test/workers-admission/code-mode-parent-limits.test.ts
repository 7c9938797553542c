// The parent enforces code mode's output limits itself: whatever a program does to its own realm, what comes back
// (result, error name, message and stack, console text) is checked and cut before the parent holds or returns it.
import { describe, expect, it } from "vitest";
import { stillAnswers } from "./code-mode-runs.ts";
import { resultOf, send } from "./fixture.ts";

const MIB8 = 8 * 1024 * 1024;
// The "open" tenant runs with the default limits: 64 KiB of output, 16 KiB of console.
const OUTPUT = 65_536;
const CONSOLE = 16_384;
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
let caller = 0;

/** Runs a program on "open", from an address of its own (the tenant's tool rate limit counts per caller). */
async function execute(code: string, _tenant: "open") {
  const response = await send("open", {
    body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "execute", arguments: { code }, _meta: META } },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "execute", "cf-connecting-ip": `192.0.2.${++caller}` },
  });
  return resultOf(response);
}

const textOf = (reply: Awaited<ReturnType<typeof execute>>) => (reply.result?.content ?? []).map((block) => block.text).join("\n");

describe("limits the parent enforces", () => {
  it("cuts an uncaught error's 8 MiB message to the output limit", async () => {
    const reply = await execute(`throw new Error("m".repeat(${MIB8}));`, "open");
    expect(reply.result?.isError).toBe(true);
    const text = textOf(reply);
    expect(text).toMatch(/^The program failed at line 1: Error: m+/);
    expect(text.length).toBeLessThanOrEqual(OUTPUT + 200);
    await stillAnswers();
  });

  it("gives a fixed name for an 8 MiB error name, and cuts its message", async () => {
    const reply = await execute(`const e = new Error("short");\ne.name = "n".repeat(${MIB8});\nthrow e;`, "open");
    expect(textOf(reply)).toBe("The program failed at line 1: Error: short");
  });

  it("keeps the console to its limit when the program sets an index setter on Array.prototype", async () => {
    const reply = await execute(
      `Object.defineProperty(Array.prototype, "0", {
         configurable: true,
         set(value) { Object.defineProperty(this, "0", { value: "c".repeat(${MIB8}), writable: true, enumerable: true, configurable: true }); },
       });
       console.log("hello");
       return "done";`,
      "open",
    );
    const text = textOf(reply);
    expect(text.length).toBeLessThanOrEqual(OUTPUT + CONSOLE + 200);
    expect(text).toMatch(/^done\nconsole:\nhello/);
  });

  it("shows the program's error when its name is an object with a toString of its own, never calling it", async () => {
    const reply = await execute(`const e = new TypeError("the program's own");\ne.name = { toString() { return "Hijacked"; } };\nthrow e;`, "open");
    expect(reply.result?.isError).toBe(true);
    expect(textOf(reply)).toBe("The program failed at line 1: Error: the program's own");
  });

  it("shows a thrown non-Error object's text, and an error whose message is an object as a note", async () => {
    const thrown = await execute(`throw { toString() { return "plain object"; } };`, "open");
    expect(textOf(thrown)).toBe("The program failed: Error: plain object");
    const odd = await execute(`const e = new Error("x");\nObject.defineProperty(e, "message", { value: { big: true } });\nthrow e;`, "open");
    expect(textOf(odd)).toBe("The program failed at line 1: Error: ");
  });
});
