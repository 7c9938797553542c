/** The context a tool handler receives: cancellation, progress, logging, and who is asking. */

import type { JsonObject, LoggingLevel } from "../core/types.ts";

export type Era = "legacy" | "modern";

export interface ToolContext {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** The revision this request speaks (`2026-07-28`, `2025-11-25`, …). */
  readonly protocolVersion: string;
  /** `modern` for 2026-07-28 (stateless), `legacy` for revisions negotiated with `initialize`. */
  readonly era: Era;
  /** What the client declared it supports (empty when unknown, e.g. a stateless legacy request). */
  readonly clientCapabilities: JsonObject;
  /**
   * Reports progress when the client asked for it (a `progressToken`); otherwise does nothing.
   * Values must increase; a value that does not is dropped (the spec forbids sending it).
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Sends a log message to the client when the revision's rules allow it: in 2026-07-28 only if
   * the request named a log level and this one is at least as severe.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
}
