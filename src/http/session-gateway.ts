/** How the stateless edge reaches legacy sessions: the interface a session host implements. */

import type { Admission } from "../core/admission.ts";

export interface SessionGateway {
  /** A new, unguessable session id (visible ASCII only). */
  mint(): string;
  /**
   * Hands an admitted request to the session's engine. `body` is the already-read POST body;
   * `admission` is what admission decided (tenant, principal, limits), passed as structured data;
   * `create` is set only for the `initialize` that opens the session.
   */
  forward(sessionId: string, request: Request, body: string | undefined, admission: Admission, create: boolean): Promise<Response>;
}
