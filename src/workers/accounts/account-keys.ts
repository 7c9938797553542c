/** The key ring of connected accounts: AES-GCM for tokens at rest, HMAC for connect states, from one Worker secret. */

import { fromBase64Url, sha256, toBase64Url } from "../../core/bytes.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Sealed values start with this version tag, so a later format can be told apart. */
const SEALED_PREFIX = "v1";

interface RingKey {
  /** 8 base64url characters naming the key in a sealed value (a digest of it, not the key). */
  readonly id: string;
  readonly aes: CryptoKey;
  readonly hmac: CryptoKey;
}

/**
 * The keys of one Worker secret: a list of entries separated by commas or whitespace, each a
 * high-entropy string (32 random bytes in base64url: `openssl rand -base64 32`). The first
 * encrypts and signs; every entry decrypts and verifies, so a new key goes first and the old
 * one stays listed until no value sealed under it remains (rotation).
 */
export class AccountKeys {
  private constructor(private readonly keys: readonly RingKey[]) {}

  /** Builds the ring from the secret's text; throws when it holds no key of at least 32 characters. */
  static async from(secret: string | undefined, name: string): Promise<AccountKeys> {
    const entries = (secret ?? "").split(/[\s,]+/).filter((entry) => entry !== "");
    if (entries.length === 0)
      throw new Error(`connected accounts need the Worker secret ${name}: set it with \`wrangler secret put ${name}\` (32 random bytes, base64url)`);
    const keys: RingKey[] = [];
    for (const entry of entries) {
      if (entry.length < 32) throw new Error(`a key in the Worker secret ${name} is shorter than 32 characters: use 32 random bytes in base64url`);
      // Two keys from one entry (domain-separated digests): the encryption key never signs.
      const aesBytes = await sha256(`edge-mcp accounts aes\n${entry}`);
      const hmacBytes = await sha256(`edge-mcp accounts hmac\n${entry}`);
      keys.push({
        id: toBase64Url(await sha256(aesBytes)).slice(0, 8),
        aes: await crypto.subtle.importKey("raw", aesBytes, "AES-GCM", false, ["encrypt", "decrypt"]),
        hmac: await crypto.subtle.importKey("raw", hmacBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
      });
    }
    return new AccountKeys(keys);
  }

  /** Encrypts text under the first key, bound to `context` (additional data: an account's tenant, principal and provider). */
  async seal(plaintext: string, context: string): Promise<string> {
    const key = this.keys[0] as RingKey;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, key.aes, encoder.encode(plaintext));
    return `${SEALED_PREFIX}.${key.id}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
  }

  /** Decrypts a value of {@link seal} with whichever key sealed it; undefined when none can (a removed key, another context, tampering). */
  async open(sealed: string, context: string): Promise<string | undefined> {
    const [prefix, id, iv, data] = sealed.split(".");
    if (prefix !== SEALED_PREFIX || id === undefined || iv === undefined || data === undefined) return undefined;
    const key = this.keys.find((k) => k.id === id);
    const ivBytes = fromBase64Url(iv);
    const bytes = fromBase64Url(data);
    if (key === undefined || ivBytes === undefined || bytes === undefined) return undefined;
    try {
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: ivBytes, additionalData: encoder.encode(context) }, key.aes, bytes);
      return decoder.decode(plain);
    } catch {
      return undefined;
    }
  }

  /** True when the value was sealed under a key that is not the first: it is sealed again on its next write. */
  isStale(sealed: string): boolean {
    return sealed.split(".")[1] !== this.keys[0]?.id;
  }

  /** An HMAC-SHA256 signature of text under the first key, in base64url. */
  async sign(text: string): Promise<string> {
    const key = this.keys[0] as RingKey;
    return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key.hmac, encoder.encode(text))));
  }

  /** True when `signature` is the signature of `text` under any key of the ring (constant time, by the platform). */
  async verify(text: string, signature: string): Promise<boolean> {
    const bytes = fromBase64Url(signature);
    if (bytes === undefined) return false;
    for (const key of this.keys) {
      if (await crypto.subtle.verify("HMAC", key.hmac, bytes, encoder.encode(text))) return true;
    }
    return false;
  }
}
