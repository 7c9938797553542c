/** The signed-in user of a request the authorization server let through: principal, claims and upstream tokens, out of reach of headers. */

import type { Principal } from "../core/principal.ts";

/** The upstream tokens of a grant, as stored (encrypted by the library) in its props. */
export interface UpstreamTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Seconds since the epoch. */
  readonly expiresAt?: number;
  readonly tokenType?: string;
}

/** What a grant's props hold (encrypted at rest by workers-oauth-provider): who signed in upstream, and their upstream tokens. */
export interface GrantProps {
  /** The upstream provider's issuer (the OIDC `iss`, or the GitHub API origin). */
  readonly upstreamIssuer: string;
  /** The upstream subject (`sub`, or GitHub's numeric user id). */
  readonly upstreamSubject: string;
  /** The upstream claims kept for handlers (name, email, login…): never tokens. */
  readonly claims: Readonly<Record<string, unknown>>;
  readonly upstream: UpstreamTokens;
}

/** A signed-in user, as a handler sees it. */
export interface SignedInUser {
  readonly principal: Principal;
  readonly upstreamIssuer: string;
  readonly upstreamSubject: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * Principals handed to the MCP Worker, by the request object the wrapper passed on, and the grant of
 * each principal. Only this module's owner (the OAuth Worker) writes them; a header can forge neither.
 */
export class SignedInRegistry {
  readonly #byRequest = new WeakMap<Request, Principal>();
  readonly #byPrincipal = new WeakMap<Principal, GrantProps>();

  /** Records the principal of a request the authorization server admitted, with its grant's props. */
  bind(request: Request, principal: Principal, props: GrantProps): void {
    this.#byRequest.set(request, principal);
    this.#byPrincipal.set(principal, props);
  }

  principalOf(request: Request): Principal | undefined {
    return this.#byRequest.get(request);
  }

  propsOf(principal: Principal | undefined): GrantProps | undefined {
    return principal === undefined ? undefined : this.#byPrincipal.get(principal);
  }

  /** The signed-in user of a call; undefined for a call not admitted through this sign-in. */
  userOf(principal: Principal | undefined): SignedInUser | undefined {
    const props = this.propsOf(principal);
    if (props === undefined || principal === undefined) return undefined;
    return { principal, upstreamIssuer: props.upstreamIssuer, upstreamSubject: props.upstreamSubject, claims: props.claims };
  }

  /** The user's upstream access token; throws {@link NotSignedInError} naming `whose` sign-in the call did not come through. */
  upstreamTokenOf(principal: Principal | undefined, whose: string): string {
    const props = this.propsOf(principal);
    if (props === undefined) throw new NotSignedInError(`no upstream token for this call: it was not admitted through ${whose} sign-in in this request`);
    return props.upstream.accessToken;
  }
}

/** The error a handler gets when it asks for the signed-in user where there is none (a call not admitted by the authorization server). */
export class NotSignedInError extends Error {
  readonly code = "ERR_NOT_SIGNED_IN";
  constructor(message: string) {
    super(message);
    this.name = "NotSignedInError";
  }
}
