/** Integrity-protected `requestState` for multi round-trip requests (2026-07-28 MRTR, "requestState security"). */

import { invalidParams } from "../../core/errors.ts";
import { fromBase64Url, sha256, toBase64Url } from "../../core/bytes.ts";
import { canonicalJson, isObject } from "../../core/json.ts";

/** What a `requestState` is bound to: the request it was minted for, and who minted it. */
export interface StateBinding {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** The tool or prompt name, or the resource URI. */
  target: string;
  /** The request's arguments (hashed into the state, never stored). */
  args: unknown;
  /** Tenant and principal; a state minted under another scope is refused. */
  scope: string;
}

export interface StateSealer {
  /** Signs the answers gathered so far, bound to the request, valid for the sealer's lifetime. */
  seal(binding: StateBinding, answers: Record<string, unknown>): Promise<string>;
  /** Verifies a state and returns its answers; throws -32602 when it is forged, expired or foreign. */
  open(token: string, binding: StateBinding): Promise<Record<string, unknown>>;
  /** A short MAC of `text` (base64url, 128 bits): binds an opaque value, such as a cursor, to a scope. */
  tag(text: string): Promise<string>;
}

export interface StateSealerOptions {
  /** The HMAC secret (a Worker secret binding). Without one a random per-isolate key is used. */
  secret?: string | undefined;
  /** How long a state stays valid, in ms (default 10 minutes). */
  ttlMs?: number;
  now?: () => number;
}

const encoder = new TextEncoder();

async function digest(binding: StateBinding): Promise<string> {
  const text = `${binding.scope}\n${binding.method}\n${binding.target}\n${canonicalJson(binding.args ?? {})}`;
  return toBase64Url(await sha256(text));
}

/**
 * Creates a sealer. States are `base64url(payload).base64url(HMAC-SHA256)`; the payload holds the
 * binding digest, an expiry and the answers so far. Answers are the client's own data, so they
 * are signed, not encrypted.
 */
export function createStateSealer(options: StateSealerOptions = {}): StateSealer {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = (): Promise<CryptoKey> => {
    key ??= options.secret
      ? crypto.subtle.importKey("raw", encoder.encode(options.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])
      : (crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]) as Promise<CryptoKey>);
    return key;
  };
  const refuse = () =>
    invalidParams(
      `Invalid requestState: it was altered, has expired, or belongs to another request. Retry the request without requestState and inputResponses.`,
    );

  return {
    async tag(text) {
      return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(), encoder.encode(text))).subarray(0, 16));
    },
    async seal(binding, answers) {
      const payload = encoder.encode(JSON.stringify({ d: await digest(binding), e: now() + ttlMs, a: answers }));
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(), payload));
      return `${toBase64Url(payload)}.${toBase64Url(signature)}`;
    },
    async open(token, binding) {
      const [payloadPart, signaturePart, extra] = token.split(".");
      if (payloadPart === undefined || signaturePart === undefined || extra !== undefined) throw refuse();
      const payload = fromBase64Url(payloadPart);
      const signature = fromBase64Url(signaturePart);
      if (!payload || !signature) throw refuse();
      if (!(await crypto.subtle.verify("HMAC", await hmacKey(), signature, payload))) throw refuse();
      let state: unknown;
      try {
        state = JSON.parse(new TextDecoder().decode(payload));
      } catch {
        throw refuse();
      }
      if (!isObject(state) || typeof state["e"] !== "number" || state["e"] < now() || state["d"] !== (await digest(binding)) || !isObject(state["a"])) {
        throw refuse();
      }
      return state["a"];
    },
  };
}
