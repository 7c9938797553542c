// The remote key set against a JWKS server on 127.0.0.1: jose's cache, cooldown and refresh on an unknown kid.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createBearerVerifier } from "../../../src/auth/verify-bearer.ts";
import { config, expectAuthError, sign, startJwksServer, testKey, type JwksServer, type TestKey } from "./fixtures.ts";

let oldKey: TestKey;
let newKey: TestKey;
let server: JwksServer | undefined;

beforeAll(async () => {
  [oldKey, newKey] = await Promise.all([testKey("ES256", "2026-01"), testKey("ES256", "2026-02")]);
});

afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const bearer = (token: string): string => `Bearer ${token}`;

/** Moves Date (which jose's cache and the token checks read) forward; real timers keep running. */
function advanceClock(ms: number): void {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
}

describe("createBearerVerifier with a jwksUri", () => {
  it("fetches the key set once and serves later tokens from its cache", async () => {
    server = await startJwksServer([oldKey.publicJwk]);
    const verifier = createBearerVerifier(config({ jwksUri: server.url }));
    expect(server.requests()).toBe(0);
    await expect(verifier.verify(bearer(await sign(oldKey)))).resolves.toMatchObject({ subject: "user-1" });
    await expect(verifier.verify(bearer(await sign(oldKey, { claims: { sub: "user-2" } })))).resolves.toMatchObject({ subject: "user-2" });
    expect(server.requests()).toBe(1);
  });

  it("refuses a new kid during the 30 s cooldown, then refetches and accepts it; the retired kid is refused", async () => {
    server = await startJwksServer([oldKey.publicJwk]);
    const verifier = createBearerVerifier(config({ jwksUri: server.url }));
    await verifier.verify(bearer(await sign(oldKey)));
    expect(server.requests()).toBe(1);

    // The issuer rotates: the new key is published and the old one withdrawn.
    server.setKeys([newKey.publicJwk]);
    const rotated = await sign(newKey);
    await expectAuthError(verifier.verify(bearer(rotated)), "ERR_UNKNOWN_KEY");
    expect(server.requests()).toBe(1); // within the cooldown jose does not refetch

    advanceClock(31_000);
    await expect(verifier.verify(bearer(rotated))).resolves.toMatchObject({ subject: "user-1" });
    expect(server.requests()).toBe(2); // the unknown kid triggered one refetch

    await expectAuthError(verifier.verify(bearer(await sign(oldKey))), "ERR_UNKNOWN_KEY");
    expect(server.requests()).toBe(2); // just refetched: cooling down again
  });

  it("keeps refusing a kid the issuer never publishes, refetching at most once per cooldown", async () => {
    server = await startJwksServer([oldKey.publicJwk]);
    const verifier = createBearerVerifier(config({ jwksUri: server.url }));
    const forged = await sign({ ...newKey, kid: "never-published" });
    await expectAuthError(verifier.verify(bearer(forged)), "ERR_UNKNOWN_KEY");
    await expectAuthError(verifier.verify(bearer(forged)), "ERR_UNKNOWN_KEY");
    expect(server.requests()).toBe(1);
    advanceClock(31_000);
    await expectAuthError(verifier.verify(bearer(forged)), "ERR_UNKNOWN_KEY");
    expect(server.requests()).toBe(2);
  });

  it("refetches a known kid once the 10 minute cache age has passed", async () => {
    server = await startJwksServer([oldKey.publicJwk]);
    const verifier = createBearerVerifier(config({ jwksUri: server.url }));
    await verifier.verify(bearer(await sign(oldKey)));
    advanceClock(601_000);
    await expect(verifier.verify(bearer(await sign(oldKey)))).resolves.toMatchObject({ subject: "user-1" });
    expect(server.requests()).toBe(2);
  });

  it("honours a shorter cooldown from the verifier options", async () => {
    server = await startJwksServer([oldKey.publicJwk]);
    const verifier = createBearerVerifier(config({ jwksUri: server.url }), { jwksCooldownMs: 0 });
    await verifier.verify(bearer(await sign(oldKey)));
    server.setKeys([oldKey.publicJwk, newKey.publicJwk]);
    await expect(verifier.verify(bearer(await sign(newKey)))).resolves.toMatchObject({ subject: "user-1" });
    expect(server.requests()).toBe(2);
  });

  it("tries inline keys first and the jwksUri for other kids", async () => {
    server = await startJwksServer([newKey.publicJwk]);
    const verifier = createBearerVerifier(config({ keys: [oldKey.publicJwk], jwksUri: server.url }));
    await verifier.verify(bearer(await sign(oldKey)));
    expect(server.requests()).toBe(0);
    await expect(verifier.verify(bearer(await sign(newKey)))).resolves.toMatchObject({ subject: "user-1" });
    expect(server.requests()).toBe(1);
  });

  it("answers ERR_JWKS_UNAVAILABLE when the endpoint fails, times out or is unreachable", async () => {
    server = await startJwksServer([oldKey.publicJwk]);
    server.setStatus(500);
    await expectAuthError(createBearerVerifier(config({ jwksUri: server.url })).verify(bearer(await sign(oldKey))), "ERR_JWKS_UNAVAILABLE");

    server.setStatus(200);
    server.setKeys("not a key list");
    await expectAuthError(createBearerVerifier(config({ jwksUri: server.url })).verify(bearer(await sign(oldKey))), "ERR_JWKS_UNAVAILABLE");
    server.setKeys([{ ...oldKey.publicJwk, x: "AAAA" }]);
    await expectAuthError(createBearerVerifier(config({ jwksUri: server.url })).verify(bearer(await sign(oldKey))), "ERR_JWKS_UNAVAILABLE");

    server.setHang(true);
    const slow = createBearerVerifier(config({ jwksUri: server.url }), { jwksTimeoutMs: 100 });
    await expectAuthError(slow.verify(bearer(await sign(oldKey))), "ERR_JWKS_UNAVAILABLE");

    const url = server.url;
    await server.close();
    server = undefined;
    await expectAuthError(createBearerVerifier(config({ jwksUri: url })).verify(bearer(await sign(oldKey))), "ERR_JWKS_UNAVAILABLE");
  });

  it("refuses malformed tokens and disallowed algorithms without fetching the key set", async () => {
    server = await startJwksServer([oldKey.publicJwk]);
    const verifier = createBearerVerifier(config({ jwksUri: server.url }));
    await expectAuthError(verifier.verify("Bearer not.a.jwt"), "ERR_MALFORMED_TOKEN");
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"sub":"x"}').toString("base64url")}.`;
    await expectAuthError(verifier.verify(bearer(none)), "ERR_ALGORITHM");
    expect(server.requests()).toBe(0);
  });
});
