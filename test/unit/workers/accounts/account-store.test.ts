import { afterEach, describe, expect, it, vi } from "vitest";
import { AccountKeys } from "../../../../src/workers/accounts/account-keys.ts";
import type { ResolvedProvider } from "../../../../src/workers/accounts/account-provider.ts";
import { AccountStore, type AccountOwner, type AccountStorage } from "../../../../src/workers/accounts/account-store.ts";

const KEY_A = "a".repeat(43);
const KEY_B = "b".repeat(43);
const PROVIDER: ResolvedProvider = {
  name: "fixture",
  title: "Fixture",
  authorizationEndpoint: "https://provider.test/authorize",
  tokenEndpoint: "https://provider.test/token",
  clientId: "client",
  clientSecret: "client-secret",
  tokenAuth: "basic",
  scopes: ["openid"],
  authorizationParams: {},
};
const ADA: AccountOwner = { tenant: "t1", issuer: "https://as.test", subject: "ada" };
const BOB: AccountOwner = { tenant: "t1", issuer: "https://as.test", subject: "bob" };

function memoryStorage(): AccountStorage & { map: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  return {
    map,
    get: async <T>(key: string) => structuredClone(map.get(key)) as T | undefined,
    put: async (key, value) => void map.set(key, structuredClone(value)),
    delete: async (key) => map.delete(key),
    list: async <T>({ prefix }: { prefix: string }) => new Map([...map].filter(([key]) => key.startsWith(prefix)) as [string, T][]),
  };
}

/** A token endpoint: codes and refresh tokens it issued, rotation, and a count of each grant. */
function fakeProvider(options: { expiresIn?: number; delayMs?: number } = {}) {
  const calls: URLSearchParams[] = [];
  const live = new Set<string>();
  let serial = 0;
  const fetch = vi.fn(async (_url: string, init: RequestInit) => {
    const body = new URLSearchParams(init.body as URLSearchParams);
    calls.push(body);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const grant = body.get("grant_type");
    if (grant === "urn:ietf:params:oauth:grant-type:token-exchange") {
      if (!(body.get("subject_token") ?? "").startsWith("access-")) return Response.json({ error: "invalid_grant" }, { status: 400 });
      serial++;
      return Response.json({ access_token: `exchanged-${serial}`, issued_token_type: "urn:ietf:params:oauth:token-type:access_token", expires_in: 600 });
    }
    const valid =
      grant === "authorization_code"
        ? body.get("code") === "good-code" && (body.get("code_verifier") ?? "").length >= 43
        : live.delete(body.get("refresh_token") ?? "");
    if (!valid) return Response.json({ error: "invalid_grant" }, { status: 400 });
    serial++;
    const refresh = `refresh-${serial}`;
    live.add(refresh);
    return Response.json({ access_token: `access-${serial}`, refresh_token: refresh, expires_in: options.expiresIn ?? 3600, token_type: "Bearer" });
  });
  vi.stubGlobal("fetch", fetch);
  return { calls, live, grants: (type: string) => calls.filter((call) => call.get("grant_type") === type).length };
}

async function connected(storage: AccountStorage, owner = ADA, keys?: AccountKeys) {
  const store = new AccountStore(storage, keys ?? (await AccountKeys.from(KEY_A, "KEY")), owner);
  const answer = await store.token(PROVIDER);
  if (answer.kind !== "connect") throw new Error("expected a connect record");
  expect(await store.finishConnect(answer.nonce, PROVIDER, "good-code", "https://mcp.test/accounts/callback")).toBe(true);
  return store;
}

afterEach(() => vi.unstubAllGlobals());

describe("AccountStore", () => {
  it("answers a connect record until the account is connected, then the access token", async () => {
    const provider = fakeProvider();
    const storage = memoryStorage();
    const store = await connected(storage);
    expect(await store.token(PROVIDER)).toEqual({ kind: "token", accessToken: "access-1" });
    expect(provider.grants("authorization_code")).toBe(1);
    // The code exchange carried the PKCE verifier (43+ characters) and the redirect URI.
    expect(provider.calls[0]?.get("redirect_uri")).toBe("https://mcp.test/accounts/callback");
  });

  it("keeps tokens sealed at rest: no token appears in storage", async () => {
    fakeProvider();
    const storage = memoryStorage();
    await connected(storage);
    const stored = JSON.stringify([...storage.map]);
    expect(stored).not.toContain("access-1");
    expect(stored).not.toContain("refresh-1");
  });

  it("consumes a connect record once: a replayed callback is refused", async () => {
    fakeProvider();
    const storage = memoryStorage();
    const store = new AccountStore(storage, await AccountKeys.from(KEY_A, "KEY"), ADA);
    const answer = await store.token(PROVIDER);
    if (answer.kind !== "connect") throw new Error("expected connect");
    expect(await store.connectChallenge(answer.nonce, "fixture")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await store.connectChallenge(answer.nonce, "other")).toBeUndefined();
    expect(await store.finishConnect(answer.nonce, PROVIDER, "good-code", "https://mcp.test/accounts/callback")).toBe(true);
    expect(await store.finishConnect(answer.nonce, PROVIDER, "good-code", "https://mcp.test/accounts/callback")).toBe(false);
    expect(await store.connectChallenge(answer.nonce, "fixture")).toBeUndefined();
  });

  it("refuses an expired connect record", async () => {
    fakeProvider();
    const store = new AccountStore(memoryStorage(), await AccountKeys.from(KEY_A, "KEY"), ADA);
    const answer = await store.token(PROVIDER);
    if (answer.kind !== "connect") throw new Error("expected connect");
    const later = Date.now() + 11 * 60_000;
    expect(await store.connectChallenge(answer.nonce, "fixture", later)).toBeUndefined();
    expect(await store.finishConnect(answer.nonce, PROVIDER, "good-code", "https://mcp.test/accounts/callback", later)).toBe(false);
  });

  it("refreshes an expired token once for 20 concurrent calls, and stores the rotated refresh token", async () => {
    const provider = fakeProvider({ expiresIn: 3600, delayMs: 20 });
    const store = await connected(memoryStorage());
    const later = Date.now() + 3700_000;
    const answers = await Promise.all(Array.from({ length: 20 }, () => store.token(PROVIDER, later)));
    expect(provider.grants("refresh_token")).toBe(1);
    expect(new Set(answers.map((a) => (a.kind === "token" ? a.accessToken : a.kind)))).toEqual(new Set(["access-2"]));
    // The rotated refresh token (refresh-2) is the one used next.
    await store.token(PROVIDER, later + 3700_000);
    expect(provider.calls.at(-1)?.get("refresh_token")).toBe("refresh-2");
  });

  it("marks the account disconnected when the provider refuses the refresh token, and asks to connect again", async () => {
    const provider = fakeProvider();
    const store = await connected(memoryStorage());
    provider.live.clear(); // the provider revoked every refresh token
    const answer = await store.token(PROVIDER, Date.now() + 3700_000);
    expect(answer.kind).toBe("connect");
    expect(await store.list()).toEqual([expect.objectContaining({ provider: "fixture", status: "disconnected" })]);
    // No second refresh: the account stays disconnected until the user connects again.
    expect((await store.token(PROVIDER)).kind).toBe("connect");
    expect(provider.grants("refresh_token")).toBe(1);
  });

  it("never opens principal A's sealed tokens as principal B's, even with A's records copied over", async () => {
    fakeProvider();
    const storage = memoryStorage();
    await connected(storage, ADA);
    const asBob = new AccountStore(storage, await AccountKeys.from(KEY_A, "KEY"), BOB);
    expect((await asBob.token(PROVIDER)).kind).toBe("connect");
    const inOtherTenant = new AccountStore(storage, await AccountKeys.from(KEY_A, "KEY"), { ...ADA, tenant: "t2" });
    expect((await inOtherTenant.token(PROVIDER)).kind).toBe("connect");
  });

  it("opens tokens sealed under an older key after rotation, and seals them again under the new one", async () => {
    fakeProvider();
    const storage = memoryStorage();
    await connected(storage, ADA, await AccountKeys.from(KEY_A, "KEY"));
    const before = JSON.stringify(storage.map.get("account:fixture"));
    const rotated = new AccountStore(storage, await AccountKeys.from(`${KEY_B},${KEY_A}`, "KEY"), ADA);
    expect(await rotated.token(PROVIDER)).toEqual({ kind: "token", accessToken: "access-1" });
    expect(JSON.stringify(storage.map.get("account:fixture"))).not.toBe(before);
    // Only the new key now: still opens.
    const onlyNew = new AccountStore(storage, await AccountKeys.from(KEY_B, "KEY"), ADA);
    expect(await onlyNew.token(PROVIDER)).toEqual({ kind: "token", accessToken: "access-1" });
  });

  it("authenticates to the token endpoint with HTTP Basic and never puts the secret in the body", async () => {
    const provider = fakeProvider();
    await connected(memoryStorage());
    const init = vi.mocked(fetch).mock.calls[0]?.[1] as RequestInit;
    expect((init.headers as Record<string, string>)["authorization"]).toMatch(/^Basic /);
    expect(provider.calls[0]?.get("client_secret")).toBeNull();
  });

  it("exchanges the account's token for another audience (RFC 8693), keeps it until it expires, and asks to connect without an account", async () => {
    const provider = fakeProvider();
    const storage = memoryStorage();
    const unconnected = new AccountStore(memoryStorage(), await AccountKeys.from(KEY_A, "KEY"), BOB);
    expect((await unconnected.exchange(PROVIDER, { audience: "https://api.test" })).kind).toBe("connect");
    const store = await connected(storage);
    const first = await store.exchange(PROVIDER, { audience: "https://api.test", scope: "read" });
    expect(first).toEqual({ kind: "token", accessToken: "exchanged-2" });
    const call = provider.calls.at(-1);
    expect(Object.fromEntries(call ?? [])).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: "access-1",
      subject_token_type: "urn:ietf:params:oauth:token-type:access_token",
      audience: "https://api.test",
      scope: "read",
    });
    expect(await store.exchange(PROVIDER, { audience: "https://api.test", scope: "read" })).toEqual(first);
    expect(provider.grants("urn:ietf:params:oauth:grant-type:token-exchange")).toBe(1);
    // Another audience is another exchange; an expired one is exchanged again.
    expect(await store.exchange(PROVIDER, { audience: "https://other.test" })).toEqual({ kind: "token", accessToken: "exchanged-3" });
    expect(await store.exchange(PROVIDER, { audience: "https://api.test", scope: "read" }, Date.now() + 700_000)).toEqual({
      kind: "token",
      accessToken: "exchanged-4",
    });
    expect(JSON.stringify([...storage.map])).not.toContain("exchanged-");
    // Disconnecting forgets the exchanged tokens too.
    await store.disconnect("fixture");
    expect([...storage.map.keys()].filter((key) => key.startsWith("exchange:"))).toEqual([]);
  });

  it("makes one token exchange per audience and scope however many calls wait for it, and keeps no failed one", async () => {
    const provider = fakeProvider({ delayMs: 20 });
    const store = await connected(memoryStorage());
    const EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => store.exchange(PROVIDER, { audience: "https://api.test" })),
      store.exchange(PROVIDER, { audience: "https://other.test" }),
      store.exchange(PROVIDER, { audience: "https://api.test", scope: "write" }),
    ]);
    expect(provider.grants(EXCHANGE)).toBe(3);
    expect(new Set(answers.slice(0, 20).map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(3);
    // A refused exchange reaches every waiting caller, and the next call tries again.
    vi.stubGlobal("fetch", async () => Response.json({ error: "invalid_target" }, { status: 400 }));
    const refused = await Promise.allSettled(Array.from({ length: 5 }, () => store.exchange(PROVIDER, { audience: "https://third.test" })));
    expect(refused.every((outcome) => outcome.status === "rejected")).toBe(true);
    fakeProvider();
    expect((await store.exchange(PROVIDER, { audience: "https://third.test" })).kind).toBe("token");
  });
});
