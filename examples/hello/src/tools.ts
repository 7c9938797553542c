/** The demo server's tools: small, one per feature a newcomer wants to see. */

import { defineTool } from "edge-mcp";

export const echo = defineTool({
  name: "echo",
  title: "Echo",
  description: "Returns the text it is given, unchanged.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string", description: "The text to send back." } },
    required: ["text"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (args) => args.text,
});

export const add = defineTool({
  name: "add",
  title: "Add two numbers",
  description: "Adds two numbers and says the sum in a sentence.",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ a, b }) => {
    const sum = a + b;
    return { content: [{ type: "text", text: `The sum of ${a} and ${b} is ${sum}` }], structuredContent: { sum } };
  },
});

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export const countdown = defineTool({
  name: "countdown",
  title: "Count down",
  description: "Counts down from a number (at most 10), reporting progress and a log line each step; shows streamed responses.",
  inputSchema: {
    type: "object",
    properties: {
      from: { type: "integer", minimum: 1, maximum: 10 },
      delayMs: { type: "integer", minimum: 0, maximum: 1000, default: 50 },
    },
    required: ["from"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: async ({ from, delayMs = 50 }, ctx) => {
    for (let step = 1; step <= from; step++) {
      ctx.progress(step, from, `${from - step} to go`);
      ctx.log("info", `countdown: ${from - step}`);
      await sleep(delayMs, ctx.signal);
    }
    return `Lift-off after ${from} steps`;
  },
});
