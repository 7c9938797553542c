/** A result already serialised as JSON (pre-built pages, decorated 2026-07-28 results), written to the wire as is. */

import type { JsonObject } from "../core/types.ts";

export class RawResult {
  /** `isError`: the result is a tool's own failure (what observers count as a tool error). */
  constructor(
    readonly json: string,
    readonly isError = false,
  ) {}

  /** A dormant result, kept for good so that the class's hidden class outlives a major GC (core/shape-anchor.ts). */
  static readonly dormant = new RawResult("", false);
}

export type MethodResult = JsonObject | RawResult;
