/** Which tools a caller may see: lists and tool search show only those (2026-07-28 tools: lists MAY vary by authorization). */

/**
 * A caller's view of the tools, from its authorization (on auth tenants, the scopes each tool
 * needs). Built by the transport for each request; the server keeps one list and search view per
 * distinct `key`, so callers whose scopes allow the same tools share them.
 */
export interface ToolFilter {
  /** Equal keys allow exactly the same tools. */
  readonly key: string;
  /** True when the caller may call the tool, so may see it. */
  allows(name: string): boolean;
  /**
   * True when the view depends only on what the request itself says (its declared extensions),
   * not on who sends it: its 2026-07-28 pages keep the server's cache scope instead of "private".
   */
  readonly shared?: boolean;
}
