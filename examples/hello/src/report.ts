/** A slow report that runs as a task: shows tool calls that outlive their request (the tasks extension). */

import { defineTool } from "edge-mcp";

const wait = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

const SUMMARY_FORM = {
  message: "The report is written. Add an executive summary?",
  requestedSchema: { type: "object", properties: { summary: { type: "boolean", title: "Add a summary" } }, required: ["summary"] },
};

/**
 * Writes a report section by section. A 2026-07-28 client that declares the tasks extension gets
 * a task at once and polls it: each section updates the task's status message, and at the end the
 * task asks (input_required) whether to add a summary. Other clients get the same report in their
 * request (and are asked through elicitation when they support it).
 */
export const report = defineTool({
  name: "report",
  title: "Write a report",
  description: "Writes a report on a topic, one section at a time (about a second each), then offers a summary. Runs as a task for clients that support tasks.",
  inputSchema: {
    type: "object",
    properties: {
      topic: { type: "string", maxLength: 200 },
      sections: { type: "integer", minimum: 1, maximum: 60, default: 3 },
      delayMs: { type: "integer", minimum: 0, maximum: 10_000, default: 1000 },
    },
    required: ["topic"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  task: "optional",
  handler: async (args, ctx) => {
    const topic = args["topic"];
    const sections = args["sections"] ?? 3;
    const delayMs = args["delayMs"] ?? 1000;
    const lines = [`# Report: ${topic}`];
    for (let n = 1; n <= sections; n++) {
      ctx.progress(n - 1, sections, `Writing section ${n} of ${sections}`);
      await wait(delayMs, ctx.signal);
      lines.push(`## Section ${n}`, `Findings ${n} about ${topic}.`);
    }
    // Ask only clients that can answer (2025 clients without a session cannot).
    if (ctx.clientCapabilities["elicitation"] !== undefined) {
      const answer = await ctx.elicit(SUMMARY_FORM, { key: "summary" });
      if (answer.action === "accept" && answer.content?.["summary"] === true) lines.push("## Summary", `${sections} sections on ${topic}.`);
    }
    return lines.join("\n");
  },
});
