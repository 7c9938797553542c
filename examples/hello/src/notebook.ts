/** A notebook kept between calls under a handle: shows state across stateless 2026-07-28 calls. */

import { defineTool, ToolError } from "edge-mcp";

interface Notebook {
  title: string;
  entries: string[];
}

const HANDLE = "The handle notebook_open returned.";
const MAX_ENTRIES = 100;

export const notebookOpen = defineTool({
  name: "notebook_open",
  title: "Open a notebook",
  description: "Creates an empty notebook and returns its handle; pass the handle to notebook_append and notebook_read. Notebooks expire after an hour.",
  inputSchema: { type: "object", properties: { title: { type: "string", maxLength: 200 } }, required: ["title"], additionalProperties: false },
  outputSchema: { type: "object", properties: { handle: { type: "string" } }, required: ["handle"] },
  annotations: { openWorldHint: false },
  handler: async (args, ctx) => {
    const notebook: Notebook = { title: args.title, entries: [] };
    return { structuredContent: { handle: await ctx.handles.create(notebook, { ttlMs: 60 * 60_000 }) } };
  },
});

export const notebookAppend = defineTool({
  name: "notebook_append",
  title: "Append to a notebook",
  description: "Adds a line to the notebook with this handle and says how many lines it has.",
  inputSchema: {
    type: "object",
    properties: { handle: { type: "string", description: HANDLE }, text: { type: "string", maxLength: 2000 } },
    required: ["handle", "text"],
    additionalProperties: false,
  },
  annotations: { openWorldHint: false },
  handler: async (args, ctx) => {
    const notebook = await ctx.handles.get<Notebook>(args.handle);
    if (notebook.entries.length >= MAX_ENTRIES) throw new ToolError(`the notebook is full (${MAX_ENTRIES} lines)`);
    notebook.entries.push(args.text);
    await ctx.handles.update(args.handle, notebook);
    return `"${notebook.title}" now has ${notebook.entries.length} line(s)`;
  },
});

export const notebookRead = defineTool({
  name: "notebook_read",
  title: "Read a notebook",
  description: "Returns the lines of the notebook with this handle.",
  inputSchema: { type: "object", properties: { handle: { type: "string", description: HANDLE } }, required: ["handle"], additionalProperties: false },
  outputSchema: {
    type: "object",
    properties: { title: { type: "string" }, entries: { type: "array", items: { type: "string" } } },
    required: ["title", "entries"],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: async (args, ctx) => {
    const notebook = await ctx.handles.get<Notebook>(args.handle);
    return { structuredContent: { title: notebook.title, entries: notebook.entries } };
  },
});
