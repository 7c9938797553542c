/** Protocol revisions this runtime speaks, and the `_meta` keys that carry per-request metadata. */

/** The stateless revision: every request carries its version in `_meta`. */
export const MODERN_VERSION = "2026-07-28";

/** Revisions negotiated with `initialize`, newest first. */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];

/** Every revision served, newest first (listed in `server/discover` and -32022 errors). */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

/** A legacy client that sends no `MCP-Protocol-Version` header is assumed to speak this (2025-11-25 §A.7). */
export const DEFAULT_LEGACY_VERSION: LegacyVersion = "2025-03-26";

const LEGACY_SET: ReadonlySet<string> = new Set(LEGACY_VERSIONS);

export function isLegacyVersion(version: string): version is LegacyVersion {
  return LEGACY_SET.has(version);
}

/** Reserved `_meta` keys of 2026-07-28 (basic/index "_meta"). */
export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  progressToken: "progressToken",
} as const;
