import { describe, expect, it } from "vitest";
import { callTool } from "../../../../src/server/tools/call-tool.ts";
import { compileTool } from "../../../../src/server/tools/compile-tool.ts";
import { handlerContext } from "../../context.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { schemaErrors } from "../../../schema.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAAJJRU5ErkJggg==";

const everything = compileTool(
  defineTool({
    name: "everything",
    description: "Returns one block of every content type.",
    inputSchema: { type: "object" },
    handler: () => ({
      content: [
        { type: "text", text: "hello", annotations: { audience: ["user"], priority: 0.5 } },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
        { type: "resource_link", uri: "test://doc", name: "doc", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "test://inline", mimeType: "text/plain", text: "inline" } },
        { type: "resource", resource: { uri: "test://blob", mimeType: "application/octet-stream", blob: "AAEC" } },
      ],
    }),
  }),
);

describe("content types", () => {
  it("passes text, image, audio, resource link and embedded resources through, valid in both revisions", async () => {
    const ctx = handlerContext([], { era: "legacy", protocolVersion: "2025-11-25" });
    const result = await callTool(everything, {}, ctx);
    expect(result.content.map((block) => block.type)).toEqual(["text", "image", "audio", "resource_link", "resource", "resource"]);
    expect(schemaErrors("2025-11-25", "CallToolResult", result)).toEqual([]);
    expect(schemaErrors("2026-07-28", "CallToolResult", { ...result, resultType: "complete" })).toEqual([]);
  });
});
