/**
 * 2026-07-28 diagnostic tools probed by `server-stateless` (SEP-2575) and the pending
 * `http-custom-header-server-validation` (SEP-2243) scenario of the 0.2.0-alpha suite.
 */

import { defineTool } from "edge-mcp";
import { NO_ARGS, acceptedField, sampledText } from "./content.ts";

/**
 * Needs the client's sampling capability: called without it, the runtime answers -32021
 * (HTTP 400) with `data.requiredCapabilities: {sampling: {}}` before anything is asked.
 */
export const missingCapability = defineTool({
  name: "test_missing_capability",
  description: "Requires the client's sampling capability; without it the call fails with -32021 (missing client capability).",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const answer = await ctx.sample(
      { messages: [{ role: "user", content: { type: "text", text: "Reply with any text." } }], maxTokens: 20 },
      { key: "sample_request" },
    );
    return `Success: the client sampled "${sampledText(answer)}"`;
  },
});

/**
 * Asks for input while its response is being streamed. Under 2026-07-28 the request travels
 * inside an input_required result, never as a server→client request on the response stream.
 */
export const streamingElicitation = defineTool({
  name: "test_streaming_elicitation",
  description: "Asks the user to confirm while streaming; the question must arrive as an input_required result, not as a request on the stream.",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    ctx.progress(1, 2, "asking the user");
    const answer = await ctx.elicit(
      {
        message: "Continue the streaming test?",
        requestedSchema: { type: "object", properties: { proceed: { type: "boolean" } }, required: ["proceed"] },
      },
      { key: "stream_confirm" },
    );
    return `Streaming complete (proceed: ${acceptedField(answer, "proceed") ?? "no answer"})`;
  },
});

/** Logs at every level; the runtime sends a message only when the request named a log level (2026-07-28). */
export const loggingTool = defineTool({
  name: "test_logging_tool",
  description: "Logs at debug, info and warning; messages reach the client only if the request asked for a log level.",
  inputSchema: NO_ARGS,
  handler: (_args, ctx) => {
    ctx.log("debug", "test_logging_tool: debug detail");
    ctx.log("info", "test_logging_tool: evaluating log level");
    ctx.log("warning", "test_logging_tool: sample warning");
    return "Logging evaluated";
  },
});

/** Announces a tools list change to every open `subscriptions/listen` stream that asked for it. */
export const triggerToolChange = defineTool({
  name: "test_trigger_tool_change",
  description: "Announces notifications/tools/list_changed to listening clients (subscriptions/listen test hook).",
  inputSchema: NO_ARGS,
  handler: (_args, ctx) => {
    ctx.changes.toolsListChanged();
    return "Mutation triggered: tools list changed";
  },
});

/** Announces a prompts list change to every open `subscriptions/listen` stream that asked for it. */
export const triggerPromptChange = defineTool({
  name: "test_trigger_prompt_change",
  description: "Announces notifications/prompts/list_changed to listening clients (subscriptions/listen test hook).",
  inputSchema: NO_ARGS,
  handler: (_args, ctx) => {
    ctx.changes.promptsListChanged();
    return "Mutation triggered: prompts list changed";
  },
});

/**
 * A string argument mirrored in the `Mcp-Param-Region` header (`x-mcp-header`): the runtime
 * rejects a missing, malformed (`=?base64?…?=`) or different header with -32020 / HTTP 400.
 */
export const customHeader = defineTool({
  name: "test_custom_header",
  description: "Echoes a region that the client must also send in the Mcp-Param-Region header (x-mcp-header, SEP-2243).",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", description: "Any region name; mirrored in the Mcp-Param-Region header.", "x-mcp-header": "Region" },
    },
    required: ["region"],
  },
  handler: (args) => `Region: ${String(args["region"])}`,
});

/** Announces that a resource changed: reaches 2025 sessions that subscribed and 2026 listen streams. */
export const triggerResourceUpdate = defineTool({
  name: "test_trigger_resource_update",
  description: "Announces that the resource with this URI changed (resources/updated to subscribers).",
  inputSchema: { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] },
  handler: (args, ctx) => {
    ctx.changes.resourceUpdated(args["uri"]);
    return "Update announced";
  },
});

export const diagnosticTools = [
  missingCapability,
  streamingElicitation,
  loggingTool,
  triggerToolChange,
  triggerPromptChange,
  triggerResourceUpdate,
  customHeader,
];
