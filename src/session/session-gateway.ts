/** How the stateless edge reaches legacy sessions: mint ids and forward a session's requests to it. */

export interface SessionGateway {
  /** A new, unguessable session id (visible ASCII only). */
  mint(): string;
  /**
   * Hands a request to the session's engine. `body` is the already-read POST body; `scope` is
   * the verified tenant and principal; `create` is set only for the `initialize` that opens it.
   */
  forward(sessionId: string, request: Request, body: string | undefined, scope: string, create: boolean): Promise<Response>;
}
