// The official clients' stdio transports spawn `edge-mcp stdio` on the demo, the multi-tenant example and the
// conformance fixture, and get what they get over HTTP from `wrangler dev`.
import { ProtocolError } from "@modelcontextprotocol/client";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectLegacyClient, connectModernClient, type ConnectOptions } from "./clients.ts";
import { fetchWithHost } from "./host-fetch.ts";
import {
  CONFORMANCE,
  DEMO,
  LEGACY_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSION,
  MULTI_TENANT,
  connectLegacyStdio,
  connectModernStdio,
  freshState,
} from "./stdio-server.ts";

interface ToolResult {
  content: unknown[];
  structuredContent?: unknown;
  isError?: boolean | undefined;
}
interface CallOptions {
  onprogress?: (progress: { progress: number; total?: number | undefined }) => void;
  signal?: AbortSignal;
}
type ElicitHandler = Parameters<typeof connectLegacyStdio>[2];

/** One client, whatever its transport: the calls the tests make, each one call of that client's own API. */
interface Session {
  negotiated(): string | undefined;
  serverVersion(): unknown;
  instructions(): string | undefined;
  listTools(): Promise<{ name: string; inputSchema: unknown }[]>;
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
  close(): Promise<void>;
}

type LegacyClient = Awaited<ReturnType<typeof connectLegacyClient>>;
type ModernClient = Awaited<ReturnType<typeof connectModernClient>>;

function legacySession(client: LegacyClient): Session {
  return {
    negotiated: () => (client.getServerVersion() ? LEGACY_PROTOCOL_VERSION : undefined),
    serverVersion: () => client.getServerVersion(),
    instructions: () => client.getInstructions(),
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args, options) => (await client.callTool({ name, arguments: args }, undefined, options)) as ToolResult,
    close: () => client.close(),
  };
}

function modernSession(client: ModernClient): Session {
  return {
    negotiated: () => client.getNegotiatedProtocolVersion(),
    serverVersion: () => client.getServerVersion(),
    instructions: () => client.getInstructions(),
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, options),
    close: () => client.close(),
  };
}

const ERAS = [
  {
    client: "SDK v1",
    version: LEGACY_PROTOCOL_VERSION,
    errorClass: McpError as new (...args: never[]) => Error,
    stdio: async (args: string[], state: string, elicit?: ElicitHandler) => legacySession((await connectLegacyStdio(args, state, elicit)).client),
    http: async (url: string, options?: ConnectOptions) => legacySession(await connectLegacyClient(url, options)),
  },
  {
    client: "client v2",
    version: MODERN_PROTOCOL_VERSION,
    errorClass: ProtocolError as new (...args: never[]) => Error,
    stdio: async (args: string[], state: string, elicit?: ElicitHandler) => modernSession((await connectModernStdio(args, state, elicit)).client),
    http: async (url: string, options?: ConnectOptions) => modernSession(await connectModernClient(url, options)),
  },
];

const state = freshState();
const text = (value: string) => [{ type: "text", text: value }];

/** A session for the tests of one describe block, opened once (each spawn starts workerd). */
function shared(open: () => Promise<Session>): () => Session {
  let session: Session | undefined;
  beforeAll(async () => {
    session = await open();
  });
  afterAll(async () => {
    await session?.close();
  });
  return () => {
    if (!session) throw new Error("not connected");
    return session;
  };
}

/** Opens an HTTP session, runs `use` on it, closes it. */
async function overHttp<T>(open: Promise<Session>, use: (session: Session) => Promise<T>): Promise<T> {
  const session = await open;
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}

describe.each(ERAS)("$client over stdio on the demo", ({ version, errorClass, stdio, http }) => {
  const session = shared(() => stdio(DEMO, state));
  const httpUrl = `${inject("baseUrlAuto")}/mcp`;

  it("speaks its own revision and sees the demo's server info and instructions", () => {
    expect(session().negotiated()).toBe(version);
    expect(session().serverVersion()).toEqual({ name: "edge-mcp-demo", title: "edge-mcp demo", version: "0.1.0" });
    expect(session().instructions()).toMatch(/^Demo tools: echo returns text/);
  });

  it("lists the same tools, and gets the same add and echo results, as over HTTP", async () => {
    const calls = async (s: Session) => ({
      tools: await s.listTools(),
      add: await s.callTool("add", { a: 1.5, b: 2 }),
      echo: await s.callTool("echo", { text: "héllo ✓ 🚀" }),
    });
    const overStdio = await calls(session());
    const appTools = version === MODERN_PROTOCOL_VERSION ? ["show_tally"] : ["show_tally", "tally_bump"];
    expect(overStdio.tools.map((tool) => tool.name)).toEqual([
      "echo",
      "add",
      "countdown",
      "notebook_open",
      "notebook_append",
      "notebook_read",
      "report",
      ...appTools,
    ]);
    expect(overStdio.add).toMatchObject({ content: text("The sum of 1.5 and 2 is 3.5"), structuredContent: { sum: 3.5 } });
    expect(overStdio).toEqual(await overHttp(http(httpUrl), calls));
  });

  it("reports three progress steps out of 3 before the countdown's result", async () => {
    const steps: { progress: number; total?: number | undefined }[] = [];
    // The SDK clients run a notification's handler a microtask later but settle a response at once, dropping its
    // progress handler: a progress line read in the same chunk as the result is lost (a busy machine joins lines
    // written 10 ms apart). The last step comes 200 ms before the result.
    const result = await session().callTool("countdown", { from: 3, delayMs: 200 }, { onprogress: (p) => steps.push(p) });
    expect(steps.map(({ progress, total }) => ({ progress, total }))).toEqual([1, 2, 3].map((progress) => ({ progress, total: 3 })));
    expect(result.content).toEqual(text("Lift-off after 3 steps"));
  });

  it("keeps a notebook through its handle (a Durable Object on local storage)", async () => {
    const opened = await session().callTool("notebook_open", { title: "stdio" });
    const handle = (opened.structuredContent as { handle: string }).handle;
    expect(handle).toMatch(/^h_/);
    await session().callTool("notebook_append", { handle, text: "first" });
    await session().callTool("notebook_append", { handle, text: "second" });
    expect((await session().callTool("notebook_read", { handle })).structuredContent).toEqual({ title: "stdio", entries: ["first", "second"] });
  });

  it("rejects an unknown tool with -32602", async () => {
    const failure = await session()
      .callTool("no_such_tool", {})
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(errorClass);
    expect(failure).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool: no_such_tool") });
  });

  it("rejects a call aborted after its first progress step, then answers the next call", async () => {
    const controller = new AbortController();
    const call = session().callTool("countdown", { from: 10, delayMs: 1000 }, { signal: controller.signal, onprogress: () => controller.abort() });
    await expect(call).rejects.toThrow(/abort/i);
    expect((await session().callTool("add", { a: 2, b: 3 })).content).toEqual(text("The sum of 2 and 3 is 5"));
  });
});

describe.each(ERAS)("$client over stdio on the multi-tenant example", ({ stdio, http }) => {
  const base = inject("baseUrlMultiTenant");

  describe("tenant globex, by --path (sessions for 2025 clients, a tool service bound as WEATHER)", () => {
    const session = shared(() => stdio([...MULTI_TENANT, "--path", "/t/globex/mcp"], state));

    it("lists the same tools as over HTTP and calls the tool service through its binding", async () => {
      const tools = (await session().listTools()).map((tool) => tool.name);
      expect(tools).toEqual(["hello", "weather_forecast", "weather_boom", "weather_stall", "execute", "tool_declarations"]);
      expect(tools).toEqual(await overHttp(http(`${base}/t/globex/mcp`), async (s) => (await s.listTools()).map((tool) => tool.name)));
      expect((await session().callTool("weather_forecast", { city: "Oslo" })).content).toEqual(text("Oslo: Snow, -3 °C (for tenant globex)"));
    });
  });

  describe("tenant acme, by --tenant-host", () => {
    const session = shared(() => stdio([...MULTI_TENANT, "--tenant-host", "acme.localhost"], state));

    it("gets only acme's tools, as over HTTP with Host acme.localhost", async () => {
      const tools = (await session().listTools()).map((tool) => tool.name);
      expect(tools).toEqual(["hello", "invoice_total"]);
      const port = new URL(base).port;
      expect(tools).toEqual(
        await overHttp(http(`${base}/mcp`, { fetch: fetchWithHost(`acme.localhost:${port}`) }), async (s) => (await s.listTools()).map((tool) => tool.name)),
      );
      expect((await session().callTool("hello", { name: "Ann" })).content).toEqual(text("Hello Ann, from tenant acme"));
    });
  });
});

describe("tenant initech (auth on) over stdio with SDK v1", () => {
  const INITECH = [...MULTI_TENANT, "--path", "/t/initech/mcp"];

  it("sends the --header credentials on every request", async () => {
    const session = await ERAS[0]!.stdio([...INITECH, "--header", "Authorization: Bearer emk_dev_initech_published_example_key_not_secret"], state);
    try {
      expect((await session.listTools()).map((tool) => tool.name)).toEqual(["whoami", "invoice_total", "status"]);
      expect((await session.callTool("invoice_total", { lines: [1, 2.5] })).content).toEqual(text("Total: 3.5"));
    } finally {
      await session.close();
    }
  });

  it("connects without credentials and sees every tool (protected ones with their securitySchemes); invoice_total gets the endpoint's 401 error", async () => {
    const session = await ERAS[0]!.stdio(INITECH, state);
    try {
      const tools = await session.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["invoice_total", "status", "whoami"]);
      expect(tools.find((tool) => tool.name === "status")).toMatchObject({ _meta: { securitySchemes: [{ type: "noauth" }] } });
      expect(tools.find((tool) => tool.name === "invoice_total")).toMatchObject({ _meta: { securitySchemes: [{ type: "oauth2" }] } });
      const failure = await session.callTool("invoice_total", { lines: [1] }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(String(failure)).toMatch(/MCP error -32600: Unauthorized: /);
    } finally {
      await session.close();
    }
  });
});

describe("elicitation over stdio on the conformance fixture", () => {
  it("SDK v1 answers elicitation/create, which reaches it through the Worker's legacy session", async () => {
    const asked: string[] = [];
    const session = await ERAS[0]!.stdio(CONFORMANCE, state, (params) => {
      asked.push(params.message);
      return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
    });
    try {
      const result = await session.callTool("test_elicitation", { message: "Who are you?" });
      expect(asked).toEqual(["Who are you?"]);
      expect(result.content).toEqual(text('User response: action=accept, content={"username":"ada","email":"ada@example.com"}'));
    } finally {
      await session.close();
    }
  });

  it("client v2 answers an input_required round (MRTR) and mirrors an x-mcp-header argument in its header", async () => {
    const session = await ERAS[1]!.stdio(CONFORMANCE, state, () => ({ action: "accept", content: { name: "Ada" } }));
    try {
      expect((await session.callTool("test_input_required_result_elicitation", {})).content).toEqual(text("Hello, Ada!"));
      // The server refuses the call (-32020) unless Mcp-Param-Region carries the argument, base64 when not ASCII.
      expect((await session.callTool("test_custom_header", { region: "eu-west" })).content).toEqual(text("Region: eu-west"));
      expect((await session.callTool("test_custom_header", { region: "Zürich " })).content).toEqual(text("Region: Zürich "));
    } finally {
      await session.close();
    }
  });
});
