/** 2025-11-25: tells the session a connect link was asked for in that the user completed it (`notifications/elicitation/complete`). */

import { callerKey } from "../../core/principal.ts";
import type { JsonObject } from "../../core/types.ts";
import type { ConnectState } from "./connect-state.ts";

/** The session object's RPC method this uses (McpSessionObject.notify). */
interface SessionNotifier {
  notify(idHash: string, caller: string, message: JsonObject): Promise<boolean>;
}

/**
 * Sends `notifications/elicitation/complete` with the link's elicitation id (its nonce) to the session
 * named in the signed state, on that session's standalone GET stream. The session object sends it only
 * when the session's id digest and its caller (tenant and principal) are the link's. No session in the
 * state, no MCP_SESSIONS binding, no such session or no open stream: nothing is sent, and nothing fails.
 */
export async function notifyElicitationComplete(env: unknown, state: ConnectState): Promise<boolean> {
  const reference = state.session;
  const namespace = (env as { MCP_SESSIONS?: DurableObjectNamespace } | undefined)?.MCP_SESSIONS;
  if (reference === undefined || typeof namespace?.idFromString !== "function") return false;
  const [objectId = "", idHash = ""] = reference.split(".");
  try {
    const session = namespace.get(namespace.idFromString(objectId)) as unknown as SessionNotifier;
    const caller = callerKey(state.tenant, { issuer: state.issuer, subject: state.subject });
    const message = { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: state.nonce } };
    return (await session.notify(idHash, caller, message)) === true;
  } catch {
    // An id of another namespace, a session object without the method, or one that went away: the client retries anyway.
    return false;
  }
}
