/** Reaching legacy sessions from the Worker: session ids, and forwarding to the session's Durable Object. */

import { DefinitionError } from "../core/definition-error.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import { errorResponse } from "../http/responses.ts";
import type { SessionGateway } from "../session/session-gateway.ts";

// Set by the Worker on forwarded requests only (never copied from the client).
export const SESSION_HEADER = "x-edge-mcp-session";
export const SCOPE_HEADER = "x-edge-mcp-scope";
export const CREATE_HEADER = "x-edge-mcp-create";
const FORWARDED = ["accept", "content-type", "mcp-protocol-version", "last-event-id"];

function secret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_");
}

/**
 * Reaches sessions through the MCP_SESSIONS namespace. A session id is `<object id>.<secret>`:
 * the object id routes (and `idFromString` refuses ids this namespace did not make, so forged
 * ids never wake an object); the 192-bit secret, checked by the object, makes the id
 * unguessable whatever the object id's own entropy.
 */
export function durableSessionGateway(namespace: DurableObjectNamespace): SessionGateway {
  if (typeof namespace?.idFromString !== "function") throw new DefinitionError("MCP_SESSIONS must be a Durable Object namespace binding");
  return {
    mint: () => `${namespace.newUniqueId().toString()}.${secret()}`,
    forward(sessionId, request, body, scope, create) {
      let id: DurableObjectId;
      try {
        const dot = sessionId.indexOf(".");
        if (dot <= 0) throw new Error("no secret");
        id = namespace.idFromString(sessionId.slice(0, dot));
      } catch {
        return Promise.resolve(errorResponse(new ProtocolError(ErrorCode.InvalidRequest, "Session not found: initialize a new session", { status: 404 })));
      }
      const headers = new Headers({ [SESSION_HEADER]: sessionId, [SCOPE_HEADER]: scope });
      if (create) headers.set(CREATE_HEADER, "1");
      for (const name of FORWARDED) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      const init: RequestInit = { method: request.method, headers };
      if (body !== undefined) init.body = body;
      return namespace.get(id).fetch("https://session.edge-mcp.internal/mcp", init);
    },
  };
}
