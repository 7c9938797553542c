/**
 * The scale Worker's tools: `big` (1 MiB text), `big_64k` (64 KiB text), `stream` (progress events),
 * then generated tools `tool_00000`, `tool_00001`, … up to `count` tools in all. run.mjs/scale.mjs
 * rebuild the same texts to check every answer, so keep both sides in step.
 */

import { defineTool, type ToolDefinition } from "../../../../src/index.ts";

/** Tools that are not generated; they come first, so the last tool is always a generated one. */
export const FIXED_TOOLS = 3;

/**
 * `bytes` of ASCII text in 64-byte lines, each with quotes and a newline, so that JSON escaping is
 * exercised the way a real document result exercises it. Built once per isolate.
 */
export function blobText(bytes: number): string {
  const lines: string[] = [];
  for (let i = 0, n = 0; n < bytes; i++, n += 64)
    lines.push(`row ${String(i).padStart(6, "0")}: "edge-mcp scale bench", value=${String((i * 7919) % 100000).padStart(5, "0")};\n`.padStart(64, " "));
  return lines.join("").slice(0, bytes);
}

const MIB_TEXT = blobText(1024 * 1024);
const KIB64_TEXT = blobText(64 * 1024);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const big = defineTool({
  name: "big",
  description: "Returns a 1 MiB text result.",
  inputSchema: { type: "object", additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: () => MIB_TEXT,
});

const big64k = defineTool({
  name: "big_64k",
  description: "Returns a 64 KiB text result.",
  inputSchema: { type: "object", additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: () => KIB64_TEXT,
});

const stream = defineTool({
  name: "stream",
  description: "Reports progress `events` times, `delayMs` apart, then says how many it sent.",
  inputSchema: {
    type: "object",
    properties: { events: { type: "integer", minimum: 1, maximum: 1000 }, delayMs: { type: "integer", minimum: 0, maximum: 1000 } },
    required: ["events"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: async (args, ctx) => {
    const events = args["events"];
    const delayMs = args["delayMs"] ?? 0;
    for (let step = 1; step <= events; step++) {
      ctx.progress(step, events, `step ${step}`);
      await sleep(delayMs);
    }
    return `streamed ${events} events`;
  },
});

/** Name of generated tool `i` (0-based). */
export const toolName = (i: number): string => `tool_${String(i).padStart(5, "0")}`;

/**
 * Generated tool `i`: each has its own schema objects (so each one is compiled), input and output
 * validation, and a small result, like the demo's `add`.
 */
function generatedTool(i: number) {
  const name = toolName(i);
  return defineTool({
    name,
    title: `Generated tool ${i}`,
    description: `Generated for the scale bench: adds a and b and says the sum (tool ${String(i).padStart(5, "0")}).`,
    inputSchema: {
      type: "object",
      properties: { a: { type: "number", description: "First addend." }, b: { type: "number", description: "Second addend." } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: (args) => {
      const a = args["a"];
      const b = args["b"];
      return { content: [{ type: "text", text: `${name}: ${a} + ${b} = ${a + b}` }], structuredContent: { sum: a + b } };
    },
  });
}

/** `count` tools in all: the fixed ones, then generated ones (typed as ServerOptions takes them). */
export function scaleTools(count: number): ToolDefinition[] {
  const tools: ToolDefinition[] = [big, big64k, stream];
  for (let i = 0; tools.length < count; i++) tools.push(generatedTool(i));
  return tools;
}
