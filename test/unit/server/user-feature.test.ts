// A user's own feature, written with what edge-mcp exports and nothing else: methods, an extension,
// a handler context member, services shared with another feature, and ctx.tools, through createServer.
import { describe, expect, it } from "vitest";
import { createServer, defineTool, handlerTools, serviceKey, type Feature, type HandlerContext } from "edge-mcp";
import { createMcpApp } from "edge-mcp/host";
import { legacy, modern } from "../app-client.ts";

declare module "edge-mcp" {
  interface HandlerContext {
    /** Added by the greetings feature below. */
    readonly greeting?: string;
  }
}

/** A key owned by the greetings feature: other features provide words into it. */
const WORDS = serviceKey<string>("greeting words");

const greetings: Feature = {
  name: "greetings",
  uses: [WORDS],
  install: (host) => {
    const words = host.use(WORDS);
    return {
      extensions: { "example.com/greetings": { words: words.length } },
      modernMethods: [["greetings/hello", () => ({ greeting: words.join(" ") })]],
      context: { greeting: (transport) => `${words.join(" ")}, ${transport.admission.tenant}` },
    };
  },
};
const words: Feature = {
  name: "words",
  provides: [WORDS],
  install: (host) => {
    host.provide(WORDS, "hello");
    host.provide(WORDS, "there");
    return { context: { tools: handlerTools(host) } };
  },
};

const echo = defineTool({ name: "echo", description: "Echoes.", inputSchema: { type: "object" }, handler: (_args, ctx: HandlerContext) => ctx.greeting ?? "" });
const relay = defineTool({
  name: "relay",
  description: "Calls echo.",
  inputSchema: { type: "object" },
  handler: async (_args, ctx) => {
    const result = await ctx.tools?.call("echo");
    return `relayed: ${JSON.stringify(result?.content)}; sees echo: ${String(ctx.tools?.view("model")?.allows("echo") ?? true)}`;
  },
});

describe("a feature of your own", () => {
  // Given in the order that needs sorting: greetings uses what words provides.
  const server = createServer({ info: { name: "own", version: "1" }, tools: [echo, relay], features: [greetings, words] });
  const app = createMcpApp({ server });

  it("declares its extension and answers its method, after the features whose services it uses", async () => {
    const discover = await modern(app, "server/discover");
    const capabilities = (discover.body["result"] as { capabilities: { extensions: Record<string, unknown> } }).capabilities;
    expect(capabilities.extensions["example.com/greetings"]).toEqual({ words: 2 });
    expect((await modern(app, "greetings/hello")).body["result"]).toMatchObject({ greeting: "hello there" });
    // A 2026-07-28 method only: the 2025 era does not have it.
    expect((await legacy(app, "greetings/hello")).body["error"]).toMatchObject({ code: -32601 });
  });

  it("adds a member to every handler's context, and calls tools through ctx.tools", async () => {
    const call = await modern(app, "tools/call", { name: "echo", arguments: {} });
    expect(call.body["result"]).toMatchObject({ content: [{ type: "text", text: "hello there, default" }] });
    const relayed = await modern(app, "tools/call", { name: "relay", arguments: {} });
    expect(relayed.body["result"]).toMatchObject({
      content: [{ type: "text", text: 'relayed: [{"type":"text","text":"hello there, default"}]; sees echo: true' }],
    });
  });

  it("is refused at startup when features use each other's services in a loop", () => {
    const a: Feature = { name: "a", uses: [WORDS], provides: [WORDS], install: () => ({}) };
    const b: Feature = { name: "b", uses: [WORDS], provides: [WORDS], install: () => ({}) };
    expect(() => createServer({ info: { name: "loop", version: "1" }, features: [a, b] })).toThrow(/in a loop: a → b → a/);
  });
});
