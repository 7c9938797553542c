/** One page of a list method for one caller, with cursors bound to the caller when there is a principal. */

import { invalidParams } from "../../core/errors.ts";
import { own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { Era } from "../context/handler-context.ts";
import { RawResult } from "../raw-result.ts";
import type { TransportContext } from "../context/transport.ts";

const NEXT_CURSOR = /"nextCursor":"([^"]*)"/;

/**
 * A list page for one caller. Without a principal, cursors are the list's own (bound to the
 * server, that is the tenant). With one, each cursor also carries a MAC of the caller's scope, so
 * a cursor minted for one principal is refused for another (-32602).
 */
export async function listPage(
  request: InboundRequest,
  ctx: TransportContext,
  page: (cursor: unknown, era: Era) => string | Promise<string>,
): Promise<RawResult> {
  const requested = request.params ? own(request.params, "cursor") : undefined;
  const caller = ctx.admission.principal ? ctx.admission.caller : undefined;
  if (caller === undefined) return new RawResult(await page(requested, ctx.era));
  let cursor = requested;
  if (typeof cursor === "string") {
    const dot = cursor.lastIndexOf(".");
    const base = dot === -1 ? "" : cursor.slice(0, dot);
    if (dot === -1 || cursor.slice(dot + 1) !== (await ctx.endpoint.sealer.tag(`${caller}\n${base}`)))
      throw invalidParams(`Invalid cursor: it was not issued to this caller`);
    cursor = base;
  }
  const json = await page(cursor, ctx.era);
  const next = NEXT_CURSOR.exec(json)?.[1];
  if (next === undefined) return new RawResult(json);
  return new RawResult(json.replace(NEXT_CURSOR, `"nextCursor":"${next}.${await ctx.endpoint.sealer.tag(`${caller}\n${next}`)}"`));
}
