// A principal is (tenant, issuer or "api-key", subject): equal subjects from other issuers or an API key never collide.
import { describe, expect, it } from "vitest";
import { API_KEY, ISSUER_TWO, bearer, inSession, initialize, modern, resultOf } from "./fixture.ts";

const KEY = `Bearer ${API_KEY}`;

async function saveNote(authorization: string, text: string): Promise<string> {
  const reply = await resultOf(await modern("secure", "tools/call", { name: "note_save", arguments: { text } }, authorization));
  expect(reply.result?.isError).toBeUndefined();
  return reply.result?.content[0]?.text as string;
}

async function readNote(authorization: string, handle: string) {
  return (await resultOf(await modern("secure", "tools/call", { name: "note_read", arguments: { handle } }, authorization))).result;
}

describe("principal identity", () => {
  it("keeps the API key ci's handles from a JWT whose sub is ci or api-key:ci", async () => {
    const handle = await saveNote(KEY, "from the key");
    expect((await readNote(KEY, handle))?.content[0]?.text).toBe("from the key");
    for (const sub of ["ci", "api-key:ci"]) {
      const other = await readNote(await bearer({ sub }), handle);
      expect(other?.isError).toBe(true);
      expect(other?.content[0]?.text).toMatch(/not created for you/);
    }
  });

  it("keeps one issuer's alice from another issuer's alice: handles, sessions and requestState", async () => {
    const one = await bearer({ sub: "alice" });
    const two = await bearer({ sub: "alice", iss: ISSUER_TWO });
    const handle = await saveNote(one, "alice of issuer one");
    expect((await readNote(two, handle))?.isError).toBe(true);
    expect((await readNote(one, handle))?.content[0]?.text).toBe("alice of issuer one");

    const { sessionId } = await initialize("secure", one);
    const foreign = await inSession("secure", sessionId as string, "ping", {}, two);
    expect(foreign.status).toBe(404);
    await foreign.text();

    const first = await resultOf(await modern("secure", "tools/call", { name: "confirm", arguments: {} }, one));
    expect(first.result?.["resultType"]).toBe("input_required");
    const retry = { name: "confirm", arguments: {}, inputResponses: { sure: { action: "accept", content: {} } }, requestState: first.result?.["requestState"] };
    expect((await resultOf(await modern("secure", "tools/call", retry, two))).error).toMatchObject({ code: -32602 });
    expect((await resultOf(await modern("secure", "tools/call", retry, one))).result?.content[0]?.text).toBe("accept");
  });

  it("shows handlers the issuer with the subject", async () => {
    const who = async (authorization: string): Promise<unknown> =>
      JSON.parse((await resultOf(await modern("secure", "tools/call", { name: "whoami", arguments: {} }, authorization))).result?.content[0]?.text as string);
    expect(await who(KEY)).toMatchObject({ issuer: "api-key", subject: "ci", scopes: ["invoices:read"] });
    expect(await who(await bearer({ sub: "ci", iss: ISSUER_TWO }))).toMatchObject({ issuer: ISSUER_TWO, subject: "ci" });
  });
});

describe("access tokens only (tokenType: at+jwt)", () => {
  it("refuses a JWT without typ at+jwt and accepts one with it", async () => {
    const plain = await modern("strict", "tools/call", { name: "whoami", arguments: {} }, await bearer({ tenant: "strict" }));
    expect(plain.status).toBe(401);
    expect(plain.headers.get("www-authenticate")).toMatch(/error="invalid_token", error_description="[^"]*at\+jwt/);
    await plain.text();
    for (const typ of ["at+jwt", "application/at+jwt"]) {
      const typed = await resultOf(await modern("strict", "tools/call", { name: "whoami", arguments: {} }, await bearer({ tenant: "strict", typ })));
      expect(typed.status).toBe(200);
    }
  });
});
