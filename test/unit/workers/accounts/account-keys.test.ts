import { describe, expect, it } from "vitest";
import { AccountKeys } from "../../../../src/workers/accounts/account-keys.ts";
import { openConnectState, signConnectState } from "../../../../src/workers/accounts/connect-state.ts";

const KEY_A = "a".repeat(43);
const KEY_B = "b".repeat(43);
const STATE = { tenant: "t1", issuer: "https://as.test", subject: "ada", provider: "fixture", nonce: "n1", expiresAt: Date.now() + 60_000 };

describe("AccountKeys", () => {
  it("refuses a missing secret and a short key, naming the secret", async () => {
    await expect(AccountKeys.from(undefined, "MCP_ACCOUNTS_KEY")).rejects.toThrow(/MCP_ACCOUNTS_KEY/);
    await expect(AccountKeys.from("short", "MCP_ACCOUNTS_KEY")).rejects.toThrow(/shorter than 32/);
  });

  it("opens a sealed value only under the same context", async () => {
    const keys = await AccountKeys.from(KEY_A, "K");
    const sealed = await keys.seal("secret", "ctx-a");
    expect(await keys.open(sealed, "ctx-a")).toBe("secret");
    expect(await keys.open(sealed, "ctx-b")).toBeUndefined();
    expect(await keys.open(sealed.slice(0, -2) + "AA", "ctx-a")).toBeUndefined();
    expect(await keys.open("v1.nope", "ctx-a")).toBeUndefined();
  });

  it("does not open a value once its key is removed from the ring", async () => {
    const sealed = await (await AccountKeys.from(KEY_A, "K")).seal("secret", "c");
    expect(await (await AccountKeys.from(KEY_B, "K")).open(sealed, "c")).toBeUndefined();
  });
});

describe("connect state", () => {
  it("round-trips under the ring and verifies after rotation", async () => {
    const state = await signConnectState(await AccountKeys.from(KEY_A, "K"), STATE);
    expect(await openConnectState(await AccountKeys.from(`${KEY_B} ${KEY_A}`, "K"), state)).toEqual(STATE);
  });

  it("refuses a changed field, a state of another key, an expired one and garbage", async () => {
    const keys = await AccountKeys.from(KEY_A, "K");
    const state = await signConnectState(keys, STATE);
    const [payload, signature] = state.split(".") as [string, string];
    const forgedPayload = Buffer.from(JSON.stringify([1, "t1", "https://as.test", "mallory", "fixture", "n1", STATE.expiresAt])).toString("base64url");
    expect(await openConnectState(keys, `${forgedPayload}.${signature}`)).toBe("forged");
    expect(await openConnectState(await AccountKeys.from(KEY_B, "K"), state)).toBe("forged");
    expect(await openConnectState(keys, state, STATE.expiresAt + 1)).toBe("expired");
    expect(await openConnectState(keys, null)).toBe("malformed");
    expect(await openConnectState(keys, `${payload}.${signature}.x`)).toBe("malformed");
    expect(await openConnectState(keys, "x".repeat(5000))).toBe("malformed");
    const unsigned = Buffer.from("not json").toString("base64url");
    expect(await openConnectState(keys, `${unsigned}.${await keys.sign(unsigned)}`)).toBe("malformed");
  });
});
