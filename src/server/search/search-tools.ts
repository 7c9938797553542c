/** The tools of tool search: `search_tools`, `describe_tools` and `call_tool`, ordinary tools every client can use. */

import { invalidParams } from "../../core/errors.ts";
import { own } from "../../core/json.ts";
import type { Params } from "../../core/jsonrpc.ts";
import type { CallToolResult, JsonObject, JsonSchema } from "../../core/types.ts";
import { checkArguments, errorResult, resolveTool, type ToolLookup } from "../tools/call-tool.ts";
import type { CompiledTool } from "../tools/compile-tool.ts";
import type { TransportContext } from "../context/transport.ts";
import { ALWAYS_LOAD, CALL_TOOL, DESCRIBE_TOOLS, SEARCH_TOOLS, type CatalogSource, type ToolCatalog, type ToolSearchResult } from "../tools/tool-search.ts";
import { toolCatalog } from "../tools/tool-catalog.ts";
import type { ToolDefinition } from "../tools/tool.ts";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
const MAX_NAMES = 50;
const SUMMARY_CHARS = 200;
/** `select:a,b` picks tools by exact name (the syntax hosts' own tool search uses). */
const SELECT = "select:";

type Detail = "names" | "summaries" | "full";

/** The first sentence of a description, cut at {@link SUMMARY_CHARS}. */
function summary(description: unknown): string | undefined {
  if (typeof description !== "string") return undefined;
  const line = description.trim().split("\n", 1)[0] as string;
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? line : line.slice(0, end + 1);
  return sentence.length > SUMMARY_CHARS ? `${sentence.slice(0, SUMMARY_CHARS - 1)}…` : sentence;
}

function shaped(tool: JsonObject, detail: Detail): JsonObject {
  if (detail === "full") return tool;
  if (detail === "names") return { name: tool["name"] };
  const out: JsonObject = { name: tool["name"] };
  if (typeof tool["title"] === "string") out["title"] = tool["title"];
  const description = summary(tool["description"]);
  if (description !== undefined) out["description"] = description;
  return out;
}

function line(tool: JsonObject): string {
  const title = typeof tool["title"] === "string" ? ` (${tool["title"]})` : "";
  const name = String(tool["name"]);
  return typeof tool["description"] === "string" ? `- ${name}${title}: ${tool["description"]}` : `- ${name}${title}`;
}

const NEXT_STEP = `Call a tool by its name, or through ${CALL_TOOL} {name, arguments}; ${DESCRIBE_TOOLS} {names} gives full definitions.`;

/** The answer of `search_tools`: a first line a model reads at a glance, the same data as structuredContent. */
function searchResult(query: string, found: ToolSearchResult, detail: Detail, notFound: readonly string[]): CallToolResult {
  const tools = found.tools.map((tool) => shaped(tool, detail));
  const best = found.tools.length < found.matched ? `; the best ${found.tools.length}` : "";
  const lines = [`${found.matched} of ${found.total} tools matched ${JSON.stringify(query)}${best}${tools.length > 0 ? ":" : "."}`];
  if (detail === "full") lines.push(...tools.map((tool) => JSON.stringify(tool)));
  else lines.push(...tools.map(line));
  if (notFound.length > 0) lines.push(`Not found: ${notFound.join(", ")} (no such tool, or not one you may call).`);
  if (tools.length > 0) lines.push(NEXT_STEP);
  else lines.push(`Try other words, fewer words, or part of a tool's name.`);
  const structuredContent: JsonObject = { query, matched: found.matched, total: found.total, tools };
  if (notFound.length > 0) structuredContent["notFound"] = [...notFound];
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent };
}

const listedArray = { type: "array", items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } satisfies JsonSchema;
const builtIn = { [ALWAYS_LOAD]: true };

/** The three tools, in the order they are listed. They see only what the caller may see. */
export function searchToolDefinitions(tools: CatalogSource): ToolDefinition<JsonSchema>[] {
  const catalog = toolCatalog(tools);
  const search: ToolDefinition<JsonSchema> = {
    name: SEARCH_TOOLS,
    title: "Search tools",
    description:
      `Finds this server's tools by what they do. Use it when no listed tool fits. The query is words (matched against tool names, titles, descriptions and parameters) or ${SELECT}name1,name2 to fetch tools by exact name. ` +
      `detail: "names", "summaries" (default) or "full" (definitions with input schemas). Then call a tool found by its name, or through ${CALL_TOOL}.`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 1000, description: `What the tool should do, in a few words; or ${SELECT}name1,name2.` },
        limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, description: `Most tools to return (default ${DEFAULT_LIMIT}).` },
        detail: { type: "string", enum: ["names", "summaries", "full"], description: "How much of each tool to return (default summaries)." },
      },
      required: ["query"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        query: { type: "string" },
        matched: { type: "integer" },
        total: { type: "integer" },
        tools: listedArray,
        notFound: { type: "array", items: { type: "string" } },
      },
      required: ["query", "matched", "total", "tools"],
    },
    annotations: { title: "Search tools", readOnlyHint: true, openWorldHint: false },
    _meta: builtIn,
    handler: (args, ctx) => {
      const query = (args["query"] as string).trim();
      const detail = (args["detail"] as Detail | undefined) ?? "summaries";
      // Results go to a model: features hide what a model must never be offered (apps: app-only tools).
      const filter = ctx.tools?.view("model");
      if (query.startsWith(SELECT)) {
        const names = query
          .slice(SELECT.length)
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== "")
          .slice(0, MAX_NAMES);
        const picked = catalog.pick(names, filter);
        return searchResult(query, { total: picked.total, matched: picked.tools.length, tools: picked.tools }, detail, picked.unknown);
      }
      return searchResult(query, catalog.search(query, (args["limit"] as number | undefined) ?? DEFAULT_LIMIT, filter), detail, []);
    },
  };

  const describe: ToolDefinition<JsonSchema> = {
    name: DESCRIBE_TOOLS,
    title: "Describe tools",
    description: `Gives the full definitions (the tools/list form, with input schemas) of tools named exactly, for example tools found with ${SEARCH_TOOLS}.`,
    inputSchema: {
      type: "object",
      properties: { names: { type: "array", items: { type: "string" }, minItems: 1, maxItems: MAX_NAMES, description: "Exact tool names." } },
      required: ["names"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { tools: listedArray, notFound: { type: "array", items: { type: "string" } } },
      required: ["tools"],
    },
    annotations: { title: "Describe tools", readOnlyHint: true, openWorldHint: false },
    _meta: builtIn,
    handler: (args, ctx) => {
      const picked = catalog.pick(args["names"] as string[], ctx.tools?.view("model"));
      const lines = [
        `${picked.tools.length} of ${(args["names"] as string[]).length} tools described${picked.tools.length > 0 ? ":" : "."}`,
        ...picked.tools.map((tool) => JSON.stringify(tool)),
      ];
      if (picked.unknown.length > 0) lines.push(`Not found: ${picked.unknown.join(", ")} (no such tool, or not one you may call).`);
      const structuredContent: JsonObject = { tools: picked.tools };
      if (picked.unknown.length > 0) structuredContent["notFound"] = picked.unknown;
      return { content: [{ type: "text", text: lines.join("\n") }], structuredContent };
    },
  };

  const call: ToolDefinition<JsonSchema> = {
    name: CALL_TOOL,
    title: "Call a tool",
    description: `Calls any tool of this server by name, listed or not, with its arguments. Use it for tools found with ${SEARCH_TOOLS} that your client does not list.`,
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 128, description: "The exact name of the tool." },
        arguments: { type: "object", description: "The tool's arguments, as its inputSchema describes them." },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: { title: "Call a tool", openWorldHint: true },
    _meta: builtIn,
    handler: () => {
      // tools/call runs the target in call_tool's place (callTarget below); nothing else calls this.
      throw new Error(`${CALL_TOOL} runs only as a tools/call`);
    },
  };
  return [search, describe, call];
}

/**
 * The tool a `call_tool` names, admitted exactly as a direct `tools/call` of it would be (scopes
 * 403, rate limits 429, unknown name -32602), and the params of that direct call. Arguments that
 * do not fit `call_tool` itself give its isError result instead; so does a `call_tool` of itself.
 */
export async function callTarget(
  callToolItself: CompiledTool,
  params: Params | undefined,
  ctx: TransportContext,
  registry: ToolLookup & Pick<ToolCatalog, "viewFor">,
): Promise<{ tool: CompiledTool; params: Params } | CallToolResult> {
  const checked = await checkArguments(callToolItself, params);
  if (!checked.ok) return checked.result;
  const args = checked.args as JsonObject;
  const name = args["name"] as string;
  if (name === CALL_TOOL) return errorResult(`${CALL_TOOL} calls other tools: name the tool to call, not ${CALL_TOOL}.`);
  const tool = ctx.admitTool ? await ctx.admitTool(name) : resolveTool(registry, { name });
  // A model calls through call_tool: a tool a feature hides from models (an app-only tool) is unknown to it.
  if (registry.viewFor(ctx, "model")?.allows(name) === false) throw invalidParams(`Unknown tool: ${name}`);
  const inner = own(args, "arguments");
  return { tool, params: inner === undefined ? { name } : { name, arguments: inner } };
}
