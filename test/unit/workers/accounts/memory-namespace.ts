// The accounts namespace for Node tests: one AccountStore per object name, in memory, as McpAccountsObject keeps one per principal.
import { AccountKeys } from "../../../../src/workers/accounts/account-keys.ts";
import type { ResolvedProvider } from "../../../../src/workers/accounts/account-provider.ts";
import { AccountStore, type AccountOwner, type AccountStorage } from "../../../../src/workers/accounts/account-store.ts";

/** The accounts namespace, in memory: one AccountStore per object name, as McpAccountsObject keeps one per principal. */
export function memoryNamespace(key: string) {
  const stores = new Map<string, { storage: AccountStorage; store?: AccountStore }>();
  const storageOf = (): AccountStorage => {
    const map = new Map<string, unknown>();
    return {
      get: async <T>(key: string) => map.get(key) as T | undefined,
      put: async (key, value) => void map.set(key, value),
      delete: async (key) => map.delete(key),
      list: async <T>({ prefix }: { prefix: string }) => new Map([...map].filter(([key]) => key.startsWith(prefix)) as [string, T][]),
    };
  };
  const storeFor = async (name: string, owner: AccountOwner) => {
    let entry = stores.get(name);
    if (entry === undefined) stores.set(name, (entry = { storage: storageOf() }));
    entry.store ??= new AccountStore(entry.storage, await AccountKeys.from(key, "KEY"), owner);
    return entry.store;
  };
  return {
    idFromName: (name: string) => name,
    get: (name: string) => ({
      token: async (owner: AccountOwner, _key: string, provider: ResolvedProvider) => (await storeFor(name, owner)).token(provider),
      exchange: async (owner: AccountOwner, _key: string, provider: ResolvedProvider, request: { audience?: string; scope?: string }) =>
        (await storeFor(name, owner)).exchange(provider, request),
      list: async (owner: AccountOwner) => (await storeFor(name, owner)).list(),
      disconnect: async (owner: AccountOwner, _key: string, provider: string) => (await storeFor(name, owner)).disconnect(provider),
      connectChallenge: async (owner: AccountOwner, _key: string, nonce: string, provider: string) =>
        (await storeFor(name, owner)).connectChallenge(nonce, provider),
      finishConnect: async (owner: AccountOwner, _key: string, nonce: string, provider: ResolvedProvider, code: string, redirectUri: string) =>
        (await (await storeFor(name, owner)).finishConnect(nonce, provider, code, redirectUri)) ? "connected" : "used",
    }),
  };
}

/** The cookies a response sets, as the Cookie header a browser would send back. */
export function cookieHeaderOf(response: Response): string {
  const headers = response.headers as unknown as { getSetCookie(): string[] };
  return headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .join("; ");
}
