/**
 * McpAccountsObject: one Durable Object per tenant and principal (named by `accountsObjectName`)
 * that holds the principal's connected upstream accounts.
 *
 * Storage (key-value API): `owner` (the tenant, issuer and subject it serves, written on first
 * use; a call for anyone else is refused), `account:<provider>` (the tokens sealed with AES-GCM
 * under the Worker secret's first key, bound to owner and provider; or `disconnected`), and
 * `connect:<nonce>` (a pending connect: provider, sealed PKCE verifier, expiry ten minutes on),
 * `exchange:<provider>:<digest of audience and scope>` (a token exchanged for the account's, sealed, until it expires).
 * Lifecycle: an account lives until the user or an admin disconnects it, or the provider refuses
 * its refresh token (then it is marked disconnected). A connect record is deleted when its
 * callback arrives, and expired ones when the next is made.
 * Refreshes run one at a time per account inside the object (single flight), and token exchanges one
 * at a time per provider, audience and scope.
 */

import { DurableObject } from "cloudflare:workers";
import { AccountKeys } from "./account-keys.ts";
import { AccountTokenError, type ResolvedProvider } from "./account-provider.ts";
import { AccountStore, type AccountOwner, type AccountSummary, type ExchangeRequest, type TokenAnswer } from "./account-store.ts";

/** What the object answers a token request with: a token, a connect record, or why neither (no token in it). */
export type AccountAnswer = TokenAnswer | { readonly kind: "unavailable"; readonly message: string };

export class McpAccountsObject extends DurableObject<Record<string, unknown>> {
  #store: Promise<AccountStore> | undefined;

  async #storeFor(owner: AccountOwner, keyName: string): Promise<AccountStore> {
    const stored = await this.ctx.storage.get<AccountOwner>("owner");
    if (stored === undefined) await this.ctx.storage.put("owner", { tenant: owner.tenant, issuer: owner.issuer, subject: owner.subject });
    else if (stored.tenant !== owner.tenant || stored.issuer !== owner.issuer || stored.subject !== owner.subject)
      throw new Error("this accounts object belongs to another principal");
    this.#store ??= AccountKeys.from(this.env[keyName] as string | undefined, keyName).then(
      (keys) => new AccountStore(this.ctx.storage as unknown as ConstructorParameters<typeof AccountStore>[0], keys, owner),
    );
    this.#store.catch(() => (this.#store = undefined));
    return this.#store;
  }

  /** A fresh access token, a connect record, or why neither (RPC). */
  async token(owner: AccountOwner, keyName: string, provider: ResolvedProvider): Promise<AccountAnswer> {
    const store = await this.#storeFor(owner, keyName);
    try {
      return await store.token(provider);
    } catch (error) {
      if (error instanceof AccountTokenError) return { kind: "unavailable", message: error.message };
      throw error;
    }
  }

  /** A token exchanged for the account's (RFC 8693), a connect record, or why neither (RPC). */
  async exchange(owner: AccountOwner, keyName: string, provider: ResolvedProvider, request: ExchangeRequest): Promise<AccountAnswer> {
    const store = await this.#storeFor(owner, keyName);
    try {
      return await store.exchange(provider, request);
    } catch (error) {
      if (error instanceof AccountTokenError) return { kind: "unavailable", message: error.message };
      throw error;
    }
  }

  /** The PKCE challenge of a pending connect, or undefined when it is used, expired or not for this provider (RPC). */
  async connectChallenge(owner: AccountOwner, keyName: string, nonce: string, provider: string): Promise<string | undefined> {
    return (await this.#storeFor(owner, keyName)).connectChallenge(nonce, provider);
  }

  /** Consumes a pending connect and exchanges its code: "connected", "used" (replayed or expired), or the failure's message (RPC). */
  async finishConnect(owner: AccountOwner, keyName: string, nonce: string, provider: ResolvedProvider, code: string, redirectUri: string): Promise<string> {
    const store = await this.#storeFor(owner, keyName);
    try {
      return (await store.finishConnect(nonce, provider, code, redirectUri)) ? "connected" : "used";
    } catch (error) {
      if (error instanceof AccountTokenError) return error.message;
      throw error;
    }
  }

  async list(owner: AccountOwner, keyName: string): Promise<AccountSummary[]> {
    return (await this.#storeFor(owner, keyName)).list();
  }

  async disconnect(owner: AccountOwner, keyName: string, provider: string): Promise<boolean> {
    return (await this.#storeFor(owner, keyName)).disconnect(provider);
  }
}
