// Tool search through whole requests: search_tools, describe_tools, call_tool, exposure modes, views per caller.
import { fullJsonSchema } from "../../../../src/json-schema.ts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { ErrorCode, ProtocolError } from "../../../../src/core/errors.ts";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import type { Authorizer } from "../../../../src/http/admission/authorizer.ts";
import { createServer } from "../../../../src/server/server.ts";
import { toolSearch } from "../../../../src/server/search/tool-search-engine.ts";
import { defineTool, type ToolDefinition } from "../../../../src/server/tools/tool.ts";
import type { JsonSchema } from "../../../../src/core/types.ts";
import { schemaErrors } from "../../../schema.ts";
import { legacy, modern, type Reply } from "../../app-client.ts";
import { request } from "../../app-client.ts";

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const tool = (name: string, description: string, extra: Partial<ToolDefinition<JsonSchema>> = {}): ToolDefinition =>
  defineTool({
    name,
    description,
    inputSchema: { type: "object", properties: { id: { type: "string", description: "Record id." } } },
    handler: () => `ran ${name}`,
    ...extra,
  });

const tools: ToolDefinition[] = [
  tool("invoice_total", "Adds up the lines of an invoice.", {
    inputSchema: { type: "object", properties: { lines: { type: "array", items: { type: "number" } } }, required: ["lines"], additionalProperties: false },
    handler: (args) => `Total: ${(args["lines"] as number[]).reduce((a, b) => a + b, 0)}`,
  }),
  tool("report_export", "Exports a report. It quotes invoice_total, invoice total, invoice total."),
  tool("crm_contact_update", "Updates a contact in the CRM. Second sentence is left out of summaries.", { title: "Update contact" }),
  tool("crm_contact_get", "Reads a contact from the CRM."),
  tool("confirm_delete", "Deletes after asking the user.", {
    handler: async (_args, ctx) => (await ctx.elicit({ message: "Sure?", requestedSchema: { type: "object", properties: {} } }, { key: "sure" })).action,
  }),
  tool("slow", "Takes a second.", { handler: () => new Promise<string>((resolve) => setTimeout(() => resolve("late"), 1000)) }),
];

const info = { name: "search-test", version: "1.0.0" };
const app = createMcpApp({
  server: createServer({ info, tools, toolSearch: toolSearch({ pinned: ["crm_contact_get"] }) }),
  stateSecret: "s",
  limits: { toolTimeoutMs: 200 },
});
const pinnedApp = createMcpApp({ server: createServer({ info, tools, toolSearch: toolSearch({ exposure: "pinned", pinned: ["invoice_total"] }) }) });

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
const result = (reply: Reply) => reply.body["result"] as ToolResult;
const call = (name: string, args: Record<string, unknown>, target = app) => modern(target, "tools/call", { name, arguments: args });
const listNames = async (target = app) => ((await modern(target, "tools/list")).body["result"] as { tools: { name: string }[] }).tools.map((t) => t.name);

describe("search_tools", () => {
  it("ranks the tool named exactly above one whose description repeats the name, and says N of M first", async () => {
    const found = result(await call("search_tools", { query: "invoice_total" }));
    expect(found.content[0]?.text).toMatch(/^2 of 6 tools matched "invoice_total":\n- invoice_total: Adds up the lines of an invoice\.\n- report_export: /);
    expect(found.structuredContent).toMatchObject({
      query: "invoice_total",
      matched: 2,
      total: 6,
      tools: [{ name: "invoice_total" }, { name: "report_export" }],
    });
  });

  it("answers every detail level with the same tools: names, summaries, or full definitions", async () => {
    const names = result(await call("search_tools", { query: "contact", detail: "names" }));
    // crm_contact_update's title says "contact" too.
    expect(names.structuredContent?.["tools"]).toEqual([{ name: "crm_contact_update" }, { name: "crm_contact_get" }]);
    expect(names.content[0]?.text).toBe(
      '2 of 6 tools matched "contact":\n- crm_contact_update\n- crm_contact_get\nCall a tool by its name, or through call_tool {name, arguments}; describe_tools {names} gives full definitions.',
    );
    const summaries = result(await call("search_tools", { query: "update contact" }));
    expect((summaries.structuredContent?.["tools"] as unknown[])[0]).toEqual({
      name: "crm_contact_update",
      title: "Update contact",
      description: "Updates a contact in the CRM.",
    });
    const full = result(await call("search_tools", { query: "update contact", detail: "full", limit: 1 }));
    const listed = ((await modern(app, "tools/list")).body["result"] as { tools: Record<string, unknown>[] }).tools.find(
      (t) => t["name"] === "crm_contact_update",
    );
    expect(full.structuredContent).toMatchObject({ matched: 2, tools: [listed] });
    expect(full.content[0]?.text).toMatch(/^2 of 6 tools matched "update contact"; the best 1:\n\{"name":"crm_contact_update"/);
  });

  it("picks tools by exact name with select:, naming the ones it cannot find", async () => {
    const picked = result(await call("search_tools", { query: "select:crm_contact_get, nope ,invoice_total" }));
    expect(picked.structuredContent).toMatchObject({ matched: 2, tools: [{ name: "crm_contact_get" }, { name: "invoice_total" }], notFound: ["nope"] });
    expect(picked.content[0]?.text).toMatch(/^2 of 6 tools matched "select:crm_contact_get, nope ,invoice_total":/);
    expect(picked.content[0]?.text).toMatch(/\nNot found: nope \(no such tool, or not one you may call\)\./);
  });

  it("says so when nothing matches, and refuses a query that breaks its schema with an isError result", async () => {
    expect(result(await call("search_tools", { query: "zebra" })).content[0]?.text).toMatch(/^0 of 6 tools matched "zebra"\.\nTry other words/);
    for (const args of [
      {},
      { query: "" },
      { query: "x", limit: 0 },
      { query: "x", limit: 51 },
      { query: "x", detail: "everything" },
      { query: "x", extra: 1 },
    ]) {
      const refused = result(await call("search_tools", args));
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toMatch(/^Invalid arguments for tool search_tools/);
    }
  });

  it("returns results valid against the 2025-11-25 and 2026-07-28 schemas, with structuredContent matching its outputSchema", async () => {
    expect(schemaErrors("2026-07-28", "CallToolResult", result(await call("search_tools", { query: "contact" })))).toEqual([]);
    const old = await legacy(app, "tools/call", { name: "search_tools", arguments: { query: "contact" } });
    expect(schemaErrors("2025-11-25", "CallToolResult", old.body["result"])).toEqual([]);
    expect(result(old).isError).toBeUndefined();
  });
});

describe("describe_tools", () => {
  it("gives full definitions of the named tools and names the unknown ones", async () => {
    const described = result(await call("describe_tools", { names: ["invoice_total", "ghost"] }));
    expect(described.structuredContent).toEqual({
      tools: [{ name: "invoice_total", description: "Adds up the lines of an invoice.", inputSchema: tools[0]?.inputSchema }],
      notFound: ["ghost"],
    });
    expect(described.content[0]?.text).toMatch(/^1 of 2 tools described:\n\{"name":"invoice_total"/);
  });
});

describe("call_tool", () => {
  it("runs the named tool with its arguments, checked against that tool's inputSchema", async () => {
    expect(result(await call("call_tool", { name: "invoice_total", arguments: { lines: [1, 2] } })).content[0]?.text).toBe("Total: 3");
    const invalid = result(await call("call_tool", { name: "invoice_total", arguments: { lines: "x" } }));
    expect(invalid).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Invalid arguments for tool invoice_total: \/lines/) }] });
  });

  it("answers an unknown tool with -32602, as a direct call does", async () => {
    const direct = await call("ghost", {});
    const through = await call("call_tool", { name: "ghost" });
    expect(through.body["error"]).toEqual(direct.body["error"]);
    expect(through.body["error"]).toMatchObject({ code: -32602, message: "Unknown tool: ghost" });
  });

  it("refuses to call itself and arguments that do not fit call_tool, with isError results", async () => {
    expect(result(await call("call_tool", { name: "call_tool", arguments: { name: "invoice_total" } }))).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^call_tool calls other tools/) }],
    });
    expect(result(await call("call_tool", { name: "invoice_total", arguments: [1] }))).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^Invalid arguments for tool call_tool: \/arguments/) }],
    });
    expect(result(await call("call_tool", {}))).toMatchObject({ isError: true });
  });

  it("applies the tool's deadline to the target, naming it", async () => {
    expect(result(await call("call_tool", { name: "slow" })).content[0]?.text).toBe("Tool slow did not finish within 200 ms");
  });

  it("asks for input as the target would (input_required), and the retry to call_tool completes it", async () => {
    const args = { name: "confirm_delete", arguments: {} };
    const first = await modern(
      app,
      "tools/call",
      { name: "call_tool", arguments: args },
      { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
    );
    const asked = first.body["result"] as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    expect(asked.resultType).toBe("input_required");
    expect(Object.keys(asked.inputRequests)).toEqual(["sure"]);
    const retry = await modern(
      app,
      "tools/call",
      { name: "call_tool", arguments: args, inputResponses: { sure: { action: "accept", content: {} } }, requestState: asked.requestState },
      { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
    );
    expect(result(retry).content[0]?.text).toBe("accept");
    // The state was bound to this call_tool call: with other arguments it is refused.
    const other = await modern(
      app,
      "tools/call",
      { name: "call_tool", arguments: { name: "confirm_delete", arguments: { id: "1" } }, inputResponses: {}, requestState: asked.requestState },
      {
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      },
    );
    expect(other.body["error"]).toMatchObject({ code: -32602 });
  });
});

describe("exposure", () => {
  it("lists every tool after the search tools, and marks pinned and search tools for hosts to keep loaded", async () => {
    const page = (await modern(app, "tools/list")).body["result"] as { tools: { name: string; _meta?: Record<string, unknown> }[] };
    expect(page.tools.map((t) => t.name)).toEqual(["search_tools", "describe_tools", "call_tool", ...tools.map((t) => t.name)]);
    expect(page.tools.filter((t) => t._meta?.["anthropic/alwaysLoad"] === true).map((t) => t.name)).toEqual([
      "search_tools",
      "describe_tools",
      "call_tool",
      "crm_contact_get",
    ]);
    expect(schemaErrors("2026-07-28", "ListToolsResult", page)).toEqual([]);
  });

  it("lists only the pinned and search tools in pinned mode, and every tool stays callable and searchable", async () => {
    expect(await listNames(pinnedApp)).toEqual(["search_tools", "describe_tools", "call_tool", "invoice_total"]);
    expect(result(await call("crm_contact_get", {}, pinnedApp)).content[0]?.text).toBe("ran crm_contact_get");
    expect(result(await call("search_tools", { query: "contact", detail: "names" }, pinnedApp)).structuredContent).toMatchObject({ matched: 2, total: 6 });
  });

  it("has no search tools unless tool search is on", async () => {
    const plain = createMcpApp({ server: createServer({ info, tools }) });
    expect(await listNames(plain)).toEqual(tools.map((t) => t.name));
    expect((await call("search_tools", { query: "x" }, plain)).body["error"]).toMatchObject({ code: -32602 });
  });

  it("refuses a tool that takes a search tool's name, and ignores (with a log line) a pinned name that is no tool", () => {
    expect(() => createServer({ info, tools: [tool("call_tool", "Mine.")], toolSearch: toolSearch() })).toThrow(DefinitionError);
    expect(() => createServer({ info, tools: [tool("call_tool", "Mine.")], toolSearch: toolSearch() })).toThrow(/call_tool is a tool of tool search/);
    expect(() => createServer({ info, tools: [tool("call_tool", "Mine.")] })).not.toThrow();
    const log = vi.mocked(console.error);
    log.mockClear();
    createServer({ info, tools, toolSearch: toolSearch({ pinned: ["nope"] }) });
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/toolSearch.pinned names "nope", which is not a tool/));
  });
});

describe("lazy validators", () => {
  it("builds a tool's validator on its first call: a schema the validator cannot read breaks that tool only", async () => {
    const broken = defineTool({
      name: "broken",
      description: "Its schema names one $id twice.",
      inputSchema: { type: "object", properties: { a: { $id: "https://x.test/a", type: "string" }, b: { $id: "https://x.test/a", type: "string" } } },
      handler: () => "never",
    });
    // The core validator refuses a nested $id at startup; the full one reads a schema on its first call.
    expect(() => createServer({ info, tools: [broken] })).toThrow(/properties\.a\.\$id: \$id below the root is outside the core JSON Schema validator/);
    const server = createServer({ info, tools: [broken, tools[0] as ToolDefinition], features: [fullJsonSchema()] });
    const lazy = createMcpApp({ server });
    expect(result(await call("invoice_total", { lines: [2] }, lazy)).content[0]?.text).toBe("Total: 2");
    expect(result(await call("broken", {}, lazy))).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/tool broken inputSchema is not a valid JSON Schema \(a server bug\)/) }],
    });
  });
});

describe("views per caller", () => {
  // Tools whose names start with "crm_" need the crm scope; the key says whether the caller has it.
  const authorizer: Authorizer = {
    metadata: {},
    metadataJson: () => "{}",
    resourcePath: "/mcp",
    authenticate: async (request) => ({
      issuer: "api-key",
      subject: "user",
      scopes: (request.headers.get("x-scopes") ?? "").split(" ").filter(Boolean),
      via: "api-key" as const,
    }),
    authorizeTool: () => {},
    unauthorized: () => new ProtocolError(ErrorCode.InvalidRequest, "Unauthorized", { status: 401 }),
    toolFilter: (principal) => {
      const crm = principal?.scopes.includes("crm") === true;
      return { key: crm ? "crm" : "-", allows: (name) => crm || !name.startsWith("crm_") };
    },
  };
  const scoped = createMcpApp({ server: createServer({ info, tools, toolSearch: toolSearch(), pageSize: 4 }), authorizer, stateSecret: "s" });
  const ask = async (scopes: string, method: string, params: Record<string, unknown> = {}) =>
    (
      await request(scoped, "http://localhost/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-scopes": scopes },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      })
    ).json<{ result?: Record<string, unknown>; error?: { code: number } }>();
  const walk = async (scopes: string) => {
    const names: string[] = [];
    let cursor: unknown;
    do {
      const page = (await ask(scopes, "tools/list", cursor === undefined ? {} : { cursor })).result as { tools: { name: string }[]; nextCursor?: string };
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return names;
  };

  it("lists and finds only the tools the caller's scopes allow", async () => {
    expect(await walk("crm")).toEqual(["search_tools", "describe_tools", "call_tool", ...tools.map((t) => t.name)]);
    expect(await walk("")).toEqual(["search_tools", "describe_tools", "call_tool", ...tools.map((t) => t.name).filter((n) => !n.startsWith("crm_"))]);
    const found = (await ask("", "tools/call", { name: "search_tools", arguments: { query: "contact" } })).result as {
      structuredContent: Record<string, unknown>;
    };
    expect(found.structuredContent).toMatchObject({ matched: 0, total: 4, tools: [] });
    const picked = (await ask("", "tools/call", { name: "describe_tools", arguments: { names: ["crm_contact_get"] } })).result as {
      structuredContent: Record<string, unknown>;
    };
    expect(picked.structuredContent).toEqual({ tools: [], notFound: ["crm_contact_get"] });
  });

  it("marks lists that depend on the caller private, and refuses a cursor of another view", async () => {
    const first = await (
      await request(scoped, "http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "x-scopes": "crm",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/list",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
        }),
      })
    ).json<{ result: { cacheScope: string; nextCursor: string } }>();
    expect(first.result.cacheScope).toBe("private");
    expect((await ask("", "tools/list", { cursor: first.result.nextCursor })).error).toMatchObject({ code: -32602 });
    expect((await ask("crm", "tools/list", { cursor: first.result.nextCursor })).result).toBeDefined();
  });
});
