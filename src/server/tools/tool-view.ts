/** A request's view of the tools for one reader (the caller's filter narrowed by what features hide), and what tools read of a transport. */

import type { TransportContext } from "../context/transport.ts";
import type { CompiledTool } from "./compile-tool.ts";
import type { ToolFilter } from "./tool-filter.ts";

/**
 * Who reads a view of the tools: `client`, the `tools/list` a host gets (the host hides from its
 * model what it must, as MCP Apps' visibility asks); `model`, what a model reads directly (tool
 * search results, the tools `call_tool` may run).
 */
export type ToolReader = "client" | "model";

/** What a feature hides from one request's view, for one reader (undefined hides nothing). */
export type FeatureToolFilter = (ctx: TransportContext, reader: ToolReader) => ToolFilter | undefined;

/** The caller's own filter narrowed by what each feature hides from this reader (undefined: every tool). */
export function narrowedView(ctx: TransportContext, filters: readonly FeatureToolFilter[], reader: ToolReader): ToolFilter | undefined {
  let filter = ctx.toolFilter;
  for (const narrow of filters) {
    const more = narrow(ctx, reader);
    if (!more) continue;
    const base = filter;
    filter = base
      ? { key: `${base.key}\n${more.key}`, allows: (name) => base.allows(name) && more.allows(name), shared: base.shared === true && more.shared === true }
      : more;
  }
  return filter;
}

/** The members of a request's transport that tools read: the transports of this package set them. */
export interface ToolTransport {
  /** The tool of a `tools/call`, when admission already resolved it. */
  tool?: CompiledTool | undefined;
  /**
   * Admits a call of another tool by name on this caller's behalf, exactly as a `tools/call` of it
   * would be admitted (scopes 403, rate limits 429, unknown -32602), and returns the tool. For
   * code that calls tools for the model, such as a `call_tool` of tool search.
   */
  admitTool?(name: string): Promise<CompiledTool>;
  /** Which tools this caller may see (auth tenants): lists and tool search show only those. */
  readonly toolFilter?: ToolFilter | undefined;
}

declare module "../context/transport.ts" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tools' members, merged into the contract
  interface TransportContext extends ToolTransport {}
}
