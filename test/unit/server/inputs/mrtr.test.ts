// Multi round-trip requests (2026-07-28 MRTR): input_required, signed requestState, retries; 2025 without a session.
import { describe, expect, it } from "vitest";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import { definePrompt } from "../../../../src/server/prompts/define-prompt.ts";
import { createServer } from "../../../../src/server/server.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { schemaErrors } from "../../../schema.ts";
import { legacy, modern } from "../../app-client.ts";

const ELICIT = { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };
let runs = 0;

const server = createServer({
  info: { name: "mrtr", version: "1.0.0" },
  tools: [
    defineTool({
      name: "greet",
      description: "Asks the user's name, then greets them.",
      inputSchema: { type: "object", properties: { lang: { type: "string" } } },
      handler: async (args, ctx) => {
        runs++;
        const answer = await ctx.elicit(ELICIT, { key: "user_name" });
        if (answer.action !== "accept") return `No name (${answer.action})`;
        return `${args["lang"] === "fr" ? "Bonjour" : "Hello"}, ${String(answer.content?.["name"])}!`;
      },
    }),
    defineTool({
      name: "two_rounds",
      description: "Asks two questions, one after the other.",
      inputSchema: { type: "object" },
      handler: async (_args, ctx) => {
        const name = await ctx.elicit(ELICIT, { key: "name" });
        const color = await ctx.elicit(
          { message: "Colour?", requestedSchema: { type: "object", properties: { color: { type: "string" } } } },
          { key: "color" },
        );
        return `${String(name.content?.["name"])} likes ${String(color.content?.["color"])}`;
      },
    }),
    defineTool({
      name: "all_at_once",
      description: "Asks for three inputs in one round.",
      inputSchema: { type: "object" },
      handler: async (_args, ctx) => {
        const answers = await ctx.input({
          user: { method: "elicitation/create", params: ELICIT },
          model: { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 10 } },
          roots: { method: "roots/list" },
        });
        return `got ${Object.keys(answers).sort().join(",")}`;
      },
    }),
  ],
  prompts: [
    definePrompt({
      name: "context_prompt",
      description: "Asks for context before building the prompt.",
      get: async (_args, ctx) => {
        const answer = await ctx.elicit(
          { message: "Context?", requestedSchema: { type: "object", properties: { context: { type: "string" } } } },
          { key: "ctx" },
        );
        return [{ role: "user", content: { type: "text", text: `Context: ${String(answer.content?.["context"])}` } }];
      },
    }),
  ],
});
const app = createMcpApp({ server, stateSecret: "test-secret" });
const CAPS = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {}, roots: {} } };
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

function result(reply: { body: Record<string, unknown> }): Record<string, unknown> {
  return reply.body["result"] as Record<string, unknown>;
}

describe("MRTR (2026-07-28)", () => {
  it("answers input_required with the keyed request and a state, then completes on the retry", async () => {
    const first = result(await modern(app, "tools/call", { name: "greet", arguments: { lang: "fr" } }, CAPS));
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { user_name: { method: "elicitation/create", params: ELICIT } } });
    expect(first["requestState"]).toEqual(expect.any(String));
    expect(first["ttlMs"]).toBeUndefined();
    expect(schemaErrors("2026-07-28", "InputRequiredResult", first)).toEqual([]);
    const retry = { name: "greet", arguments: { lang: "fr" }, inputResponses: { user_name: accept({ name: "Ada" }) }, requestState: first["requestState"] };
    const done = result(await modern(app, "tools/call", retry, CAPS));
    expect(done).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Bonjour, Ada!" }] });
  });

  it("completes from inputResponses alone and ignores keys it did not ask for", async () => {
    const inputResponses = { user_name: accept({ name: "Bo" }), extra: { action: "accept", content: { x: 1 } } };
    expect(result(await modern(app, "tools/call", { name: "greet", arguments: {}, inputResponses }, CAPS))).toMatchObject({
      resultType: "complete",
      content: [{ text: "Hello, Bo!" }],
    });
  });

  it("asks again when an answer is missing or malformed", async () => {
    const malformed = [
      { wrong_key: accept({}) },
      { user_name: 12345 },
      { user_name: { action: "maybe" } },
      // An accept whose content is not an object, or does not match requestedSchema, is no answer either.
      { user_name: { action: "accept", content: "x" } },
      { user_name: { action: "accept" } },
      { user_name: accept({}) },
      { user_name: accept({ name: 42 }) },
      { user_name: accept({ name: "Ada", extra: { nested: true } }) },
    ];
    for (const inputResponses of malformed) {
      expect(result(await modern(app, "tools/call", { name: "greet", arguments: {}, inputResponses }, CAPS))).toMatchObject({ resultType: "input_required" });
    }
  });

  it("refuses a tampered state, a state for other arguments, and malformed MRTR params with -32602", async () => {
    const first = result(await modern(app, "tools/call", { name: "greet", arguments: {} }, CAPS));
    const state = first["requestState"] as string;
    const answer = { user_name: accept({ name: "Ada" }) };
    for (const params of [
      { name: "greet", arguments: {}, inputResponses: answer, requestState: `${state}-TAMPERED` },
      { name: "greet", arguments: { lang: "fr" }, inputResponses: answer, requestState: state },
      { name: "greet", arguments: {}, inputResponses: null },
      { name: "greet", arguments: {}, requestState: 42 },
    ]) {
      const reply = await modern(app, "tools/call", params, CAPS);
      expect(reply.body["error"]).toMatchObject({ code: -32602 });
      expect(reply.body["result"]).toBeUndefined();
    }
  });

  it("carries earlier answers across rounds in the state", async () => {
    const r1 = result(await modern(app, "tools/call", { name: "two_rounds", arguments: {} }, CAPS));
    expect(Object.keys(r1["inputRequests"] as object)).toEqual(["name"]);
    const r2 = result(
      await modern(
        app,
        "tools/call",
        { name: "two_rounds", arguments: {}, inputResponses: { name: accept({ name: "Ada" }) }, requestState: r1["requestState"] },
        CAPS,
      ),
    );
    expect(Object.keys(r2["inputRequests"] as object)).toEqual(["color"]);
    expect(r2["requestState"]).not.toBe(r1["requestState"]);
    const r3 = result(
      await modern(
        app,
        "tools/call",
        { name: "two_rounds", arguments: {}, inputResponses: { color: accept({ color: "blue" }) }, requestState: r2["requestState"] },
        CAPS,
      ),
    );
    expect(r3).toMatchObject({ resultType: "complete", content: [{ text: "Ada likes blue" }] });
  });

  it("asks for several inputs of different kinds in one round", async () => {
    const r1 = result(await modern(app, "tools/call", { name: "all_at_once", arguments: {} }, CAPS));
    expect(Object.values(r1["inputRequests"] as Record<string, { method: string }>).map((r) => r.method)).toEqual([
      "elicitation/create",
      "sampling/createMessage",
      "roots/list",
    ]);
    const inputResponses = {
      user: accept({ name: "A" }),
      model: { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" },
      roots: { roots: [] },
    };
    expect(
      result(await modern(app, "tools/call", { name: "all_at_once", arguments: {}, inputResponses, requestState: r1["requestState"] }, CAPS)),
    ).toMatchObject({ content: [{ text: "got model,roots,user" }] });
  });

  it("answers 400 -32021 naming every capability the client lacks", async () => {
    const reply = await modern(app, "tools/call", { name: "all_at_once", arguments: {} }, { "io.modelcontextprotocol/clientCapabilities": { sampling: {} } });
    expect(reply.status).toBe(400);
    expect(reply.body["error"]).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {}, roots: {} } } });
    expect(schemaErrors("2026-07-28", "MissingRequiredClientCapabilityError", reply.body)).toEqual([]);
  });

  it("works for prompts/get too", async () => {
    const r1 = result(await modern(app, "prompts/get", { name: "context_prompt" }, CAPS));
    expect(r1).toMatchObject({ resultType: "input_required", inputRequests: { ctx: { method: "elicitation/create" } } });
    const r2 = result(
      await modern(
        app,
        "prompts/get",
        { name: "context_prompt", inputResponses: { ctx: accept({ context: "tests" }) }, requestState: r1["requestState"] },
        CAPS,
      ),
    );
    expect(r2).toMatchObject({ resultType: "complete", messages: [{ content: { text: "Context: tests" } }] });
  });

  it("refuses a state minted by a server with another secret", async () => {
    const first = result(await modern(app, "tools/call", { name: "greet", arguments: {} }, CAPS));
    const other = createMcpApp({ server, stateSecret: "another-secret" });
    const reply = await modern(other, "tools/call", { name: "greet", arguments: {}, inputResponses: {}, requestState: first["requestState"] }, CAPS);
    expect(reply.body["error"]).toMatchObject({ code: -32602 });
  });
});

describe("input requests in 2025-11-25 without a session", () => {
  it("answers an isError result that says what the client must support", async () => {
    const before = runs;
    const reply = await legacy(app, "tools/call", { name: "greet", arguments: {} });
    expect(runs).toBe(before + 1);
    expect(result(reply)["isError"]).toBe(true);
    expect(JSON.stringify(reply.body)).toMatch(/elicitation\/create.*session/);
  });
});
