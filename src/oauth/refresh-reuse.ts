/**
 * Refresh-token reuse detection (OAuth 2.1 §4.3.1, RFC 9700 §4.14.2): a refresh token this server
 * issued, presented again after it was rotated away, revokes its whole grant (every access and
 * refresh token of it). workers-oauth-provider 1.2.3 rotates refresh tokens and accepts the
 * previous one once more (a client's retry), but answers an older one with `invalid_grant` and
 * leaves the grant alive; this adds the revocation. Only tokens this server issued count (their
 * hashes are kept as long as a refresh token lives), so a forged token revokes nothing.
 */

import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { sha256Hex } from "../core/bytes.ts";

const PREFIX = "edge-mcp-issued-refresh:";

/** What the wrapper needs of the env. */
interface TokenEnv {
  OAUTH_KV: KVNamespace;
  OAUTH_PROVIDER?: OAuthHelpers | undefined;
}

async function jsonOf(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await response.clone().json();
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * After the token endpoint answered: remembers each refresh token it issued, and revokes the grant
 * of an issued refresh token presented again and refused (`invalid_grant`). `form` is the request's
 * form body, read before the library consumed it; `lifetime` the refresh tokens' lifetime in seconds.
 */
export async function detectRefreshReuse(form: FormData | undefined, response: Response, env: TokenEnv, lifetime: number): Promise<void> {
  if (response.ok) {
    const issued = (await jsonOf(response))?.["refresh_token"];
    if (typeof issued === "string") await env.OAUTH_KV.put(PREFIX + (await sha256Hex(issued)), "1", { expirationTtl: Math.max(60, lifetime) });
    return;
  }
  const presented = form?.get("refresh_token");
  if (response.status !== 400 || form?.get("grant_type") !== "refresh_token" || typeof presented !== "string") return;
  if ((await jsonOf(response))?.["error"] !== "invalid_grant") return;
  const key = PREFIX + (await sha256Hex(presented));
  if ((await env.OAUTH_KV.get(key)) === null) return;
  const [userId, grantId] = presented.split(":");
  if (userId === undefined || grantId === undefined || env.OAUTH_PROVIDER === undefined) return;
  await env.OAUTH_PROVIDER.revokeGrant(grantId, userId);
  await env.OAUTH_KV.delete(key);
  console.warn("edge-mcp oauth: a rotated refresh token was presented again; its grant is revoked");
}
