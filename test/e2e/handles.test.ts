// The 2026-07-28 client keeps a notebook across stateless calls through a handle (ctx.handles on a Durable Object).
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { connectModernClient, type ModernClient } from "./clients.ts";

let client: ModernClient | undefined;

beforeEach(async () => {
  client = await connectModernClient(`${inject("baseUrlAuto")}/mcp`);
});
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function call(name: string, args: Record<string, unknown>) {
  if (!client) throw new Error("not connected");
  return client.callTool({ name, arguments: args });
}

describe("notebook tools with the v2 client", () => {
  it("opens a notebook, appends twice and reads both lines back", async () => {
    const opened = await call("notebook_open", { title: "e2e" });
    const handle = (opened.structuredContent as { handle: string }).handle;
    expect(handle).toMatch(/^h_/);
    await call("notebook_append", { handle, text: "first" });
    const second = await call("notebook_append", { handle, text: "second" });
    expect(second.content).toEqual([{ type: "text", text: '"e2e" now has 2 line(s)' }]);
    const read = await call("notebook_read", { handle });
    expect(read.structuredContent).toEqual({ title: "e2e", entries: ["first", "second"] });
  });

  it("answers a forged handle with an isError result the model can act on", async () => {
    const result = await call("notebook_read", { handle: "h_forgedforgedforgedforgedforgedfo" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/unknown, has expired, or was not created for you/);
  });
});
