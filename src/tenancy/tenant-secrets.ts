/**
 * A tenant's secrets, kept sealed in the tenants' KV namespace under `secret:<tenant>:<name>` (see
 * secret-box.ts): written and listed by the admin API, read only by the runtime that uses them. No
 * read API returns a value; a listing gives names, the key each is sealed under and when it was set.
 */

import { isObject } from "../core/json.ts";
import { openSecret, sealSecret, sealedKeyId, type SecretKeys } from "./secret-box.ts";

/** A secret's name: letters, digits, `_`, `-` and `.`, up to 64. */
export const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** The largest value a secret holds, in UTF-8 bytes. */
export const MAX_SECRET_BYTES = 16 * 1024;

/** What a listing says of a secret: never its value. */
export interface SecretEntry {
  name: string;
  keyId: string | undefined;
  updatedAt: number | undefined;
}

interface SecretMetadata {
  keyId?: string;
  updatedAt?: number;
}

const prefixOf = (tenant: string) => `secret:${tenant}:`;

/** The KV key of `tenant`'s secret `name`. */
export const secretKey = (tenant: string, name: string) => `${prefixOf(tenant)}${name}`;

/** Seals and stores `tenant`'s secret `name`. */
export async function putSecret(kv: KVNamespace, keys: SecretKeys, tenant: string, name: string, value: string): Promise<void> {
  const sealed = await sealSecret(keys, tenant, name, value);
  const metadata: SecretMetadata = { keyId: keys.current, updatedAt: Date.now() };
  await kv.put(secretKey(tenant, name), sealed, { metadata });
}

/** The names of `tenant`'s secrets, with the key each is sealed under (all pages). */
export async function listSecrets(kv: KVNamespace, tenant: string): Promise<SecretEntry[]> {
  const entries: SecretEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list<SecretMetadata>({ prefix: prefixOf(tenant), ...(cursor ? { cursor } : {}) });
    for (const key of page.keys)
      entries.push({ name: key.name.slice(prefixOf(tenant).length), keyId: key.metadata?.keyId, updatedAt: key.metadata?.updatedAt });
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return entries;
}

/** Removes `tenant`'s secret `name`; false when it had none of that name. */
export async function deleteSecret(kv: KVNamespace, tenant: string, name: string): Promise<boolean> {
  if ((await kv.get(secretKey(tenant, name), "text")) === null) return false;
  await kv.delete(secretKey(tenant, name));
  return true;
}

/** Re-seals every secret of `tenant` not yet under the current key; resolves to how many it re-sealed. */
export async function rotateSecrets(kv: KVNamespace, keys: SecretKeys, tenant: string): Promise<number> {
  let count = 0;
  for (const { name, keyId } of await listSecrets(kv, tenant)) {
    if (keyId === keys.current) continue;
    const sealed = await kv.get(secretKey(tenant, name), "text");
    if (sealed === null || sealedKeyId(sealed) === keys.current) continue;
    await putSecret(kv, keys, tenant, name, await openSecret(keys, tenant, name, sealed));
    count++;
  }
  return count;
}

/** Reads and opens `tenant`'s secret `name`; undefined when it has none of that name. */
export async function readSecret(kv: KVNamespace, keys: SecretKeys, tenant: string, name: string): Promise<string | undefined> {
  const sealed = await kv.get(secretKey(tenant, name), "text");
  return sealed === null ? undefined : openSecret(keys, tenant, name, sealed);
}

/** The tenant secrets a tenant's config names, with the field that names each (introspection, remote modules' credentials). */
export function secretNamesOf(config: unknown): { field: string; name: string }[] {
  if (!isObject(config)) return [];
  const named: { field: string; name: string }[] = [];
  const add = (field: string, value: unknown) => {
    if (isObject(value) && typeof value["tenantSecret"] === "string") named.push({ field, name: value["tenantSecret"] });
  };
  const auth = config["auth"];
  const introspection = isObject(auth) ? auth["introspection"] : undefined;
  if (isObject(introspection) && typeof introspection["clientSecretName"] === "string")
    named.push({ field: "auth.introspection.clientSecretName", name: introspection["clientSecretName"] });
  const signIn = config["signIn"];
  if (isObject(signIn)) add("signIn.clientSecret", signIn["clientSecret"]);
  const modules = Array.isArray(config["modules"]) ? config["modules"] : [];
  for (const [index, module] of modules.entries()) {
    const remote = isObject(module) ? module["remote"] : undefined;
    if (!isObject(remote)) continue;
    add(`modules[${index}].remote.auth`, remote["auth"]);
    if (isObject(remote["headers"])) for (const [header, value] of Object.entries(remote["headers"])) add(`modules[${index}].remote.headers.${header}`, value);
  }
  const accounts = config["accounts"];
  const providers = isObject(accounts) ? accounts["providers"] : undefined;
  if (isObject(providers))
    for (const [name, provider] of Object.entries(providers)) if (isObject(provider)) add(`accounts.providers.${name}.clientSecret`, provider["clientSecret"]);
  return named;
}
