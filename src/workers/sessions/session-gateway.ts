/** Reaching legacy sessions from the Worker: session ids, and forwarding admitted requests to the session's Durable Object. */

import { encodeAdmission } from "../../core/admission.ts";
import { randomToken } from "../../core/bytes.ts";
import { DefinitionError } from "../../core/definition-error.ts";
import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import { errorResponse } from "../../http/responses.ts";
import type { SessionGateway, SessionOpening } from "../../http/sessions/session-gateway.ts";

// Set by the Worker on forwarded requests only (never copied from the client).
export const SESSION_HEADER = "x-edge-mcp-session";
export const ADMISSION_HEADER = "x-edge-mcp-admission";
/** On the `initialize` that opens a session: `<id digest> <lease end, epoch ms, or empty>` (see SessionOpening). */
export const CREATE_HEADER = "x-edge-mcp-create";
const FORWARDED = ["accept", "content-type", "mcp-protocol-version", "last-event-id"];

/**
 * Reaches sessions through the MCP_SESSIONS namespace. A session id is `<object id>.<secret>`:
 * the object id routes (and `idFromString` refuses ids this namespace did not make, so forged
 * ids never wake an object); the 192-bit secret, checked by the object, makes the id
 * unguessable whatever the object id's own entropy. The admission travels with the request as
 * structured data (JSON), so the session object never re-derives who is calling.
 */
export function durableSessionGateway(namespace: DurableObjectNamespace): SessionGateway {
  if (typeof namespace?.idFromString !== "function") throw new DefinitionError("MCP_SESSIONS must be a Durable Object namespace binding");
  return {
    mint: () => `${namespace.newUniqueId().toString()}.${randomToken(24)}`,
    forward(sessionId, request, body, admission, opening) {
      let id: DurableObjectId;
      try {
        const dot = sessionId.indexOf(".");
        if (dot <= 0) throw new Error("no secret");
        id = namespace.idFromString(sessionId.slice(0, dot));
      } catch {
        return Promise.resolve(errorResponse(new ProtocolError(ErrorCode.InvalidRequest, "Session not found: initialize a new session", { status: 404 })));
      }
      const headers = new Headers({ [SESSION_HEADER]: sessionId, [ADMISSION_HEADER]: encodeAdmission(admission) });
      if (opening) headers.set(CREATE_HEADER, `${opening.idHash} ${opening.leaseExpiresAt ?? ""}`);
      for (const name of FORWARDED) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      const init: RequestInit = { method: request.method, headers };
      if (body !== undefined) init.body = body;
      // The public URL the client used: challenges built in the session (call_tool's 403) name
      // their resource_metadata from it, as the Worker's own do; the object routes by headers only.
      return namespace.get(id).fetch(request.url, init);
    },
  };
}

/** Reads the {@link CREATE_HEADER} the Worker set; undefined when absent or malformed. */
export function openingOf(header: string | null): SessionOpening | undefined {
  if (header === null) return undefined;
  const [idHash, lease, ...rest] = header.split(" ");
  if (!idHash || !/^[0-9a-f]{64}$/.test(idHash) || lease === undefined || rest.length > 0) return undefined;
  const leaseExpiresAt = lease === "" ? undefined : Number(lease);
  if (leaseExpiresAt !== undefined && !Number.isSafeInteger(leaseExpiresAt)) return undefined;
  return { idHash, leaseExpiresAt };
}
