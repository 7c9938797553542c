/** The MCP server: tools compiled once, and one method table per protocol era. */

import { ErrorCode, ProtocolError, invalidParams } from "../core/errors.ts";
import { isObject, own } from "../core/json.ts";
import type { InboundRequest } from "../core/jsonrpc.ts";
import type { Implementation, JsonObject } from "../core/types.ts";
import { loggingLevelRank } from "../core/types.ts";
import { LEGACY_VERSIONS, MetaKey, SUPPORTED_VERSIONS, isLegacyVersion } from "../core/versions.ts";
import { callTool, resolveTool } from "./call-tool.ts";
import { createToolContext, type RequestContext } from "./request-context.ts";
import { ToolRegistry } from "./tool-registry.ts";
import type { Era } from "./tool-context.ts";
import type { ToolDefinition } from "./tool.ts";

export interface ServerOptions {
  /** `serverInfo` sent to clients: name and version are required. */
  info: Implementation;
  /** Guidance for the model on how to use this server. */
  instructions?: string;
  tools?: readonly ToolDefinition<any>[];
  /** Tools per `tools/list` page (default 100). */
  pageSize?: number;
  /** 2026-07-28 caching hint on list and discover results, in ms (default 300000). */
  listTtlMs?: number;
  /** 2026-07-28 cache scope: "public" unless results depend on who asks (default "public"). */
  cacheScope?: "public" | "private";
}

/** A result already serialised as JSON (pre-built pages), written to the wire as is. */
export class RawResult {
  constructor(readonly json: string) {}
}

export type MethodResult = JsonObject | RawResult;

type Method = (request: InboundRequest, ctx: RequestContext) => MethodResult | Promise<MethodResult>;

/** A compiled MCP server. Build it once per isolate (at module scope) with {@link createServer}. */
export interface McpServer {
  readonly info: Implementation;
  readonly tools: ToolRegistry;
  /** Runs one request; throws {@link ProtocolError} for JSON-RPC errors. */
  handle(request: InboundRequest, ctx: RequestContext): Promise<MethodResult>;
  /** True when the era has this method (404 / -32601 otherwise in 2026-07-28). */
  hasMethod(method: string, era: Era): boolean;
}

/**
 * Compiles a server: validates every tool, builds validators and the `tools/list` pages.
 * Throws a `DefinitionError` that names the tool and the problem.
 */
export function createServer(options: ServerOptions): McpServer {
  const info = options.info;
  const serverInfoMeta = { [MetaKey.serverInfo]: info };
  const ttlMs = options.listTtlMs ?? 300_000;
  const cacheScope = options.cacheScope ?? "public";
  const modernListTail = `,"resultType":"complete","ttlMs":${ttlMs},"cacheScope":${JSON.stringify(cacheScope)},"_meta":${JSON.stringify(serverInfoMeta)}`;
  const tools = new ToolRegistry(options.tools ?? [], { pageSize: options.pageSize ?? 100, modernListTail, scope: info.name });

  const capabilities: JsonObject = { logging: {} };
  if (tools.size > 0) capabilities["tools"] = {};

  const discover = new RawResult(
    JSON.stringify({
      resultType: "complete",
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ttlMs,
      cacheScope,
      _meta: serverInfoMeta,
    }),
  );

  const toolsList: Method = (request, ctx) => new RawResult(tools.page(request.params ? own(request.params, "cursor") : undefined, ctx.era));
  const toolsCall: Method = async (request, ctx) => {
    const tool = resolveTool(tools, request.params);
    const result = await callTool(tool, request.params, createToolContext(ctx));
    return result as unknown as JsonObject;
  };

  const legacy = new Map<string, Method>([
    [
      "initialize",
      (request) => {
        const requested = request.params ? own(request.params, "protocolVersion") : undefined;
        if (typeof requested !== "string") throw invalidParams(`initialize needs params.protocolVersion (a string such as "2025-11-25")`);
        // Answer with the requested version when we speak it, else our newest legacy one (2025-11-25 lifecycle).
        const protocolVersion = isLegacyVersion(requested) ? requested : LEGACY_VERSIONS[0];
        const result: JsonObject = { protocolVersion, capabilities, serverInfo: info };
        if (options.instructions !== undefined) result["instructions"] = options.instructions;
        return result;
      },
    ],
    ["ping", () => ({})],
    [
      "logging/setLevel",
      (request) => {
        const level = request.params ? own(request.params, "level") : undefined;
        if (loggingLevelRank(level) === undefined) throw invalidParams(`logging/setLevel needs params.level, one of debug, info, notice, warning, error, critical, alert, emergency`);
        return {};
      },
    ],
    ["tools/list", toolsList],
    ["tools/call", toolsCall],
  ]);

  const modern = new Map<string, Method>([
    ["server/discover", () => discover],
    ["tools/list", toolsList],
    ["tools/call", toolsCall],
  ]);
  if (tools.size === 0) {
    legacy.delete("tools/list");
    legacy.delete("tools/call");
    modern.delete("tools/list");
    modern.delete("tools/call");
  }

  return {
    info,
    tools,
    hasMethod: (method, era) => (era === "modern" ? modern : legacy).has(method),
    async handle(request, ctx) {
      const method = (ctx.era === "modern" ? modern : legacy).get(request.method);
      if (!method) {
        throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`, { status: ctx.era === "modern" ? 404 : 200 });
      }
      const result = await method(request, ctx);
      if (ctx.era !== "modern" || result instanceof RawResult) return result;
      // 2026-07-28: every result carries resultType, and serverInfo in _meta (basic/index "_meta").
      const meta = isObject(result["_meta"]) ? { ...result["_meta"], ...serverInfoMeta } : serverInfoMeta;
      return { ...result, resultType: result["resultType"] ?? "complete", _meta: meta };
    },
  };
}
