/**
 * Legacy sessions in an isolate: what an endpoint with a session gateway does that a stateless one
 * never does, registered by what brings a gateway (session-routes.ts `wireSessions`).
 */

import type { Admission } from "../core/admission.ts";
import { DefinitionError } from "../core/definition-error.ts";
import type { RequestId } from "../core/jsonrpc.ts";
import type { WaitUntil } from "../core/names.ts";
import type { AdmittedPost } from "./admitted.ts";
import type { Endpoint } from "./endpoint.ts";
import type { SessionOpening } from "./session-gateway.ts";

/** The session routes of an endpoint whose `sessions` gateway is set. */
export interface SessionRoutes {
  /** Admission of an `initialize` that opens a session: mints its id and takes its quota place (429 when full). */
  open(endpoint: Endpoint, admission: Admission, id: RequestId): Promise<{ id: string; opening: SessionOpening }>;
  /** A 2025-era POST: `initialize` opens its session, anything else goes to the session it names. */
  post(request: Request, endpoint: Endpoint, admitted: AdmittedPost): Promise<Response>;
  /** An admitted GET (the session's stream, holding a streams quota place) or DELETE of the session `sessionId`. */
  stream(request: Request, endpoint: Endpoint, admission: Admission, sessionId: string, waitUntil: WaitUntil | undefined): Promise<Response>;
}

/** This isolate's session routes; set before any endpoint with a session gateway is built. */
export const sessionWiring: { routes?: SessionRoutes } = {};

/**
 * The session routes of an endpoint whose `sessions` gateway is set. What builds such an endpoint
 * wires them first (`createMcpApp`, the session object's gateway module); one built otherwise gets
 * this error, which names the fix, instead of a TypeError.
 */
export function sessionRoutes(): SessionRoutes {
  if (sessionWiring.routes) return sessionWiring.routes;
  throw new DefinitionError("a session gateway needs the session routes: build the app with createMcpApp({ sessions }), which brings them");
}
