/**
 * The legacy-session half of the MCP endpoint: the quota place an `initialize` takes in admission,
 * and the POST, GET and DELETE handed to a session. Bundled only with what brings a session
 * gateway (createSessionObject's module, createMcpApp), which hand them to the endpoint by value.
 */

import { sha256Hex } from "../../core/bytes.ts";
import { ErrorCode, invalidRequest, ProtocolError } from "../../core/errors.ts";
import { leaseFor } from "../../server/state/quotas.ts";
import type { Endpoint, SessionRoutes } from "../endpoint.ts";
import { checkAcceptsStream, headerReader } from "../admission/request-checks.ts";
import { errorResponse } from "../responses.ts";
import type { SessionGateway } from "./session-gateway.ts";
import { holdWhileStreaming, takeStreamPlace } from "../listen/stream-places.ts";

/**
 * How long the quota place admission takes for a new session lasts: a session's default idle time
 * (30 minutes) and a minute more, so that a session object with the default idle time need not
 * renew the place it was just given; the session renews it while in use.
 */
export const SESSION_LEASE_MS = 31 * 60_000;

const gatewayOf = (endpoint: Endpoint): SessionGateway => endpoint.sessions as SessionGateway;

/** The session routes, handed to an endpoint with its session gateway (`createEndpoint(options, { sessionRoutes })`). */
export const sessionRoutes: SessionRoutes = {
  async open(endpoint, admission, id) {
    const sessionId = gatewayOf(endpoint).mint();
    // The quota lease id of a session is the digest of its id (the id itself is a credential).
    const idHash = await sha256Hex(sessionId);
    if (!endpoint.quotaCounter) return { id: sessionId, opening: { idHash, leaseExpiresAt: undefined } };
    const limit = admission.quotas.sessions;
    const leaseExpiresAt = Date.now() + SESSION_LEASE_MS;
    const lease = leaseFor(admission, "sessions", idHash, leaseExpiresAt);
    if (await endpoint.quotaCounter.acquire(admission.tenant, lease, limit)) return { id: sessionId, opening: { idHash, leaseExpiresAt } };
    throw new ProtocolError(
      ErrorCode.RateLimited,
      `Too many open sessions: a caller may hold ${limit.perPrincipal} (and this server ${limit.perTenant}) at once; ` +
        "end a session with DELETE, or wait for idle ones to expire",
      {
        status: 429,
        requestId: id,
        data: { quota: "sessions", perPrincipal: limit.perPrincipal, perTenant: limit.perTenant },
        headers: { "retry-after": "60" },
      },
    );
  },

  async post(request, endpoint, admitted) {
    const sessions = gatewayOf(endpoint);
    const { newSession, opening } = admitted;
    if (newSession !== undefined && opening !== undefined) {
      const id = admitted.message.kind === "request" ? admitted.message.id : undefined;
      const response = await sessions
        .forward(newSession, request, admitted.text, admitted.admission, opening)
        .catch((error: unknown) => errorResponse(error, id));
      // Only an opened session answers with its id: any other answer (a refusal, whatever its status) gives the quota place back.
      if (!response.headers.has("mcp-session-id") && endpoint.quotaCounter) await endpoint.quotaCounter.release(endpoint.tenant, opening.idHash);
      return response;
    }
    const sessionId = headerReader(request.headers)("mcp-session-id");
    if (sessionId === null) {
      throw invalidRequest(
        `Missing Mcp-Session-Id header: this server keeps 2025-era clients in sessions; send initialize first and then the Mcp-Session-Id it returns`,
      );
    }
    return sessions.forward(sessionId, request, admitted.text, admitted.admission, undefined);
  },

  async stream(request, endpoint, admission, sessionId, waitUntil) {
    const sessions = gatewayOf(endpoint);
    if (request.method === "DELETE") return sessions.forward(sessionId, request, undefined, admission, undefined);
    checkAcceptsStream(request);
    // A GET stream holds a place in the caller's streams quota while it is open.
    const place = await takeStreamPlace(endpoint, admission, undefined, waitUntil);
    const forwarded = await sessions.forward(sessionId, request, undefined, admission, undefined).catch((error: unknown) => {
      place.release();
      throw error;
    });
    return holdWhileStreaming(forwarded, place, waitUntil);
  },
};
