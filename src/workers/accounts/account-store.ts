/** One principal's connected accounts in one tenant: tokens sealed at rest, refresh single-flight, one-time connect records. */

import { randomToken, sha256, sha256Hex, toBase64Url } from "../../core/bytes.ts";
import type { AccountKeys } from "./account-keys.ts";
import { AccountTokenError, tokenRequest, type AccountTokens, type ResolvedProvider } from "./account-provider.ts";
import { CONNECT_STATE_TTL_MS } from "./connect-state.ts";

/** The storage the store keeps its records in: a Durable Object's storage, or a Map in tests. */
export interface AccountStorage {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T>(options: { prefix: string }): Promise<Map<string, T>>;
}

/** Whose accounts these are. */
export interface AccountOwner {
  readonly tenant: string;
  readonly issuer: string;
  readonly subject: string;
}

/** The name of the object that keeps a principal's accounts in a tenant (JSON: no choice of subject collides). */
export function accountsObjectName(owner: AccountOwner): string {
  return JSON.stringify(["accounts", owner.tenant, owner.issuer, owner.subject]);
}

/** An account record (`account:<provider>`): the tokens sealed, or none once disconnected. */
interface AccountRecord {
  readonly sealed?: string;
  readonly connectedAt: number;
  readonly status: "connected" | "disconnected";
}

/** A pending connect (`connect:<nonce>`): which provider, the PKCE verifier sealed, until when. */
interface ConnectRecord {
  readonly provider: string;
  readonly verifier: string;
  readonly expiresAt: number;
}

/** What a token request found: a fresh token, or a connect record to send the user to. */
export type TokenAnswer =
  { readonly kind: "token"; readonly accessToken: string } | { readonly kind: "connect"; readonly nonce: string; readonly expiresAt: number };

/** What a token exchange asks for (RFC 8693 §2.1): the API it is for, and the scope. */
export interface ExchangeRequest {
  readonly audience?: string;
  readonly scope?: string;
}

/** One account as the list page and the admin call show it: never a token. */
export interface AccountSummary {
  readonly provider: string;
  readonly status: "connected" | "disconnected";
  readonly connectedAt: number;
}

/** A token expiring within this many seconds is refreshed first (or a tenth of its lifetime, when that is shorter). */
const EXPIRY_MARGIN_S = 60;

/** True when the access token is still good for a while: no expiry known, or not within the margin. */
function isFresh(tokens: AccountTokens, now: number): boolean {
  if (tokens.expiresAt === undefined) return true;
  const margin = Math.min(EXPIRY_MARGIN_S, (tokens.expiresAt - tokens.obtainedAt) / 10);
  return tokens.expiresAt - margin > now / 1000;
}
/** Pending connects kept per principal: more are refused until some expire. */
const MAX_PENDING = 32;

export class AccountStore {
  /** The refresh in flight per provider: every caller waiting on the account awaits the same one. */
  readonly #refreshing = new Map<string, Promise<AccountTokens>>();
  /** The token exchange in flight per provider, audience and scope: concurrent calls for one audience make one exchange. */
  readonly #exchanging = new Map<string, Promise<TokenAnswer>>();

  constructor(
    private readonly storage: AccountStorage,
    private readonly keys: AccountKeys,
    private readonly owner: AccountOwner,
  ) {}

  /** Binds sealed tokens to their owner and provider: a record copied to another principal's object does not open. */
  #context(provider: string): string {
    return JSON.stringify([this.owner.tenant, this.owner.issuer, this.owner.subject, provider]);
  }

  async #tokensOf(provider: string, record: AccountRecord | undefined): Promise<AccountTokens | undefined> {
    if (record?.status !== "connected" || record.sealed === undefined) return undefined;
    const text = await this.keys.open(record.sealed, this.#context(provider));
    return text === undefined ? undefined : (JSON.parse(text) as AccountTokens);
  }

  async #store(provider: string, tokens: AccountTokens, connectedAt: number): Promise<void> {
    const record: AccountRecord = { sealed: await this.keys.seal(JSON.stringify(tokens), this.#context(provider)), connectedAt, status: "connected" };
    await this.storage.put(`account:${provider}`, record);
  }

  async #disconnect(provider: string): Promise<void> {
    const record = await this.storage.get<AccountRecord>(`account:${provider}`);
    await this.storage.put(`account:${provider}`, { connectedAt: record?.connectedAt ?? 0, status: "disconnected" } satisfies AccountRecord);
  }

  /** A fresh access token for the provider (refreshed first when it expires within a minute), or a connect record. */
  async token(provider: ResolvedProvider, now = Date.now()): Promise<TokenAnswer> {
    const record = await this.storage.get<AccountRecord>(`account:${provider.name}`);
    const tokens = await this.#tokensOf(provider.name, record);
    if (tokens !== undefined) {
      if (isFresh(tokens, now)) {
        // A value sealed under a retired key is sealed again under the first one.
        if (record?.sealed !== undefined && this.keys.isStale(record.sealed)) await this.#store(provider.name, tokens, record.connectedAt);
        return { kind: "token", accessToken: tokens.accessToken };
      }
      if (tokens.refreshToken !== undefined) {
        try {
          const fresh = await this.#refresh(provider, tokens.refreshToken, record?.connectedAt ?? now);
          return { kind: "token", accessToken: fresh.accessToken };
        } catch (error) {
          if (!(error instanceof AccountTokenError) || error.code !== "revoked") throw error;
        }
      } else {
        await this.#disconnect(provider.name);
      }
    }
    return this.#pendingConnect(provider.name, now);
  }

  /** One refresh per account however many calls wait for it; invalid_grant marks the account disconnected. */
  #refresh(provider: ResolvedProvider, refreshToken: string, connectedAt: number): Promise<AccountTokens> {
    let running = this.#refreshing.get(provider.name);
    if (running !== undefined) return running;
    running = (async () => {
      try {
        // A caller that read the record before a refresh that has since finished finds the new tokens
        // here: refreshing again with the rotated-out refresh token would be refused (invalid_grant).
        const current = await this.#tokensOf(provider.name, await this.storage.get<AccountRecord>(`account:${provider.name}`));
        if (current !== undefined && current.refreshToken !== refreshToken) return current;
        const fresh = await tokenRequest(provider, { grant_type: "refresh_token", refresh_token: refreshToken });
        // A provider that rotates sends a new refresh token; one that does not keeps the old one valid.
        const kept: AccountTokens = fresh.refreshToken === undefined ? { ...fresh, refreshToken } : fresh;
        await this.#store(provider.name, kept, connectedAt);
        return kept;
      } catch (error) {
        if (error instanceof AccountTokenError && error.code === "revoked") await this.#disconnect(provider.name);
        throw error;
      } finally {
        this.#refreshing.delete(provider.name);
      }
    })();
    this.#refreshing.set(provider.name, running);
    return running;
  }

  async #pendingConnect(provider: string, now: number): Promise<TokenAnswer> {
    const pending = await this.storage.list<ConnectRecord>({ prefix: "connect:" });
    let live = 0;
    for (const [key, record] of pending) {
      if (record.expiresAt <= now) await this.storage.delete(key);
      else live++;
    }
    if (live >= MAX_PENDING) throw new AccountTokenError("unavailable", "too many connect links are open for this user: follow one, or wait ten minutes");
    const nonce = randomToken();
    const expiresAt = now + CONNECT_STATE_TTL_MS;
    const verifier = await this.keys.seal(randomToken(32), this.#context(`connect:${nonce}`));
    await this.storage.put(`connect:${nonce}`, { provider, verifier, expiresAt } satisfies ConnectRecord);
    return { kind: "connect", nonce, expiresAt };
  }

  /** The PKCE S256 challenge of a pending connect for the provider, or undefined when it was used, expired or is for another provider. */
  async connectChallenge(nonce: string, provider: string, now = Date.now()): Promise<string | undefined> {
    const verifier = await this.#verifierOf(nonce, provider, now);
    return verifier === undefined ? undefined : toBase64Url(await sha256(verifier));
  }

  async #verifierOf(nonce: string, provider: string, now: number): Promise<string | undefined> {
    const record = await this.storage.get<ConnectRecord>(`connect:${nonce}`);
    if (record === undefined || record.expiresAt <= now || record.provider !== provider) return undefined;
    return this.keys.open(record.verifier, this.#context(`connect:${nonce}`));
  }

  /**
   * Finishes a connect: the pending record is consumed first (a replayed callback finds none),
   * then the code is exchanged with its PKCE verifier and the tokens are stored. False when the
   * record was used, expired or is for another provider.
   */
  async finishConnect(nonce: string, provider: ResolvedProvider, code: string, redirectUri: string, now = Date.now()): Promise<boolean> {
    const verifier = await this.#verifierOf(nonce, provider.name, now);
    await this.storage.delete(`connect:${nonce}`);
    if (verifier === undefined) return false;
    const tokens = await tokenRequest(provider, { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier });
    await this.#store(provider.name, tokens, now);
    return true;
  }

  /**
   * A token for another audience, exchanged for the account's access token at the provider's token
   * endpoint (RFC 8693), kept sealed until it expires. A connect record when the account is not connected.
   */
  async exchange(provider: ResolvedProvider, request: ExchangeRequest, now = Date.now()): Promise<TokenAnswer> {
    const key = `exchange:${provider.name}:${(await sha256Hex(JSON.stringify([request.audience ?? null, request.scope ?? null]))).slice(0, 32)}`;
    const cached = await this.#exchanged(key);
    if (cached !== undefined && isFresh(cached, now)) return { kind: "token", accessToken: cached.accessToken };
    let running = this.#exchanging.get(key);
    if (running !== undefined) return running;
    running = this.#exchange(provider, request, key, now).finally(() => this.#exchanging.delete(key));
    this.#exchanging.set(key, running);
    return running;
  }

  async #exchanged(key: string): Promise<AccountTokens | undefined> {
    const record = await this.storage.get<{ sealed: string }>(key);
    const text = record === undefined ? undefined : await this.keys.open(record.sealed, this.#context(key));
    return text === undefined ? undefined : (JSON.parse(text) as AccountTokens);
  }

  /** The one exchange of a key in flight; a caller that read the record before an exchange finished finds its token here. */
  async #exchange(provider: ResolvedProvider, request: ExchangeRequest, key: string, now: number): Promise<TokenAnswer> {
    const context = this.#context(key);
    const current = await this.#exchanged(key);
    if (current !== undefined && isFresh(current, now)) return { kind: "token", accessToken: current.accessToken };
    const subject = await this.token(provider, now);
    if (subject.kind !== "token") return subject;
    const exchanged = await tokenRequest(provider, {
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: subject.accessToken,
      subject_token_type: "urn:ietf:params:oauth:token-type:access_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:access_token",
      ...(request.audience === undefined ? {} : { audience: request.audience }),
      ...(request.scope === undefined ? {} : { scope: request.scope }),
    });
    // Only the access token is kept: an exchanged token is not refreshed, it is exchanged again.
    const kept: AccountTokens = {
      accessToken: exchanged.accessToken,
      obtainedAt: exchanged.obtainedAt,
      ...(exchanged.expiresAt === undefined ? {} : { expiresAt: exchanged.expiresAt }),
    };
    await this.storage.put(key, { sealed: await this.keys.seal(JSON.stringify(kept), context) });
    return { kind: "token", accessToken: kept.accessToken };
  }

  /** Forgets an account's tokens (the user's disconnect, or an admin's). */
  async disconnect(provider: string): Promise<boolean> {
    for (const key of (await this.storage.list({ prefix: `exchange:${provider}:` })).keys()) await this.storage.delete(key);
    return this.storage.delete(`account:${provider}`);
  }

  /** The accounts of this principal, without tokens. */
  async list(): Promise<AccountSummary[]> {
    const records = await this.storage.list<AccountRecord>({ prefix: "account:" });
    return [...records].map(([key, record]) => ({ provider: key.slice("account:".length), status: record.status, connectedAt: record.connectedAt }));
  }
}
