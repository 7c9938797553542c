// Code mode inside workerd: programs run in a Dynamic Worker (Worker Loader) with no network and no bindings,
// and every inner call is admitted exactly as a direct call of the caller (scopes, rate limits, handles).
import { describe, expect, it } from "vitest";
import { API_KEY, bearer, modern, resultOf, send, clearOfMinuteEnd } from "./fixture.ts";

type Result = Awaited<ReturnType<typeof resultOf>>;

/** Runs a program on a tenant ("secure": 3 s wall time, 5 calls, 200 bytes of output, 100 of console). */
async function execute(code: string, authorization: string | undefined = `Bearer ${API_KEY}`, tenant = "secure"): Promise<Result> {
  return resultOf(await modern(tenant, "tools/call", { name: "execute", arguments: { code } }, authorization));
}

const textOf = (reply: Result): string => (reply.result?.content ?? []).map((block) => block.text).join("\n");

describe("execute runs a program that calls tools", () => {
  it("gives the program's result only, from several tool calls", async () => {
    const reply = await execute(`
      const a = await tools.invoice_total({ lines: [1, 2] });
      const b = await tools.invoice_total({ lines: [10, 20] });
      return { a, b, calls: 2 };`);
    expect(reply.result?.isError).toBeUndefined();
    expect(JSON.parse(reply.result?.content[0]?.text ?? "")).toEqual({ a: "Total: 3", b: "Total: 30", calls: 2 });
    expect(reply.result?.["_meta"]).toMatchObject({ "edge-mcp/toolCalls": 2 });
  });

  it("accepts a module with a default export, and shows console output", async () => {
    const reply = await execute(`export default async function (tools) {\n  console.log("hello", { n: 1 });\n  return "done";\n}`);
    expect(reply.result?.content.map((block) => block.text)).toEqual(["done", 'console:\nhello {"n":1}']);
  });

  it("declares the caller's tools in TypeScript, with descriptions as doc comments, and per search result", async () => {
    const reader = await bearer({ scope: "profile:read" });
    const all = textOf(await resultOf(await modern("secure", "tools/call", { name: "tool_declarations", arguments: {} }, reader)));
    expect(all).toContain("declare const tools: {");
    expect(all).toContain("  /** Adds up invoice lines (zod schema). */\n  invoice_total_zod(args: {");
    expect(all).not.toMatch(/\binvoice_total\(/);
    expect(all).not.toMatch(/\bexecute\(/);
    const found = textOf(
      await resultOf(await modern("secure", "tools/call", { name: "tool_declarations", arguments: { query: "invoice lines" } }, `Bearer ${API_KEY}`)),
    );
    expect(found).toMatch(/^\/\/ \d+ of \d+ tools matched "invoice lines"/);
    expect(found).toContain("invoice_total(args: {\n    lines: number[];\n  }): Promise<string>;");
  });
});

describe("the sandbox has no network, no bindings and no env", () => {
  it("refuses fetch and connect, and has an empty env", async () => {
    const reply = await execute(
      `
      const out = {};
      try { await fetch("http://127.0.0.1/"); out.fetch = "reached"; } catch (e) { out.fetch = e.message; }
      try { const { connect } = await import("cloudflare:sockets"); const s = connect("127.0.0.1:80"); await s.opened; out.connect = "reached"; } catch (e) { out.connect = e.message; }
      const { env } = await import("cloudflare:workers");
      out.env = Object.keys(env);
      out.global = typeof MCP_LOADER + typeof MCP_SESSIONS + typeof process;
      return out;`,
      undefined,
      "open",
    );
    const out = JSON.parse(reply.result?.content[0]?.text ?? "{}") as Record<string, unknown>;
    expect(out["fetch"]).toMatch(/not permitted to access the internet/);
    expect(out["connect"]).toMatch(/not permitted to access the internet/);
    expect(out["env"]).toEqual([]);
    expect(out["global"]).toBe("undefinedundefinedundefined");
  });
});

describe("inner calls are admitted exactly as direct calls", () => {
  it("refuses a tool outside the caller's scopes with the direct call's error", async () => {
    const reader = await bearer({ scope: "profile:read" });
    const direct = await resultOf(await modern("secure", "tools/call", { name: "invoice_total", arguments: { lines: [1] } }, reader));
    expect(direct.status).toBe(403);
    const reply = await execute(
      `try { await tools.invoice_total({ lines: [1] }); return "ran"; } catch (e) { return { message: e.message, code: e.code }; }`,
      reader,
    );
    expect(JSON.parse(reply.result?.content[0]?.text ?? "{}")).toEqual({ message: direct.error?.message, code: direct.error?.code });
    // Uncaught, the refusal ends the program with an isError result naming the line.
    const uncaught = await execute(`\nawait tools.invoice_total({ lines: [1] });`, reader);
    expect(uncaught.result?.isError).toBe(true);
    expect(uncaught.result?.content[0]?.text).toBe(`The program failed at line 2: ToolError: ${direct.error?.message}`);
  });

  it("counts inner calls against the tool's rate limit, then refuses them like a direct call (429)", { timeout: 30_000 }, async () => {
    await clearOfMinuteEnd();
    const headers = { "cf-connecting-ip": "203.0.113.25", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" };
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    let id = 1;
    const post = (name: string, args: Record<string, unknown>) =>
      send("open", {
        body: { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args, _meta: meta } },
        headers: { ...headers, "mcp-name": name },
      });
    const reply = await resultOf(
      await post("execute", {
        code: `const seen = [];\nfor (let i = 0; i < 6; i++) {\n  try { await tools.whoami({}); seen.push("ok"); } catch (e) { seen.push(e.code); }\n}\nreturn seen;`,
      }),
    );
    expect(JSON.parse(reply.result?.content[0]?.text ?? "[]")).toEqual(["ok", "ok", "ok", "ok", "ok", -31429]);
    const direct = await post("whoami", {});
    expect(direct.status).toBe(429);
    expect(await direct.json()).toMatchObject({ error: { code: -31429 } });
  });

  it("cannot reach another caller's handles", async () => {
    const alice = await bearer({ sub: "alice", scope: "invoices:read" });
    const bob = await bearer({ sub: "bob", scope: "invoices:read" });
    const saved = await execute(`return await tools.note_save({ text: "alice's secret" });`, alice);
    const handle = saved.result?.content[0]?.text as string;
    expect(handle).toMatch(/^h_/);
    const own = await execute(`return await tools.note_read({ handle: ${JSON.stringify(handle)} });`, alice);
    expect(own.result?.content[0]?.text).toBe("alice's secret");
    const direct = await resultOf(await modern("secure", "tools/call", { name: "note_read", arguments: { handle } }, bob));
    const other = await execute(`return await tools.note_read({ handle: ${JSON.stringify(handle)} });`, bob);
    expect(other.result?.isError).toBe(true);
    expect(other.result?.content[0]?.text).toBe(`The program failed at line 1: ToolError: ${direct.result?.content[0]?.text}`);
    expect(other.result?.content[0]?.text).not.toContain("secret");
  });

  it("refuses call_tool and a task-only tool inside a program, as a direct call without tasks is refused", async () => {
    const reply = await execute(`
      const out = [];
      try { await tools.call_tool({ name: "whoami" }); } catch (e) { out.push(e.message); }
      try { await tools.approve({}); } catch (e) { out.push(e.message); }
      return out;`);
    expect(JSON.parse(reply.result?.content[0]?.text ?? "[]")).toEqual([
      "call_tool cannot be called from a program",
      "Tool approve runs only as a task; call it directly, not from another call",
    ]);
  });

  it("refuses execute inside a program, and calls past the limit", async () => {
    const reply = await execute(`
      const out = [];
      try { await tools.execute({ code: "return 1" }); } catch (e) { out.push(e.message); }
      for (let i = 0; i < 6; i++) { try { await tools.whoami({}); out.push("ok"); } catch (e) { out.push(e.message); } }
      return out;`);
    expect(JSON.parse(reply.result?.content[0]?.text ?? "[]")).toEqual([
      "execute cannot be called from a program",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "more than 5 tool calls in one run (the limit); do fewer, or split the work",
    ]);
  });
});

describe("limits and errors", () => {
  it("reports a thrown error with the program's message and line", async () => {
    const reply = await execute(`const a = 1;\nconst b = a + 1;\nif (b === 2) throw new RangeError("b is two");\nreturn b;`);
    expect(reply.result).toMatchObject({ isError: true, content: [{ text: "The program failed at line 3: RangeError: b is two" }] });
  });

  it("reports a syntax error as a tool error", async () => {
    const reply = await execute(`return (1 +;`);
    expect(reply.result?.isError).toBe(true);
    expect(reply.result?.content[0]?.text).toMatch(/SyntaxError/);
  });

  it("cuts output over the limit and says so", async () => {
    const reply = await execute(`return "é".repeat(500);`);
    const [output, note] = reply.result?.content ?? [];
    expect(new TextEncoder().encode(output?.text).length).toBe(200);
    expect(note?.text).toBe("[output cut: the program returned 1000 bytes, more than the limit of 200; return less (a summary, a slice)]");
  });

  it("keeps console output to its limit and says so", async () => {
    const reply = await execute(`for (let i = 0; i < 100; i++) console.log("line " + i);\nreturn 1;`);
    const consoleText = reply.result?.content[1]?.text ?? "";
    expect(consoleText).toMatch(/^console:\nline 0\nline 1\n/);
    expect(consoleText).toMatch(/\n\[console output cut at the limit\]$/);
    expect(consoleText.length).toBeLessThan(140);
  });

  it("ends a program that waits on something that never comes, at once", async () => {
    const reply = await execute(`await new Promise(() => {});`);
    expect(reply.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^The program could not run: .*hung/) }] });
  });

  it("ends a program that waits too long at the wall time limit", async () => {
    const started = Date.now();
    const reply = await execute(`await new Promise((resolve) => setTimeout(resolve, 60_000));`);
    expect(reply.result).toMatchObject({
      isError: true,
      content: [{ text: "The program did not finish within 3000 ms (the wall time limit) and was stopped." }],
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("a program is the model's: app-only tools are not its to see or call", () => {
  it("leaves shop_cart_update out of the declarations and answers a call of it as an unknown tool, even with the scope", async () => {
    const authorization = await bearer({ tenant: "gallery", scope: "cart:write" });
    const declared = textOf(await resultOf(await modern("gallery", "tools/call", { name: "tool_declarations", arguments: {} }, authorization)));
    expect(declared).toContain("shop_cart_show");
    expect(declared).not.toContain("shop_cart_update");
    const reply = await execute(
      `try { await tools.shop_cart_update({ items: 2 }); return "called"; } catch (e) { return e.message; }`,
      authorization,
      "gallery",
    );
    expect(textOf(reply)).toContain("Unknown tool: shop_cart_update");
  });
});
