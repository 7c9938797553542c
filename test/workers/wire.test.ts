// Good requests in both revisions: results match the official schemas; streaming tools answer with SSE.
import { describe, expect, it } from "vitest";
import { schemaErrors } from "../schema.ts";
import { MODERN_META, post, postModern, rpc } from "./post.ts";
import { readSse } from "./sse.ts";

const SERVER_INFO = { name: "edge-mcp-demo", title: "edge-mcp demo", version: "0.1.0" };

function legacyCall(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) {
  return post(
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } },
    { "mcp-protocol-version": "2025-11-25" },
  );
}

describe("2025-11-25 (legacy, stateless)", () => {
  it("initializes with the requested version and a schema-valid result", async () => {
    const response = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const body = await rpc(response);
    expect(body.result).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: SERVER_INFO, capabilities: { tools: {} } });
    expect(schemaErrors("2025-11-25", "InitializeResult", body.result)).toEqual([]);
  });

  it("negotiates: an older known version is kept, an unknown one gets our newest legacy version", async () => {
    const ask = async (protocolVersion: string) =>
      (
        await rpc(
          await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
        )
      ).result?.["protocolVersion"];
    expect(await ask("2025-03-26")).toBe("2025-03-26");
    expect(await ask("2026-07-28")).toBe("2025-11-25");
    expect(await ask("2099-01-01")).toBe("2025-11-25");
  });

  it("answers ping with an empty result", async () => {
    expect((await rpc(await post({ jsonrpc: "2.0", id: "p", method: "ping" }))).result).toEqual({});
  });

  it("lists the demo tools with a schema-valid result", async () => {
    const body = await rpc(await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" }));
    expect((body.result?.["tools"] as { name: string }[]).map((t) => t.name)).toEqual([
      "echo",
      "add",
      "countdown",
      "notebook_open",
      "notebook_append",
      "notebook_read",
      "report",
      "show_tally",
      "tally_bump",
    ]);
    expect(body.result?.["nextCursor"]).toBeUndefined();
    expect(schemaErrors("2025-11-25", "ListToolsResult", body.result)).toEqual([]);
  });

  it("calls add and echo as JSON responses", async () => {
    const add = await legacyCall("add", { a: 1.5, b: 2 });
    expect(add.headers.get("content-type")).toBe("application/json");
    const body = await rpc(add);
    expect(body.result).toEqual({ content: [{ type: "text", text: "The sum of 1.5 and 2 is 3.5" }], structuredContent: { sum: 3.5 } });
    expect(schemaErrors("2025-11-25", "CallToolResult", body.result)).toEqual([]);
    expect((await rpc(await legacyCall("echo", { text: "héllo ✓" }))).result).toEqual({ content: [{ type: "text", text: "héllo ✓" }] });
  });

  it("streams progress and logs over SSE before the result when the tool reports them", async () => {
    const response = await legacyCall("countdown", { from: 2, delayMs: 0 }, { progressToken: "tok" });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const messages = await readSse(response);
    expect(messages.map((m) => m["method"] ?? "result")).toEqual([
      "notifications/progress",
      "notifications/message",
      "notifications/progress",
      "notifications/message",
      "result",
    ]);
    expect(messages[0]).toMatchObject({ params: { progressToken: "tok", progress: 1, total: 2 } });
    expect(messages.at(-1)).toMatchObject({ id: 3, result: { content: [{ type: "text", text: "Lift-off after 2 steps" }] } });
  });
});

describe("2026-07-28 (modern, stateless)", () => {
  it("answers server/discover with versions, capabilities, caching hints and serverInfo", async () => {
    const response = await postModern("server/discover");
    expect(response.status).toBe(200);
    const body = await rpc(response);
    expect(body.result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: {} },
      ttlMs: 300000,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
    });
    expect(schemaErrors("2026-07-28", "DiscoverResult", body.result)).toEqual([]);
  });

  it("declares every extension the demo serves in server/discover: skills, tasks and apps together", async () => {
    const body = await rpc(await postModern("server/discover"));
    const extensions = (body.result?.["capabilities"] as { extensions?: Record<string, unknown> }).extensions;
    expect(Object.keys(extensions ?? {}).sort()).toEqual(["io.modelcontextprotocol/skills", "io.modelcontextprotocol/tasks", "io.modelcontextprotocol/ui"]);
  });

  it("lists tools with resultType, ttlMs, cacheScope and a schema-valid result", async () => {
    const body = await rpc(await postModern("tools/list"));
    expect(body.result).toMatchObject({ resultType: "complete", ttlMs: 300000, cacheScope: "public" });
    expect(schemaErrors("2026-07-28", "ListToolsResult", body.result)).toEqual([]);
  });

  it("calls add with a schema-valid result carrying resultType and serverInfo", async () => {
    const body = await rpc(await postModern("tools/call", { name: "add", arguments: { a: 2, b: 40 } }));
    expect(body.result).toEqual({
      content: [{ type: "text", text: "The sum of 2 and 40 is 42" }],
      structuredContent: { sum: 42 },
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
    });
    expect(schemaErrors("2026-07-28", "CallToolResult", body.result)).toEqual([]);
  });

  it("sends no log messages when the request names no log level", async () => {
    const response = await postModern("tools/call", { name: "countdown", arguments: { from: 2, delayMs: 0 }, _meta: { ...MODERN_META, progressToken: 5 } });
    const messages = await readSse(response);
    expect(messages.filter((m) => m["method"] === "notifications/message")).toEqual([]);
    expect(messages.filter((m) => m["method"] === "notifications/progress")).toHaveLength(2);
  });

  it("sends log messages at or above the level the request names", async () => {
    const meta = { ...MODERN_META, "io.modelcontextprotocol/logLevel": "info" };
    const messages = await readSse(await postModern("tools/call", { name: "countdown", arguments: { from: 2, delayMs: 0 }, _meta: meta }));
    expect(messages.filter((m) => m["method"] === "notifications/message")).toHaveLength(2);
    const quiet = { ...MODERN_META, "io.modelcontextprotocol/logLevel": "error" };
    const response = await postModern("tools/call", { name: "countdown", arguments: { from: 2, delayMs: 0 }, _meta: quiet });
    expect(response.headers.get("content-type")).toBe("application/json");
  });

  it("accepts notifications with 202", async () => {
    const response = await post(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: MODERN_META, requestId: 1 } },
      { "mcp-protocol-version": "2026-07-28" },
    );
    expect(response.status).toBe(202);
  });
});
