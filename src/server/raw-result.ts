/** A result already serialised as JSON (pre-built pages), written to the wire as is. */

import type { JsonObject } from "../core/types.ts";

export class RawResult {
  constructor(readonly json: string) {}
}

export type MethodResult = JsonObject | RawResult;
