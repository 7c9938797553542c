/**
 * Tenant secrets sealed with AES-256-GCM under a key from the Worker secret MCP_SECRETS_KEY, bound
 * to their tenant and name (the additional data), so that a sealed value copied to another tenant
 * or name does not open. The secret holds one or more keys, `id:base64url,id:base64url,…`: the first
 * seals, every one opens, so a key is rotated by putting a new one first and re-sealing.
 *
 * A sealed value reads `es1.<key id>.<iv>.<ciphertext>` (base64url), which names the key that opens it.
 */

import { DefinitionError } from "../core/definition-error.ts";

const VERSION = "es1";
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The keys of MCP_SECRETS_KEY: `current` seals, every one of `all` opens. */
export interface SecretKeys {
  readonly current: string;
  readonly all: ReadonlyMap<string, CryptoKey>;
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** What a sealed value of `tenant`'s secret `name` is bound to. */
function boundTo(tenant: string, name: string): Uint8Array {
  return new TextEncoder().encode(`edge-mcp tenant secret\n${tenant}\n${name}`);
}

/**
 * Reads MCP_SECRETS_KEY (`id:base64url` pairs, comma-separated, each key 32 random bytes, e.g. from
 * `openssl rand -base64 32`). Throws a {@link DefinitionError} that says what is wrong, never the key.
 */
export async function parseSecretKeys(text: string | undefined): Promise<SecretKeys> {
  if (typeof text !== "string" || text.trim() === "")
    throw new DefinitionError("tenant secrets need the MCP_SECRETS_KEY secret: `<id>:<32 random bytes, base64url>` (wrangler secret put MCP_SECRETS_KEY)");
  const all = new Map<string, CryptoKey>();
  let current: string | undefined;
  for (const [index, pair] of text.split(",").entries()) {
    const [id = "", material = "", ...more] = pair.trim().split(":");
    if (!KEY_ID.test(id) || more.length > 0 || !BASE64URL.test(material.replace(/=+$/, "")))
      throw new DefinitionError(`MCP_SECRETS_KEY: key ${index + 1} must read <id>:<base64url> (an id of letters, digits, - or _)`);
    if (all.has(id)) throw new DefinitionError(`MCP_SECRETS_KEY: the key id ${id} is used twice`);
    const bytes = fromBase64url(material.replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_"));
    if (bytes.length !== 32) throw new DefinitionError(`MCP_SECRETS_KEY: key ${id} must be 32 bytes (it is ${bytes.length})`);
    all.set(id, await crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]));
    current ??= id;
  }
  return { current: current as string, all };
}

/** The keys of MCP_SECRETS_KEY, read once per distinct value of it in the isolate. */
let parsed: { text: string; keys: Promise<SecretKeys> } | undefined;
export function secretKeysOf(text: string | undefined): Promise<SecretKeys> {
  if (parsed === undefined || parsed.text !== text) {
    const keys = parseSecretKeys(text);
    // A wrong setting is not kept: the next call reads it again.
    keys.catch(() => (parsed = undefined));
    parsed = { text: text ?? "", keys };
  }
  return parsed.keys;
}

/** Seals `value` as `tenant`'s secret `name` under the current key. */
export async function sealSecret(keys: SecretKeys, tenant: string, name: string, value: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = keys.all.get(keys.current) as CryptoKey;
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: boundTo(tenant, name) }, key, new TextEncoder().encode(value));
  return `${VERSION}.${keys.current}.${toBase64url(iv)}.${toBase64url(new Uint8Array(sealed))}`;
}

/** The key id a sealed value names, or undefined when it is not one. */
export function sealedKeyId(sealed: string): string | undefined {
  const parts = sealed.split(".");
  return parts.length === 4 && parts[0] === VERSION ? parts[1] : undefined;
}

/**
 * Opens `tenant`'s secret `name`. Throws an error that names the secret and why it does not open
 * (a key that is gone, another tenant's or name's value, a damaged value), never its content.
 */
export async function openSecret(keys: SecretKeys, tenant: string, name: string, sealed: string): Promise<string> {
  const [version, keyId = "", iv = "", data = ""] = sealed.split(".");
  if (version !== VERSION || !BASE64URL.test(iv) || !BASE64URL.test(data)) throw new Error(`tenant ${tenant}'s secret ${name} is not a sealed value`);
  const key = keys.all.get(keyId);
  if (!key) throw new Error(`tenant ${tenant}'s secret ${name} is sealed under key ${keyId}, which MCP_SECRETS_KEY no longer holds`);
  try {
    const opened = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64url(iv), additionalData: boundTo(tenant, name) }, key, fromBase64url(data));
    return new TextDecoder().decode(opened);
  } catch {
    throw new Error(`tenant ${tenant}'s secret ${name} does not open: it was sealed for another tenant or name, or it is damaged`);
  }
}
