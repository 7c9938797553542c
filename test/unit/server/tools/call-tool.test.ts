import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ErrorCode, ProtocolError } from "../../../../src/core/errors.ts";
import { callTool } from "../../../../src/server/tools/call-tool.ts";
import { compileTool } from "../../../../src/server/tools/compile-tool.ts";
import { handlerContext } from "../../context.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { ToolError } from "../../../../src/core/tool-error.ts";
import { createStateSealer } from "../../../../src/server/state/request-state.ts";

const context = handlerContext;

// Tool failures are logged for the operator; keep the test output clean.
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const add = compileTool(
  defineTool({
    name: "add",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    handler: (args) => ({ structuredContent: { sum: args["a"] + args["b"] } }),
  }),
);

describe("callTool", () => {
  it("returns structured content with its JSON as text", async () => {
    const result = await callTool(add, { name: "add", arguments: { a: 1, b: 2 } }, context());
    expect(result).toEqual({ content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } });
  });

  it("turns schema failures into an isError result that names the problem", async () => {
    const result = await callTool(add, { name: "add", arguments: { a: "1" } }, context());
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/Invalid arguments for tool add/);
    expect(text).toMatch(/\/a: .*number/);
    expect(text).toMatch(/required property "b"/);
  });

  it("treats __proto__ in arguments as an ordinary key and pollutes nothing", async () => {
    const args = JSON.parse('{"a":1,"b":2,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const result = await callTool(add, { name: "add", arguments: args }, context());
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/__proto__/);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("refuses arguments that are not an object with -32602", async () => {
    await expect(callTool(add, { name: "add", arguments: [1, 2] }, context())).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it("turns a thrown error into an isError result and lets a ProtocolError through", async () => {
    const failing = compileTool(
      defineTool({
        name: "f",
        inputSchema: { type: "object" },
        handler: () => {
          throw new Error("disk full");
        },
      }),
    );
    expect(await callTool(failing, {}, context())).toEqual({
      content: [{ type: "text", text: expect.stringMatching(/^Tool f failed \(id [\w-]{8}\)/) }],
      isError: true,
    });
    const protocol = compileTool(
      defineTool({
        name: "p",
        inputSchema: { type: "object" },
        handler: () => {
          throw new ProtocolError(-32001, "custom");
        },
      }),
    );
    await expect(callTool(protocol, {}, context())).rejects.toBeInstanceOf(ProtocolError);
  });

  describe("a thrown error's message", () => {
    const leaky = compileTool(
      defineTool({
        name: "boom",
        inputSchema: { type: "object" },
        handler: async () => {
          throw new Error("database password=hunter2 unreachable");
        },
      }),
    );

    it("never reaches the client outside development: the model reads the tool and a correlation id", async () => {
      const result = await callTool(leaky, {}, context());
      const text = (result.content[0] as { text: string }).text;
      expect(result.isError).toBe(true);
      expect(text).toMatch(/^Tool boom failed \(id [\w-]{8}\); the server's log has the details\.$/);
      expect(JSON.stringify(result)).not.toContain("hunter2");
    });

    it("is logged with the tool's name, the same correlation id and the stack", async () => {
      const log = vi.mocked(console.error);
      const result = await callTool(leaky, {}, context());
      const id = /\(id ([\w-]{8})\)/.exec((result.content[0] as { text: string }).text)?.[1];
      const line = log.mock.calls.map((call) => call.join(" ")).find((entry) => entry.includes(`(id ${id})`)) ?? "";
      expect(line).toMatch(/^edge-mcp: tool boom failed \(id [\w-]{8}\): Error: database password=hunter2 unreachable\n\s+at /);
    });

    it("reaches the client in development, with the id", async () => {
      const dev = context([], {
        endpoint: { sealer: createStateSealer(), revisions: undefined, handleStore: undefined, quotaCounter: undefined, development: true },
      });
      const text = ((await callTool(leaky, {}, dev)).content[0] as { text: string }).text;
      expect(text).toMatch(/^Tool boom failed \(id [\w-]{8}\): database password=hunter2 unreachable$/);
    });

    it("reaches the client as it is from a ToolError, which the handler meant for the model, and is not logged", async () => {
      const log = vi.mocked(console.error);
      const meant = compileTool(
        defineTool({
          name: "find",
          inputSchema: { type: "object" },
          handler: () => {
            throw new ToolError("no note named shopping; list the notes first");
          },
        }),
      );
      expect(await callTool(meant, {}, context())).toEqual({
        content: [{ type: "text", text: "Tool find failed: no note named shopping; list the notes first" }],
        isError: true,
      });
      expect(log).not.toHaveBeenCalled();
    });

    it("does not apply to a result the handler returned with isError: its text is the model's", async () => {
      const returned = compileTool(
        defineTool({ name: "r", inputSchema: { type: "object" }, handler: () => ({ content: [{ type: "text", text: "quota exceeded" }], isError: true }) }),
      );
      expect(await callTool(returned, {}, context())).toEqual({ content: [{ type: "text", text: "quota exceeded" }], isError: true });
    });
  });

  it("reports structured content that breaks the output schema as an isError result", async () => {
    const wrong = compileTool(
      defineTool({
        name: "w",
        inputSchema: { type: "object" },
        outputSchema: { type: "object", required: ["sum"] },
        handler: () => ({ structuredContent: { total: 1 } }),
      }),
    );
    const result = await callTool(wrong, {}, context());
    expect(result.isError).toBe(true);
    const missing = compileTool(defineTool({ name: "m", inputSchema: { type: "object" }, outputSchema: { type: "object" }, handler: () => "text only" }));
    expect((await callTool(missing, {}, context())).isError).toBe(true);
  });

  it("answers a result that breaks the tool's own contract in the words it logs, the details (the schema issues) in the log only", async () => {
    const log = vi.mocked(console.error);
    const broken = (name: string, outputSchema: { type: "object"; required?: string[] } | undefined, value: unknown) =>
      compileTool(
        outputSchema
          ? defineTool({ name, inputSchema: { type: "object" }, outputSchema, handler: () => value as string })
          : defineTool({ name, inputSchema: { type: "object" }, handler: () => value as string }),
      );
    const cases: [ReturnType<typeof broken>, string, string][] = [
      [broken("n", undefined, 42), "returned a value that is not a tool result", ""],
      [broken("m", { type: "object" }, "text only"), "declares an outputSchema but returned no structuredContent", ""],
      [broken("w", { type: "object", required: ["sum"] }, { structuredContent: {} }), "returned structuredContent that does not match its outputSchema", ": "],
    ];
    for (const [tool, problem, details] of cases) {
      log.mockClear();
      expect(await callTool(tool, {}, context())).toEqual({ content: [{ type: "text", text: `Tool ${tool.name} ${problem} (a server bug).` }], isError: true });
      expect(log).toHaveBeenCalledTimes(1);
      expect(log.mock.calls[0]?.[0]).toMatch(new RegExp(`^edge-mcp: tool ${tool.name} ${problem}${details}`));
    }
    expect(log.mock.calls[0]?.[0]).toMatch(/sum/);
  });

  it("validates with a Standard Schema (zod) and lists its JSON Schema", async () => {
    const greet = compileTool(defineTool({ name: "greet", inputSchema: z.object({ name: z.string().min(1) }), handler: (args) => `Hello ${args.name}` }));
    expect(greet.listed["inputSchema"]).toMatchObject({ type: "object", properties: { name: { type: "string" } } });
    expect(await callTool(greet, { arguments: { name: "Ada" } }, context())).toEqual({ content: [{ type: "text", text: "Hello Ada" }] });
    const bad = await callTool(greet, { arguments: { name: "" } }, context());
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toMatch(/\/name/);
  });
});

describe("tool context", () => {
  it("sends progress only with a token and only when it increases", () => {
    const notes: unknown[] = [];
    const ctx = context(notes, { progressToken: "t" });
    ctx.progress(1, 3);
    ctx.progress(1, 3);
    ctx.progress(0.5);
    ctx.progress(2, 3, "half");
    expect(notes).toEqual([
      { method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 3 } },
      { method: "notifications/progress", params: { progressToken: "t", progress: 2, total: 3, message: "half" } },
    ]);
    const silent: unknown[] = [];
    context(silent).progress(1);
    expect(silent).toEqual([]);
  });

  it("sends logs only at or above the requested level, and none when no level was named", () => {
    const notes: unknown[] = [];
    const ctx = context(notes, { minLogRank: 3 });
    ctx.log("info", "quiet");
    ctx.log("error", "loud", "db");
    expect(notes).toEqual([{ method: "notifications/message", params: { level: "error", data: "loud", logger: "db" } }]);
    const none: unknown[] = [];
    context(none).log("emergency", "x");
    expect(none).toEqual([]);
  });
});
