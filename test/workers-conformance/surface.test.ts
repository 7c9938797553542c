// The full server surface inside workerd, through the conformance fixture: good answers and each feature's bad input.
import { env } from "cloudflare:workers";
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { legacy, modern, modernResponse } from "./fixture.ts";

const ALL_CAPS = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {}, roots: {} } };

describe("resources", () => {
  it("reads text and binary resources and a templated one", async () => {
    expect(await legacy("resources/read", { uri: "test://static-text" })).toMatchObject({
      result: { contents: [{ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }] },
    });
    expect(await modern("resources/read", { uri: "test://static-binary" })).toMatchObject({
      result: { contents: [{ mimeType: "image/png", blob: expect.any(String) }], ttlMs: expect.any(Number), cacheScope: "public" },
    });
    expect(JSON.stringify(await legacy("resources/read", { uri: "test://template/123/data" }))).toMatch(/123/);
  });

  it("answers an unknown URI with -32002 (2025) and -32602 with data.uri (2026)", async () => {
    const uri = "test://nonexistent";
    expect((await legacy("resources/read", { uri }))["error"]).toMatchObject({ code: -32002, data: { uri } });
    expect((await modern("resources/read", { uri }))["error"]).toMatchObject({ code: -32602, data: { uri } });
  });
});

describe("prompts and completion", () => {
  it("refuses a prompt without its required arguments, naming them", async () => {
    const error = (await modern("prompts/get", { name: "test_prompt_with_arguments", arguments: { arg1: "x" } }))["error"] as { code: number; message: string };
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/arg2/);
  });

  it.each(["constructor", "__proto__", "toString"])("completes the template argument %s, a prototype member name, with no values", async (name) => {
    const reply = await legacy("completion/complete", { ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name, value: "" } });
    expect(reply).toMatchObject({ result: { completion: { values: [], total: 0, hasMore: false } } });
  });

  it("refuses a completion request with a bad reference", async () => {
    for (const ref of [{ type: "ref/prompt", name: "no_such_prompt" }, { type: "ref/unknown" }, "ref/prompt"]) {
      expect((await legacy("completion/complete", { ref, argument: { name: "arg1", value: "" } }))["error"]).toMatchObject({ code: -32602 });
    }
  });
});

describe("MRTR", () => {
  it("completes after input_required and refuses a tampered requestState", async () => {
    const first = (await modern("tools/call", { name: "test_input_required_result_tampered_state", arguments: {} }, ALL_CAPS))["result"] as Record<
      string,
      unknown
    >;
    expect(first["resultType"]).toBe("input_required");
    const key = Object.keys(first["inputRequests"] as object)[0] as string;
    const answer = { [key]: { action: "accept", content: { ok: true } } };
    const tampered = await modern(
      "tools/call",
      { name: "test_input_required_result_tampered_state", arguments: {}, inputResponses: answer, requestState: `${String(first["requestState"])}x` },
      ALL_CAPS,
    );
    expect(tampered["error"]).toMatchObject({ code: -32602 });
    const retry = await modern(
      "tools/call",
      { name: "test_input_required_result_tampered_state", arguments: {}, inputResponses: answer, requestState: first["requestState"] },
      ALL_CAPS,
    );
    expect(retry["result"]).toMatchObject({ resultType: "complete" });
  });

  it("answers 400 -32021 when the client lacks the capability a tool needs", async () => {
    const reply = await modern("tools/call", { name: "test_missing_capability", arguments: {} });
    expect(reply).toMatchObject({ status: 400, error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } } });
  });
});

describe("subscriptions/listen", () => {
  it("acknowledges without unknown filter kinds, and delivers a change triggered by another request", async () => {
    const response = await modernResponse("subscriptions/listen", { notifications: { toolsListChanged: true, unknownKind: true } });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(/acknowledged/);
    expect(text).toMatch(/"notifications":\{"toolsListChanged":true\}/);
    expect(text).not.toMatch(/unknownKind/);
    await modern("tools/call", { name: "test_trigger_tool_change", arguments: {} });
    await until(/tools\/list_changed/);
    expect(text).toMatch(/"method":"notifications\/tools\/list_changed","params":\{"_meta":\{"io.modelcontextprotocol\/subscriptionId":\d+\}\}/);
    await reader.cancel();
    // The notification travelled through the tenant's hub object, not this isolate's memory.
    const hubs = await listDurableObjectIds((env as unknown as { MCP_NOTIFICATIONS: DurableObjectNamespace }).MCP_NOTIFICATIONS);
    expect(hubs).toHaveLength(1);
  });

  it("refuses a malformed filter with -32602", async () => {
    expect((await modern("subscriptions/listen", { notifications: { resourceSubscriptions: "test://x" } }))["error"]).toMatchObject({ code: -32602 });
  });
});
