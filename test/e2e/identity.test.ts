// Identity as providers issue it, on the multi-tenant example with the official clients: initech's public
// status tool and billing role grant, hooli's DPoP, and every tenant's Server Card and the hosts' AI Catalogs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import { createHash } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { capturingToolCalls, connectLegacyClient, connectModernClient, type ConnectOptions } from "./clients.ts";
import { fetchWithHost } from "./host-fetch.ts";

const base = inject("baseUrlMultiTenant");
const port = new URL(base).port;
const INITECH = `${base}/t/initech/mcp`;
const HOOLI = `${base}/t/hooli/mcp`;
const ERAS = ["legacy", "modern"] as const;

function token(tenant: string, ...args: string[]): string {
  return execFileSync(process.execPath, ["scripts/token.mjs", "--tenant", tenant, ...args], { encoding: "utf8" }).trim();
}

type AnyClient = Awaited<ReturnType<typeof connectModernClient>> | Awaited<ReturnType<typeof connectLegacyClient>>;

async function withClient<T>(era: (typeof ERAS)[number], url: string, options: ConnectOptions, run: (client: AnyClient) => Promise<T>): Promise<T> {
  const client = era === "legacy" ? await connectLegacyClient(url, options) : await connectModernClient(url, options);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

const text = (result: unknown): string => ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("");

describe.each(ERAS)("initech with the %s client", (era) => {
  it("lists every tool without a token (protected ones with their securitySchemes), calls the public status tool, while invoice_total stays 401", async () => {
    const { fetch: capture, seen } = capturingToolCalls();
    await withClient(era, INITECH, { fetch: capture }, async (client) => {
      const tools = (await client.listTools()).tools;
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["status", "invoice_total"]));
      // The SDKs' Tool type drops the top-level field; _meta.securitySchemes (where the Apps SDK reads it) reaches the client.
      expect(tools.find((tool) => tool.name === "status")?._meta?.["securitySchemes"]).toEqual([{ type: "noauth" }]);
      expect(tools.find((tool) => tool.name === "invoice_total")?._meta?.["securitySchemes"]).toEqual([{ type: "oauth2", scopes: ["invoices:read"] }]);
      expect(JSON.parse(text(await client.callTool({ name: "status", arguments: {} })))).toEqual({ tenant: "initech", status: "ok", caller: "anonymous" });
      await expect(client.callTool({ name: "invoice_total", arguments: { lines: [1] } })).rejects.toThrow();
      const refusal = seen.at(-1) as Response;
      expect(refusal.status).toBe(401);
      expect(refusal.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata="[^"]*\/\.well-known\/oauth-protected-resource\/t\/initech\/mcp"/);
    });
  });

  it("lets roles [billing] without scopes call invoice_total, and answers roles [viewer] with 403", async () => {
    const billing = { headers: { authorization: `Bearer ${token("initech", "--roles", "billing", "--sub", `billing-${era}`)}` } };
    await withClient(era, INITECH, billing, async (client) => {
      expect(text(await client.callTool({ name: "invoice_total", arguments: { lines: [2, 3] } }))).toBe("Total: 5");
    });
    const { fetch: capture, seen } = capturingToolCalls();
    const viewer = { fetch: capture, headers: { authorization: `Bearer ${token("initech", "--roles", "viewer", "--sub", `viewer-${era}`)}` } };
    await withClient(era, INITECH, viewer, async (client) => {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("invoice_total");
      await expect(client.callTool({ name: "invoice_total", arguments: { lines: [1] } })).rejects.toThrow(/403|Insufficient scope/);
      expect(seen.at(-1)?.status).toBe(403);
      expect(seen.at(-1)?.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="invoices:read"/);
    });
  });
});

/** A DPoP key holder: signs one proof per request (RFC 9449) with jose. */
async function dpopHolder(): Promise<{ jwkFile: string; sign: (method: string, url: string, accessToken: string) => Promise<string> }> {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = await exportJWK(publicKey);
  const jwkFile = join(mkdtempSync(join(tmpdir(), "edge-mcp-dpop-")), "key.json");
  writeFileSync(jwkFile, JSON.stringify(jwk));
  const sign = (method: string, url: string, accessToken: string) =>
    new SignJWT({
      htm: method,
      htu: url,
      iat: Math.floor(Date.now() / 1000),
      jti: crypto.randomUUID(),
      ath: createHash("sha256").update(accessToken).digest("base64url"),
    })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk })
      .sign(privateKey);
  return { jwkFile, sign };
}

/** A fetch that sends the bound token with the DPoP scheme and a fresh proof for each request. */
function dpopFetch(accessToken: string, sign: (method: string, url: string, accessToken: string) => Promise<string>): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const headers = new Headers(init?.headers);
    headers.set("authorization", `DPoP ${accessToken}`);
    headers.set("dpop", await sign(method, url, accessToken));
    return fetch(input, { ...init, headers });
  };
}

describe("hooli requires DPoP", () => {
  const post = (headers: Record<string, string>) =>
    fetch(HOOLI, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
      }),
    });

  it("answers no proof, a replayed proof and a proof for another URL with 401 and a DPoP challenge; a good proof with 200", async () => {
    const { jwkFile, sign } = await dpopHolder();
    const bound = token("hooli", "--dpop-jwk", jwkFile, "--sub", "dpop-raw");
    for (const response of [await post({ authorization: `DPoP ${bound}` }), await post({ authorization: `Bearer ${token("hooli")}` })]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^DPoP algs="ES256 EdDSA RS256 PS256", resource_metadata="[^"]*\/t\/hooli\/mcp"/);
      await response.text();
    }
    const good = await sign("POST", HOOLI, bound);
    const ok = await post({ authorization: `DPoP ${bound}`, dpop: good });
    expect(ok.status).toBe(200);
    await ok.text();
    const replayed = await post({ authorization: `DPoP ${bound}`, dpop: good });
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get("www-authenticate")).toMatch(/error="invalid_dpop_proof", error_description="[^"]*replay/);
    await replayed.text();
    const elsewhere = await post({ authorization: `DPoP ${bound}`, dpop: await sign("POST", `${base}/t/initech/mcp`, bound) });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get("www-authenticate")).toMatch(/htu/);
    await elsewhere.text();
    const metadata = await (await fetch(`${base}/.well-known/oauth-protected-resource/t/hooli/mcp`)).json();
    expect(metadata).toMatchObject({ dpop_bound_access_tokens_required: true });
  });

  it.each(ERAS)("lets the %s client that signs proofs with jose call tools", async (era) => {
    const { jwkFile, sign } = await dpopHolder();
    const bound = token("hooli", "--dpop-jwk", jwkFile, "--sub", `dpop-${era}`);
    await withClient(era, HOOLI, { fetch: dpopFetch(bound, sign) }, async (client) => {
      expect(JSON.parse(text(await client.callTool({ name: "whoami", arguments: {} })))).toMatchObject({ tenant: "hooli", subject: `dpop-${era}` });
    });
  });
});

describe("server cards and AI catalogs", () => {
  const CARD_TYPE = "application/mcp-server-card+json";

  it("serves one card per tenant with the media type and an ETag, 304 on If-None-Match", async () => {
    const names = new Set<string>();
    for (const [url, init] of [
      [`${INITECH}/server-card`, {}],
      [`${base}/t/globex/mcp/server-card`, {}],
      [`${HOOLI}/server-card`, {}],
    ] as const) {
      const response = await fetch(url, init);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type")).toBe(CARD_TYPE);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const etag = response.headers.get("etag") as string;
      expect(etag).toMatch(/^".+"$/);
      const card = await response.json<{ name: string; remotes: { url: string }[] }>();
      expect(card.remotes[0]?.url).toBe(url.replace(/\/server-card$/, ""));
      names.add(card.name);
      const again = await fetch(url, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      await again.text();
    }
    expect(names.size).toBe(3);
    const acme = await fetchWithHost(`acme.localhost:${port}`)(`${base}/mcp/server-card`);
    expect(acme.status).toBe(200);
    expect((await acme.json<{ name: string }>()).name).toMatch(/\/acme$/);
  });

  it("lists exactly the tenants of the host in its AI catalog; an unknown tenant's card is 404", async () => {
    const byPath = await (await fetch(`${base}/.well-known/ai-catalog.json`)).json<{ entries: { url: string; type: string }[] }>();
    expect(byPath.entries.map((entry) => entry.url).sort()).toEqual(
      [`${base}/t/globex/mcp/server-card`, `${base}/t/hooli/mcp/server-card`, `${base}/t/initech/mcp/server-card`].sort(),
    );
    expect(byPath.entries.every((entry) => entry.type === CARD_TYPE)).toBe(true);
    const atAcme = await fetchWithHost(`acme.localhost:${port}`)(`${base}/.well-known/ai-catalog.json`);
    const acmeEntries = (await atAcme.json<{ entries: { identifier: string; url: string }[] }>()).entries;
    expect(acmeEntries).toHaveLength(1);
    expect(acmeEntries[0]?.url).toMatch(/\/mcp\/server-card$/);
    expect(acmeEntries[0]?.identifier).toMatch(/:acme$/);
    const unknown = await fetch(`${base}/t/nobody/mcp/server-card`);
    expect(unknown.status).toBe(404);
    await unknown.text();
  });
});
