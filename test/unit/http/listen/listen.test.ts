// 2026-07-28 subscriptions/listen: acknowledgement first, tagged notifications, the filter honoured, clean end.
import { describe, expect, it } from "vitest";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import { createServer } from "../../../../src/server/server.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { MODERN_META, modern } from "../../app-client.ts";
import { request } from "../../app-client.ts";

const server = createServer({
  info: { name: "listen", version: "1.0.0" },
  tools: [
    defineTool({
      name: "change_tools",
      description: "Announces that the tool list changed.",
      inputSchema: { type: "object" },
      handler: (_args, ctx) => {
        ctx.changes.toolsListChanged();
        return "changed";
      },
    }),
  ],
});
const app = createMcpApp({ server });

async function openListen(id: number, notifications: unknown) {
  const response = await request(app, "http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "subscriptions/listen",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: MODERN_META } }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const next = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split("\n").find((line) => line.startsWith("data: "));
        if (data) return JSON.parse(data.slice(6)) as Record<string, unknown>;
        continue;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error("stream ended");
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return { response, next, close: () => reader.cancel() };
}

describe("subscriptions/listen", () => {
  it("acknowledges first with the honoured filter, then tags each notification with the subscription id", async () => {
    const stream = await openListen(77, { toolsListChanged: true, somethingElse: true });
    expect(stream.response.headers.get("content-type")).toBe("text/event-stream");
    expect(await stream.next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": 77 } },
    });
    await modern(app, "tools/call", { name: "change_tools", arguments: {} });
    expect(await stream.next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 77 } },
    });
    await stream.close();
  });

  it("sends nothing a listener did not ask for", async () => {
    const prompts = await openListen(1, { promptsListChanged: true });
    const tools = await openListen(2, { toolsListChanged: true });
    await prompts.next();
    await tools.next();
    server.changes.toolsListChanged();
    server.changes.promptsListChanged();
    expect(await tools.next()).toMatchObject({ method: "notifications/tools/list_changed" });
    expect(await prompts.next()).toMatchObject({
      method: "notifications/prompts/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 1 } },
    });
    await prompts.close();
    await tools.close();
  });

  it("unsubscribes when the client closes the stream", async () => {
    const before = server.changes.listenerCount;
    const stream = await openListen(3, { toolsListChanged: true });
    await stream.next();
    expect(server.changes.listenerCount).toBe(before + 1);
    await stream.close();
    expect(server.changes.listenerCount).toBe(before);
  });

  it("refuses a malformed filter with -32602 before opening a stream", async () => {
    const reply = await modern(app, "subscriptions/listen", { notifications: { toolsListChanged: "yes" } });
    expect(reply.contentType).toBe("application/json");
    expect(reply.body["error"]).toMatchObject({ code: -32602 });
    expect((await modern(app, "subscriptions/listen", {})).body["error"]).toMatchObject({ code: -32602 });
  });
});
