// The official MCP clients (SDK v1 on 2025-11-25, client v2 on 2026-07-28) against both `wrangler dev` servers.
import { LOG_LEVEL_META_KEY, ProtocolError } from "@modelcontextprotocol/client";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { connectLegacyClient, connectModernClient, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from "./clients.ts";

// ---- A thin, uniform handle over each client; every method is one call of that client's own API. ----

interface ToolResult {
  content: unknown[];
  structuredContent?: unknown;
  isError?: boolean | undefined;
}
interface Progress {
  progress: number;
  total?: number | undefined;
}
interface LogMessage {
  level: string;
  data: unknown;
}
interface CallOptions {
  onprogress?: (progress: Progress) => void;
  signal?: AbortSignal;
  /** Request `_meta` entries (the v2 client merges them over its own 2026-07-28 envelope). */
  meta?: Record<string, unknown>;
}

interface Session {
  negotiated(): { protocolVersion: string | undefined; era?: string | undefined };
  serverVersion(): unknown;
  instructions(): string | undefined;
  listTools(): Promise<{ name: string; inputSchema: unknown; outputSchema?: unknown }[]>;
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
  onLogMessage(handler: (message: LogMessage) => void): void;
  close(): Promise<void>;
}

async function legacySession(url: string): Promise<Session> {
  const client = await connectLegacyClient(url);
  const transport = client.transport as StreamableHTTPClientTransport | undefined;
  return {
    negotiated: () => ({ protocolVersion: transport?.protocolVersion }),
    serverVersion: () => client.getServerVersion(),
    instructions: () => client.getInstructions(),
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args, { meta, ...options } = {}) =>
      (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, undefined, options)) as ToolResult,
    onLogMessage: (handler) => client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => handler(n.params)),
    close: () => client.close(),
  };
}

async function modernSession(url: string): Promise<Session> {
  const client = await connectModernClient(url);
  return {
    negotiated: () => ({ protocolVersion: client.getNegotiatedProtocolVersion(), era: client.getProtocolEra() }),
    serverVersion: () => client.getServerVersion(),
    instructions: () => client.getInstructions(),
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args, { meta, ...options } = {}) => client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, options),
    onLogMessage: (handler) => client.setNotificationHandler("notifications/message", (n) => handler(n.params)),
    close: () => client.close(),
  };
}

const CLIENTS = [
  {
    client: "SDK v1",
    connect: legacySession,
    negotiated: { protocolVersion: LEGACY_PROTOCOL_VERSION },
    errorClass: McpError as new (...args: never[]) => Error,
    // 2025-11-25 stateless: info and above are always sent; there is no per-request level.
    allowInfoLogs: undefined,
  },
  {
    client: "client v2",
    connect: modernSession,
    negotiated: { protocolVersion: MODERN_PROTOCOL_VERSION, era: "modern" },
    errorClass: ProtocolError as new (...args: never[]) => Error,
    // 2026-07-28: log messages only when the request names a level in its `_meta`.
    allowInfoLogs: { [LOG_LEVEL_META_KEY]: "info" },
  },
];
const SERVERS = [
  { server: "auto", baseUrl: inject("baseUrlAuto") },
  { server: "sse", baseUrl: inject("baseUrlSse") },
];
const CASES = CLIENTS.flatMap((client) => SERVERS.map((server) => [`${client.client} on the ${server.server} server`, { ...client, ...server }] as const));

// ---- What the demo server (examples/hello) declares, written out independently of its source. ----

const SERVER_INFO = { name: "edge-mcp-demo", title: "edge-mcp demo", version: "0.1.0" };
const INSTRUCTIONS =
  "Demo tools: echo returns text, add sums two numbers, countdown streams progress, notebook_* keep notes under a handle " +
  "(the skill skill://notebook-workflow/SKILL.md says how), report writes a slow report (a task for clients that support tasks), show_tally shows a tally app.";
const TOOL_SCHEMAS = [
  {
    name: "echo",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "The text to send back." } },
      required: ["text"],
      additionalProperties: false,
    },
  },
  {
    name: "add",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  },
  {
    name: "countdown",
    inputSchema: {
      type: "object",
      properties: {
        from: { type: "integer", minimum: 1, maximum: 10 },
        delayMs: { type: "integer", minimum: 0, maximum: 1000, default: 50 },
      },
      required: ["from"],
      additionalProperties: false,
    },
  },
];

const text = (value: string) => [{ type: "text", text: value }];

/** The settled outcome of a promise, so a test can assert on a rejection (or fail on a resolution). */
async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

describe.each(CASES)("%s", (_title, { connect, baseUrl, negotiated, errorClass, allowInfoLogs }) => {
  let session: Session | undefined;
  const connected = (): Session => {
    if (!session) throw new Error("no session: beforeEach did not connect");
    return session;
  };

  beforeEach(async () => {
    session = await connect(`${baseUrl}/mcp`);
  });
  afterEach(async () => {
    const open = session;
    session = undefined;
    await open?.close();
  });

  it("connects on its own protocol revision and sees the demo's server info and instructions", () => {
    const s = connected();
    expect(s.negotiated()).toEqual(negotiated);
    expect(s.serverVersion()).toEqual(SERVER_INFO);
    expect(s.instructions()).toBe(INSTRUCTIONS);
  });

  it("lists echo, add, countdown, the notebook tools, report and the tally app's tools, in that order, with their schemas", async () => {
    const tools = await connected().listTools();
    // A 2026-07-28 client that does not declare MCP Apps is not shown the app-only tally_bump; a
    // stateless 2025 request carries no capabilities, so it sees every tool (the host filters).
    const appTools = negotiated.protocolVersion === MODERN_PROTOCOL_VERSION ? ["show_tally"] : ["show_tally", "tally_bump"];
    expect(tools.map(({ name }) => name)).toEqual(["echo", "add", "countdown", "notebook_open", "notebook_append", "notebook_read", "report", ...appTools]);
    expect(tools.slice(0, 3).map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema }))).toEqual(TOOL_SCHEMAS);
  });

  it("adds 1.5 and 2 into a sentence and structured content that matches the output schema", async () => {
    const result = await connected().callTool("add", { a: 1.5, b: 2 });
    expect(result.isError).not.toBe(true);
    expect(result.content).toEqual(text("The sum of 1.5 and 2 is 3.5"));
    expect(result.structuredContent).toEqual({ sum: 3.5 });
  });

  it("echoes non-ASCII text unchanged", async () => {
    const sent = "héllo ✓ 🚀 — ß 中文";
    const result = await connected().callTool("echo", { text: sent });
    expect(result.content).toEqual(text(sent));
  });

  it("answers an argument that breaks the input schema with an isError result naming /a", async () => {
    const result = await connected().callTool("add", { a: "one", b: 2 });
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("/a") });
  });

  it("rejects a call to an unknown tool with JSON-RPC error -32602", async () => {
    const outcome = await settle(connected().callTool("no_such_tool", {}));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toBeInstanceOf(errorClass);
    expect(outcome.error).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool: no_such_tool") });
  });

  it("reports three increasing progress steps out of 3 before the countdown's result", async () => {
    const progress: Progress[] = [];
    // 200 ms between steps: an SDK client drops progress read in the same chunk as the result (stdio-clients.test.ts).
    const result = await connected().callTool("countdown", { from: 3, delayMs: 200 }, { onprogress: (p) => progress.push(p) });
    expect(progress.map(({ progress: step, total }) => ({ step, total }))).toEqual([
      { step: 1, total: 3 },
      { step: 2, total: 3 },
      { step: 3, total: 3 },
    ]);
    expect(result.content).toEqual(text("Lift-off after 3 steps"));
  });

  it("delivers one info log message per countdown step when the request allows info logs", async () => {
    const s = connected();
    const logs: LogMessage[] = [];
    s.onLogMessage((message) => logs.push(message));
    const result = await s.callTool("countdown", { from: 3, delayMs: 10 }, allowInfoLogs ? { meta: allowInfoLogs } : {});
    expect(result.content).toEqual(text("Lift-off after 3 steps"));
    expect(logs.map(({ level, data }) => ({ level, data }))).toEqual([
      { level: "info", data: "countdown: 2" },
      { level: "info", data: "countdown: 1" },
      { level: "info", data: "countdown: 0" },
    ]);
  });

  it.runIf(allowInfoLogs !== undefined)("sends no log messages when the 2026-07-28 request names no log level", async () => {
    const s = connected();
    const logs: LogMessage[] = [];
    const progress: Progress[] = [];
    s.onLogMessage((message) => logs.push(message));
    const result = await s.callTool("countdown", { from: 3, delayMs: 200 }, { onprogress: (p) => progress.push(p) });
    expect(result.content).toEqual(text("Lift-off after 3 steps"));
    // The same stream did carry notifications (progress), just no log messages.
    expect(progress).toHaveLength(3);
    expect(logs).toEqual([]);
  });

  it("rejects promptly when aborted after the first progress step, and the server still answers afterwards", async () => {
    const s = connected();
    const controller = new AbortController();
    let abortedAt: number | undefined;
    const call = s.callTool(
      "countdown",
      { from: 10, delayMs: 1000 },
      {
        signal: controller.signal,
        onprogress: () => {
          if (abortedAt !== undefined) return;
          abortedAt = performance.now();
          controller.abort();
        },
      },
    );
    const outcome = await settle(call);
    const settledAt = performance.now();

    expect(abortedAt, "no progress event arrived before the call settled").toBeDefined();
    expect(outcome.ok, "the aborted call resolved instead of rejecting").toBe(false);
    if (outcome.ok || abortedAt === undefined) return;
    expect(String((outcome.error as Error).message)).toMatch(/abort/i);
    expect(settledAt - abortedAt).toBeLessThan(2_000);

    const after = await s.callTool("add", { a: 2, b: 3 });
    expect(after.content).toEqual(text("The sum of 2 and 3 is 5"));
  });
});
