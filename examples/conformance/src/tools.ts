/**
 * The tools both conformance suites call (0.1.16 for 2025-11-25, 0.2.0-alpha for 2026-07-28):
 * content types, errors, progress, logging, and the 2025 sampling/elicitation tools.
 * Names, schemas and texts follow the suites' reference fixture (shared/CONFORMANCE.md §2).
 */

import { defineTool } from "edge-mcp";
import { NO_ARGS, PNG_BASE64, WAV_BASE64, acceptedField, sampledText, sleep } from "./content.ts";

/** tools-call-simple-text: called with no `arguments` key at all. */
export const simpleText = defineTool({
  name: "test_simple_text",
  description: "Returns a single text block (tools-call-simple-text).",
  inputSchema: NO_ARGS,
  handler: () => "This is a simple text response for testing.",
});

export const imageContent = defineTool({
  name: "test_image_content",
  description: "Returns one image block: a 1x1 red PNG (tools-call-image).",
  inputSchema: NO_ARGS,
  handler: () => ({ content: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }] }),
});

export const audioContent = defineTool({
  name: "test_audio_content",
  description: "Returns one audio block: a minimal WAV file (tools-call-audio).",
  inputSchema: NO_ARGS,
  handler: () => ({ content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }] }),
});

export const embeddedResource = defineTool({
  name: "test_embedded_resource",
  description: "Returns an embedded text resource (tools-call-embedded-resource).",
  inputSchema: NO_ARGS,
  handler: () => ({
    content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
  }),
});

export const multipleContentTypes = defineTool({
  name: "test_multiple_content_types",
  description: "Returns text, image and embedded resource blocks in one result (tools-call-mixed-content).",
  inputSchema: NO_ARGS,
  handler: () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG_BASE64, mimeType: "image/png" },
      {
        type: "resource",
        resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
      },
    ],
  }),
});

/** tools-call-with-logging (2025): three info messages, 50 ms apart, before the result. */
export const toolWithLogging = defineTool({
  name: "test_tool_with_logging",
  description: "Sends three log messages while it runs, then returns (tools-call-with-logging).",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    ctx.log("info", "Tool execution started");
    await sleep(50, ctx.signal);
    ctx.log("info", "Tool processing data");
    await sleep(50, ctx.signal);
    ctx.log("info", "Tool execution completed");
    return "Tool with logging executed successfully";
  },
});

/** tools-call-error: a tool-level error (`isError: true`), never a JSON-RPC error. */
export const errorHandling = defineTool({
  name: "test_error_handling",
  description: "Always fails with an isError result (tools-call-error).",
  inputSchema: NO_ARGS,
  handler: () => ({ content: [{ type: "text", text: "This tool intentionally returns an error for testing" }], isError: true }),
});

/** tools-call-with-progress: progress 0, 50, 100 of 100, 50 ms apart, sent only when the request has a progressToken. */
export const toolWithProgress = defineTool({
  name: "test_tool_with_progress",
  description: "Reports progress three times (0, 50, 100 of 100) before it returns (tools-call-with-progress).",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    for (const [step, value] of [0, 50, 100].entries()) {
      if (step > 0) await sleep(50, ctx.signal);
      ctx.progress(value, 100, `Completed step ${value} of 100`);
    }
    return "Progress test completed: reported 0, 50 and 100 of 100.";
  },
});

/** tools-call-sampling (2025): asks the client's model; needs a legacy session to reach the client. */
export const sampling = defineTool({
  name: "test_sampling",
  description: "Asks the client's model to answer a prompt (sampling/createMessage) and returns the answer (tools-call-sampling).",
  inputSchema: {
    type: "object",
    properties: { prompt: { type: "string", description: "The prompt to send to the client's model." } },
    required: ["prompt"],
  },
  handler: async (args, ctx) => {
    const answer = await ctx.sample(
      { messages: [{ role: "user", content: { type: "text", text: String(args["prompt"]) } }], maxTokens: 100 },
      { key: "sampling_request" },
    );
    return `LLM response: ${sampledText(answer)}`;
  },
});

/** tools-call-elicitation (2025): asks the user for a name and an email. */
export const elicitation = defineTool({
  name: "test_elicitation",
  description: "Asks the user for their information (elicitation/create) and returns what they answered (tools-call-elicitation).",
  inputSchema: {
    type: "object",
    properties: { message: { type: "string", description: "The message shown to the user." } },
    required: ["message"],
  },
  handler: async (args, ctx) => {
    const answer = await ctx.elicit(
      {
        message: String(args["message"]),
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "Your user name" },
            email: { type: "string", format: "email", description: "Your email address" },
          },
          required: ["username", "email"],
        },
      },
      { key: "user_information" },
    );
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  },
});

/** elicitation-sep1034-defaults (2025): every primitive type with a default value. */
export const elicitationDefaults = defineTool({
  name: "test_elicitation_sep1034_defaults",
  description: "Asks the user to review a form whose fields all have default values (SEP-1034).",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(
      {
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      },
      { key: "defaults_form" },
    );
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  },
});

/** elicitation-sep1330-enums (2025): the five enum forms (untitled/titled, single/multi, legacy enumNames). */
export const elicitationEnums = defineTool({
  name: "test_elicitation_sep1330_enums",
  description: "Asks the user to pick from every kind of enum field: untitled, titled, legacy enumNames, single and multi select (SEP-1330).",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(
      {
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", description: "Pick one option", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              description: "Pick one titled option",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              description: "Pick one option (legacy enumNames)",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: {
              type: "array",
              description: "Pick one to three options",
              minItems: 1,
              maxItems: 3,
              items: { type: "string", enum: ["option1", "option2", "option3"] },
            },
            titledMulti: {
              type: "array",
              description: "Pick one to three titled options",
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
          required: [],
        },
      },
      { key: "enum_form" },
    );
    const choice = acceptedField(answer, "untitledSingle");
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}${choice ? ` (first pick: ${choice})` : ""}`;
  },
});

/**
 * json-schema-2020-12 (pending in both suites): listed only. The schema is the alpha's fuller one
 * ($anchor, allOf/anyOf, if/then/else), which also satisfies 0.1.16's four checks.
 */
export const jsonSchema202012 = defineTool({
  name: "json_schema_2020_12_tool",
  description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: {
      address: {
        $anchor: "addressDef",
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    },
    properties: {
      name: { type: "string" },
      address: { $ref: "#/$defs/address" },
      contactMethod: { type: "string", enum: ["phone", "email"] },
      phone: { type: "string" },
      email: { type: "string" },
    },
    allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
    if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
    then: { required: ["phone"] },
    else: { required: ["email"] },
    additionalProperties: false,
  },
  handler: (args) => `Received ${JSON.stringify(args)}`,
});

/**
 * server-sse-polling (2025, pending): the reference closes the POST stream before answering; a
 * stateless server cannot resume a stream, so this one answers on the same response.
 */
export const reconnection = defineTool({
  name: "test_reconnection",
  description: "Closes its SSE connection, waits 100 ms and returns; the client must reconnect to get the result (SEP-1699).",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    ctx.closeStream();
    await sleep(100, ctx.signal);
    return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.";
  },
});

/** Tools both eras list, in the order `tools/list` shows them (the first must take `{}` quickly: http-header-validation calls it). */
export const sharedTools = [
  simpleText,
  imageContent,
  audioContent,
  embeddedResource,
  multipleContentTypes,
  toolWithLogging,
  errorHandling,
  toolWithProgress,
  sampling,
  elicitation,
  elicitationDefaults,
  elicitationEnums,
  jsonSchema202012,
  reconnection,
];
