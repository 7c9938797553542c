/** Rate limits in admission: the limiter interface and the 429 it answers with. */

import type { Admission } from "../../core/admission.ts";
import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import type { RequestId } from "../../core/jsonrpc.ts";

/** Checks rate limits for one admitted request; resolves with the seconds to wait when one is reached. */
export interface RateLimiter {
  /**
   * `tool` is the tool a `tools/call` names, resolved by admission. `toolOnly` is set for a tool
   * called by name within a request already admitted (tool search's `call_tool`): the request was
   * counted against the tenant and principal limits once, so only the tool's own limit applies.
   */
  check(admission: Admission, tool: string | undefined, toolOnly?: boolean): Promise<number | undefined>;
}

/** The 429 answer: `Retry-After` plus a JSON-RPC error (-31429) that says when to retry. */
export function rateLimited(waitSeconds: number, requestId: RequestId | undefined): ProtocolError {
  return new ProtocolError(ErrorCode.RateLimited, `Rate limit exceeded: retry after ${waitSeconds} s`, {
    status: 429,
    data: { retryAfterSeconds: waitSeconds },
    headers: { "retry-after": String(waitSeconds) },
    ...(requestId === undefined ? {} : { requestId }),
  });
}
