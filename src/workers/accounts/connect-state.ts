/** The state of a connect link: who links which provider in which tenant, until when, signed so that no field can be changed. */

import { fromBase64Url, sha256Hex, toBase64Url } from "../../core/bytes.ts";
import type { AccountKeys } from "./account-keys.ts";

/** How long a connect link works, in ms (the user follows it from the client within minutes). */
export const CONNECT_STATE_TTL_MS = 10 * 60_000;
/** A longer state is refused before any work: none we mint comes near it. */
const MAX_STATE_LENGTH = 2048;

/** `<object id>.<SHA-256 hex of the session id>`: routes to the session's object and names the session without its secret. */
const SESSION_REFERENCE = /^[0-9a-f]{1,128}\.[0-9a-f]{64}$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a connect state binds. The nonce names the pending connect record in the principal's accounts object (one use). */
export interface ConnectState {
  readonly tenant: string;
  readonly issuer: string;
  readonly subject: string;
  readonly provider: string;
  readonly nonce: string;
  /** Expiry, in ms since the epoch. */
  readonly expiresAt: number;
  /** The 2025-11-25 session the link was asked for in, as {@link sessionReference} names it: told when the link completes. */
  readonly session?: string | undefined;
}

/** Why a state was refused, for the page the browser gets (never which check failed in detail beyond these). */
export type StateProblem = "malformed" | "forged" | "expired";

/** Signs a connect state: `<payload>.<signature>`, both base64url. */
export async function signConnectState(keys: AccountKeys, state: ConnectState): Promise<string> {
  const fields = [1, state.tenant, state.issuer, state.subject, state.provider, state.nonce, state.expiresAt];
  if (state.session !== undefined) fields.push(state.session);
  const payload = toBase64Url(encoder.encode(JSON.stringify(fields)));
  return `${payload}.${await keys.sign(payload)}`;
}

/** Checks a connect state's signature and expiry; the pending record it names is checked (and consumed) by the accounts object. */
export async function openConnectState(keys: AccountKeys, text: string | null, now = Date.now()): Promise<ConnectState | StateProblem> {
  if (text === null || text.length > MAX_STATE_LENGTH) return "malformed";
  const [payload, signature, extra] = text.split(".");
  if (payload === undefined || signature === undefined || extra !== undefined) return "malformed";
  if (!(await keys.verify(payload, signature))) return "forged";
  const bytes = fromBase64Url(payload);
  let fields: unknown;
  try {
    fields = bytes === undefined ? undefined : JSON.parse(decoder.decode(bytes));
  } catch {
    return "malformed";
  }
  if (!Array.isArray(fields) || (fields.length !== 7 && fields.length !== 8) || fields[0] !== 1) return "malformed";
  const [, tenant, issuer, subject, provider, nonce, expiresAt, session] = fields as unknown[];
  if (typeof tenant !== "string" || typeof issuer !== "string" || typeof subject !== "string") return "malformed";
  if (typeof provider !== "string" || typeof nonce !== "string" || typeof expiresAt !== "number") return "malformed";
  if (session !== undefined && (typeof session !== "string" || !SESSION_REFERENCE.test(session))) return "malformed";
  if (expiresAt <= now) return "expired";
  return { tenant, issuer, subject, provider, nonce, expiresAt, ...(session === undefined ? {} : { session }) };
}

/**
 * How a connect state names the session it was asked for in: the session's object id (to reach it)
 * and the digest of the session id (the object checks it), never the id itself, which the link would
 * show to the browser. Undefined for an id that is not `<object id>.<secret>`.
 */
export async function sessionReference(sessionId: string): Promise<string | undefined> {
  const dot = sessionId.indexOf(".");
  if (dot <= 0 || !/^[0-9a-f]{1,128}$/.test(sessionId.slice(0, dot))) return undefined;
  return `${sessionId.slice(0, dot)}.${await sha256Hex(sessionId)}`;
}
