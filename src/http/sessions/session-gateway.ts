/** How the stateless edge reaches legacy sessions: the interface a session host implements. */

import type { Admission } from "../../core/admission.ts";

/**
 * What admission settled when it let an `initialize` open a session: the digest of the new id
 * (the session keeps it, and it names the session's quota lease) and when the quota place it
 * took ends, so the session neither digests the id again nor renews a place just taken.
 */
export interface SessionOpening {
  /** SHA-256 (hex) of the session id. */
  readonly idHash: string;
  /** When the session's quota lease ends (epoch ms); undefined when no quota is counted. */
  readonly leaseExpiresAt: number | undefined;
}

export interface SessionGateway {
  /** A new, unguessable session id (visible ASCII only). */
  mint(): string;
  /**
   * Hands an admitted request to the session's engine. `body` is the already-read POST body;
   * `admission` is what admission decided (tenant, principal, limits), passed as structured data;
   * `opening` is set only for the `initialize` that opens the session.
   */
  forward(sessionId: string, request: Request, body: string | undefined, admission: Admission, opening: SessionOpening | undefined): Promise<Response>;
}
