// Resources, prompts, completion and capabilities through whole requests in both eras.
import { describe, expect, it } from "vitest";
import { createMcpApp } from "../../src/http/mcp-app.ts";
import { definePrompt } from "../../src/server/prompts/define-prompt.ts";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { defineResource, defineResourceTemplate } from "../../src/server/resources/define-resource.ts";
import { defineSkill } from "../../src/server/skills/compile-skill.ts";
import { createServer } from "../../src/server/server.ts";
import { defineTool } from "../../src/server/tools/tool.ts";
import { schemaErrors } from "../schema.ts";
import { legacy, modern } from "./app-client.ts";

const server = createServer({
  info: { name: "surface", version: "1.0.0" },
  tools: [defineTool({ name: "noop", description: "Does nothing.", inputSchema: { type: "object" }, handler: () => "ok" })],
  resources: [
    defineResource({ uri: "test://text", name: "text", title: "Text", mimeType: "text/plain", read: () => "hello" }),
    defineResource({ uri: "test://bytes", name: "bytes", mimeType: "application/octet-stream", read: () => new Uint8Array([0, 1, 2, 255]) }),
  ],
  resourceTemplates: [
    defineResourceTemplate({
      uriTemplate: "test://items/{id}",
      name: "item",
      mimeType: "application/json",
      read: ({ variables }) => (variables["id"] === "missing" ? undefined : JSON.stringify({ id: variables["id"] })),
      complete: { id: (value) => ["apple", "apricot", "banana"].filter((v) => v.startsWith(value)) },
    }),
  ],
  prompts: [
    definePrompt({
      name: "greet",
      description: "Greets someone.",
      arguments: [{ name: "name", required: true }, { name: "style" }],
      get: (args) => [{ role: "user", content: { type: "text", text: `Say hello to ${args["name"]}${args["style"] ? ` in a ${args["style"]} way` : ""}` } }],
      complete: { style: () => Array.from({ length: 150 }, (_, i) => `style${i}`) },
    }),
  ],
});
const app = createMcpApp({ server });

describe("resources", () => {
  it("lists resources and templates, schema-valid in both eras, with caching hints in 2026", async () => {
    const list = await legacy(app, "resources/list");
    expect((list.body["result"] as { resources: { uri: string }[] }).resources.map((r) => r.uri)).toEqual(["test://text", "test://bytes"]);
    expect(schemaErrors("2025-11-25", "ListResourcesResult", list.body["result"])).toEqual([]);
    const templates = await modern(app, "resources/templates/list");
    expect(templates.body["result"]).toMatchObject({
      resourceTemplates: [{ uriTemplate: "test://items/{id}", name: "item" }],
      ttlMs: 300000,
      cacheScope: "public",
    });
    expect(schemaErrors("2026-07-28", "ListResourceTemplatesResult", templates.body["result"])).toEqual([]);
    expect(JSON.stringify(templates.body)).not.toMatch(/"complete":|"read":/);
  });

  it("reads text, binary (base64) and templated resources", async () => {
    expect((await legacy(app, "resources/read", { uri: "test://text" })).body["result"]).toEqual({
      contents: [{ uri: "test://text", text: "hello", mimeType: "text/plain" }],
    });
    const bytes = await modern(app, "resources/read", { uri: "test://bytes" });
    expect(bytes.body["result"]).toMatchObject({
      contents: [{ uri: "test://bytes", blob: "AAEC/w==", mimeType: "application/octet-stream" }],
      resultType: "complete",
      ttlMs: 300000,
      cacheScope: "public",
    });
    expect(schemaErrors("2026-07-28", "ReadResourceResult", bytes.body["result"])).toEqual([]);
    expect((await legacy(app, "resources/read", { uri: "test://items/42" })).body["result"]).toEqual({
      contents: [{ uri: "test://items/42", text: '{"id":"42"}', mimeType: "application/json" }],
    });
  });

  it("answers an unknown URI with -32002 in 2025 and -32602 in 2026, both naming the uri", async () => {
    for (const uri of ["test://nope", "test://items/missing"]) {
      expect((await legacy(app, "resources/read", { uri })).body["error"]).toEqual({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } });
      expect((await modern(app, "resources/read", { uri })).body["error"]).toEqual({ code: -32602, message: `Resource not found: ${uri}`, data: { uri } });
    }
    expect((await legacy(app, "resources/read", {})).body["error"]).toMatchObject({ code: -32602 });
  });

  it("acknowledges 2025 subscribe and unsubscribe, and has neither in 2026", async () => {
    expect((await legacy(app, "resources/subscribe", { uri: "test://text" })).body["result"]).toEqual({});
    expect((await legacy(app, "resources/unsubscribe", { uri: "test://text" })).body["result"]).toEqual({});
    expect((await modern(app, "resources/subscribe", { uri: "test://text" })).status).toBe(404);
  });
});

describe("resource templates and where their matcher comes from", () => {
  const plain = { uriTemplate: "test://plain/{id}", name: "plain", read: ({ variables }: { variables: Record<string, string> }) => `plain ${variables["id"]}` };
  const skill = defineSkill({ name: "tiny", files: { "SKILL.md": "---\nname: tiny\ndescription: A tiny skill.\n---\n" } });

  it("serves a plain template object next to a defined resource, as defineResource brings the URI templates too", async () => {
    const withResource = createServer({
      info: { name: "t", version: "1" },
      resources: [defineResource({ uri: "test://one", name: "one", read: () => "1" })],
      resourceTemplates: [plain],
    });
    expect((await legacy(createMcpApp({ server: withResource }), "resources/read", { uri: "test://plain/7" })).body["result"]).toEqual({
      contents: [{ uri: "test://plain/7", text: "plain 7" }],
    });
  });

  it("refuses at startup a plain template object whose server brings resources only through skills, naming defineResourceTemplate", () => {
    const build = () => createServer({ info: { name: "t", version: "1" }, skills: [skill], resourceTemplates: [plain] });
    expect(build).toThrow(DefinitionError);
    expect(build).toThrow("resource template test://plain/{id}: declare it with defineResourceTemplate(…)");
    // Declared with defineResourceTemplate, the same template is served next to the skill.
    const server = createServer({ info: { name: "t", version: "1" }, skills: [skill], resourceTemplates: [defineResourceTemplate(plain)] });
    expect(server.hasMethod("resources/templates/list", "legacy")).toBe(true);
  });
});

describe("prompts", () => {
  it("lists prompts and gets one with its arguments, schema-valid", async () => {
    const list = await modern(app, "prompts/list");
    expect(list.body["result"]).toMatchObject({
      prompts: [{ name: "greet", description: "Greets someone.", arguments: [{ name: "name", required: true }, { name: "style" }] }],
    });
    expect(schemaErrors("2026-07-28", "ListPromptsResult", list.body["result"])).toEqual([]);
    const got = await legacy(app, "prompts/get", { name: "greet", arguments: { name: "Ada", style: "warm" } });
    expect(got.body["result"]).toEqual({
      description: "Greets someone.",
      messages: [{ role: "user", content: { type: "text", text: "Say hello to Ada in a warm way" } }],
    });
    expect(schemaErrors("2025-11-25", "GetPromptResult", got.body["result"])).toEqual([]);
  });

  it.each([
    [{ name: "greet" }, /missing required argument name/],
    [{ name: "greet", arguments: { name: 5 } }, /must be a string/],
    [{ name: "greet", arguments: "Ada" }, /must be an object/],
    [{ name: "nope" }, /Unknown prompt: nope/],
    [{}, /params.name/],
  ])("refuses prompts/get %j with -32602", async (params, message) => {
    const error = (await legacy(app, "prompts/get", params)).body["error"] as { code: number; message: string };
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(message);
  });
});

describe("completion", () => {
  it("completes prompt arguments (at most 100 values) and template variables", async () => {
    const style = await legacy(app, "completion/complete", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "style", value: "" } });
    expect(style.body["result"]).toMatchObject({ completion: { total: 150, hasMore: true } });
    expect((style.body["result"] as { completion: { values: string[] } }).completion.values).toHaveLength(100);
    const id = await modern(app, "completion/complete", { ref: { type: "ref/resource", uri: "test://items/{id}" }, argument: { name: "id", value: "ap" } });
    expect(id.body["result"]).toMatchObject({ completion: { values: ["apple", "apricot"], total: 2, hasMore: false }, resultType: "complete" });
    expect(schemaErrors("2026-07-28", "CompleteResult", id.body["result"])).toEqual([]);
    const none = await legacy(app, "completion/complete", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } });
    expect(none.body["result"]).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it.each([
    [{ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } }],
    [{ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "unknown", value: "" } }],
    [{ ref: { type: "ref/resource", uri: "test://unknown/{x}" }, argument: { name: "x", value: "" } }],
    [{ ref: { type: "ref/tool", name: "noop" }, argument: { name: "x", value: "" } }],
    [{ ref: { type: "ref/prompt", name: "greet" } }],
    [{}],
  ])("refuses the bad completion request %j with -32602", async (params) => {
    expect((await legacy(app, "completion/complete", params)).body["error"]).toMatchObject({ code: -32602 });
  });
});

describe("capabilities", () => {
  it("declares what the server has: no listChanged without a session in 2025, listChanged in 2026", async () => {
    const init = await legacy(app, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect((init.body["result"] as Record<string, unknown>)["capabilities"]).toEqual({
      logging: {},
      completions: {},
      tools: {},
      prompts: {},
      resources: { subscribe: true },
    });
    const discover = await modern(app, "server/discover");
    expect((discover.body["result"] as Record<string, unknown>)["capabilities"]).toEqual({
      logging: {},
      completions: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
  });

  it("answers methods of undeclared features with -32601 (404 in 2026)", async () => {
    const bare = createMcpApp({ server: createServer({ info: { name: "bare", version: "1" } }) });
    expect((await modern(bare, "prompts/list")).status).toBe(404);
    expect((await modern(bare, "tools/list")).body["error"]).toMatchObject({ code: -32601 });
    expect((await legacy(bare, "resources/read", { uri: "x://y" })).body["error"]).toMatchObject({ code: -32601 });
    expect((await modern(bare, "server/discover")).body["result"]).toMatchObject({ capabilities: { logging: {} } });
  });
});
