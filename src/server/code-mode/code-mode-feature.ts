/** `codeMode()`: the `execute` tool (a model's program run in a sandbox, calling tools) and `tool_declarations` (their TypeScript types). */

import type { CallToolResult, JsonObject, JsonSchema } from "../../core/types.ts";
import type { HandlerContext } from "../context/handler-context.ts";
import type { Feature } from "../feature.ts";
import { errorResult } from "../tools/call-tool.ts";
import { handlerTools } from "../tools/handler-tools.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import { CALL_TOOL } from "../tools/tool-search.ts";
import { toolCatalog, type FullToolCatalog } from "../tools/tool-catalog.ts";
import { DEFAULT_LIMITS, type CodeModeOptions } from "./code-mode-options.ts";
import { toolsDeclaration } from "./declarations.ts";
import { innerCalls } from "./inner-calls.ts";
import { guardProgram } from "./loop-guard.ts";
import { outcomeResult, refusedResult } from "./program.ts";
import { receivedOutcome } from "./received-outcome.ts";

export const EXECUTE = "execute";
export const TOOL_DECLARATIONS = "tool_declarations";
/** Tools a program may not call: code mode's own, and tool search's `call_tool` (a program calls tools by name). */
const RESERVED: ReadonlySet<string> = new Set([EXECUTE, TOOL_DECLARATIONS, CALL_TOOL]);
/** Most tools declared at once without a query or names. */
const MAX_DECLARED = 200;
const DEFAULT_SEARCH_LIMIT = 10;

/**
 * Code mode for `createServer({ features: [codeMode({ runner })] })`: adds `execute`, which runs a
 * JavaScript program that calls this server's tools as `await tools.<name>(args)` and returns
 * only its result to the model, and `tool_declarations`, the TypeScript declarations of the tools
 * the caller may use. Every inner call is admitted as a direct call of the caller's would be.
 * Make one per server (a multi-tenant Worker makes one per tenant).
 *
 * @example
 * createServer({ info, tools, features: [codeMode({ runner: workerLoaderRunner("LOADER"), limits: { wallTimeMs: 10_000 } })] });
 */
export function codeMode(options: CodeModeOptions): Feature {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };

  const execute: ToolDefinition<JsonSchema> = {
    name: EXECUTE,
    title: "Run a program",
    description:
      `Runs a JavaScript program that calls this server's tools and returns only its result: use it instead of many tool calls in a row. ` +
      `The code is the body of an async function (or a module with a default export taking tools); call tools as \`await tools.name(args)\` ` +
      `(\`tools["a.b"](args)\` for names that are not identifiers) and \`return\` what you want to see. A tool gives its structured result, or else its text; a failed call throws. ` +
      `${TOOL_DECLARATIONS} gives the TypeScript declarations of the tools; write plain JavaScript (no type annotations). No network, no imports, no eval. ` +
      `Limits per run: ${limits.wallTimeMs} ms, ${limits.maxIterations} loop turns and function calls, ${limits.maxAllocationBytes} bytes allocated by built-ins (cumulative), ${limits.maxToolCalls} tool calls, ${limits.maxOutputBytes} bytes of result, ${limits.maxConsoleBytes} bytes of console output.`,
    inputSchema: {
      type: "object",
      properties: {
        code: {
          type: "string",
          minLength: 1,
          maxLength: limits.maxCodeChars,
          description: "The program: JavaScript (not TypeScript), the body of an async function that receives `tools`.",
        },
      },
      required: ["code"],
      additionalProperties: false,
    },
    annotations: { title: "Run a program", openWorldHint: true },
    handler: async (args, ctx) => {
      if (!ctx.tools) return errorResult(`${EXECUTE} runs only inside a request of this server`);
      const prepared = guardProgram(args["code"] as string, limits);
      if (!prepared.ok) return refusedResult(prepared);
      const { source, lineOffset } = prepared;
      let over = false;
      const inner = innerCalls(ctx.tools, RESERVED, limits.maxToolCalls, () => over);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<CallToolResult>((resolve) => {
        timer = setTimeout(() => {
          over = true;
          resolve(errorResult(`The program did not finish within ${limits.wallTimeMs} ms (the wall time limit) and was stopped.`));
        }, limits.wallTimeMs);
      });
      const run = options.runner
        .run({
          program: source,
          cpuMs: limits.cpuMs,
          maxConsoleBytes: limits.maxConsoleBytes,
          maxAllocationBytes: limits.maxAllocationBytes,
          callTool: inner.call,
        })
        .then(
          // Checked and cut on this side: the sandbox's own limits hold only as long as the program leaves its realm alone.
          (outcome: unknown) => outcomeResult(receivedOutcome(outcome, limits), lineOffset, limits.maxOutputBytes, inner.count()),
          (error: unknown) => errorResult(`The program could not run: ${error instanceof Error ? error.message : String(error)}`),
        );
      try {
        const result = await Promise.race([run, deadline]);
        // A program that stopped because an inner tool needs the user to connect an account: the
        // execute call asks for it (-32042 or input_required), and the client's retry runs the program again.
        const asked = inner.asked();
        if (result.isError === true && asked !== undefined) throw asked;
        return result;
      } finally {
        over = true;
        if (timer !== undefined) clearTimeout(timer);
      }
    },
  };

  const declarations: ToolDefinition<JsonSchema> = {
    name: TOOL_DECLARATIONS,
    title: "Tool declarations",
    description:
      `Gives TypeScript declarations of the tools a program run by ${EXECUTE} can call, with their descriptions: all of them, those named, ` +
      `or (with tool search on) those found for a query.`,
    inputSchema: {
      type: "object",
      properties: {
        names: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 50, description: "Exact tool names." },
        query: { type: "string", minLength: 1, maxLength: 1000, description: "What the tools should do, in a few words (tool search)." },
        limit: { type: "integer", minimum: 1, maximum: 50, description: `Most tools found for a query (default ${DEFAULT_SEARCH_LIMIT}).` },
      },
      additionalProperties: false,
    },
    annotations: { title: "Tool declarations", readOnlyHint: true, openWorldHint: false },
    handler: (args, ctx) => {
      // The catalogue of the server this request runs on (a context member code mode adds, as any feature may).
      const tools = (ctx as HandlerContext & { readonly codeModeCatalog?: FullToolCatalog }).codeModeCatalog;
      if (!tools) return errorResult(`${TOOL_DECLARATIONS} runs only inside a request of this server`);
      // What a model may see: the caller's tools less what features hide from models (app-only tools).
      const filter = ctx.tools?.view("model");
      const names = args["names"] as string[] | undefined;
      const query = args["query"] as string | undefined;
      let listed: JsonObject[];
      const notes: string[] = [];
      if (names !== undefined) {
        const picked = tools.pick(names, filter);
        listed = picked.tools;
        if (picked.unknown.length > 0) notes.push(`// Not found: ${picked.unknown.join(", ")} (no such tool, or not one you may call).`);
      } else if (query !== undefined) {
        const found = tools.search(query, (args["limit"] as number | undefined) ?? DEFAULT_SEARCH_LIMIT, filter);
        if (found.total === 0 && found.matched === 0 && found.tools.length === 0) {
          listed = tools.visible(filter).filter((tool) => String(tool["name"]).includes(query));
        } else {
          listed = found.tools;
          notes.push(`// ${found.matched} of ${found.total} tools matched ${JSON.stringify(query)}; the best ${found.tools.length} are declared.`);
        }
      } else {
        listed = tools.visible(filter);
        if (listed.length > MAX_DECLARED) {
          notes.push(`// ${listed.length} tools: the first ${MAX_DECLARED} are declared; ask with a query or names for others.`);
          listed = listed.slice(0, MAX_DECLARED);
        }
      }
      listed = listed.filter((tool) => !RESERVED.has(String(tool["name"])));
      return { content: [{ type: "text", text: [...notes, toolsDeclaration(listed)].join("\n") }] };
    },
  };

  return {
    name: "code-mode",
    tools: [execute, declarations],
    install(host) {
      // Programs call tools through ctx.tools, and tool_declarations reads the server's catalogue, as any feature's handlers may.
      return { context: { tools: handlerTools(host), codeModeCatalog: () => toolCatalog(host.tools) } };
    },
  };
}
