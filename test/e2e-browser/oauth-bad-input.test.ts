// Bad input at the authorization server of `npm run dev:oauth`: each answered with the right OAuth error
// (RFC 6749 §4.1.2.1 and §5.2, RFC 7009), never a redirect to where the attacker says, and nothing issued.
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./chromium.ts";
import { startDevOAuth, type DevOAuth } from "./dev-oauth.ts";
import { authorizeUrl, pkcePair, registerClient, signInInBrowser, startClientSite, tokenRequest, type ClientSite } from "./oauth-client.ts";

let dev: DevOAuth | undefined;
let site: ClientSite | undefined;
let chromium: { browser: Browser; close(): Promise<void> } | undefined;
let clientId = "";

beforeAll(async () => {
  [dev, site, chromium] = await Promise.all([startDevOAuth(), startClientSite(), launchChromium()]);
  clientId = await registerClient(dev.baseUrl, site.callbackUrl);
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await site?.close();
  await dev?.stop();
});

function started(): { dev: DevOAuth; site: ClientSite; browser: Browser } {
  if (!dev || !site || !chromium) throw new Error("not started");
  return { dev, site, browser: chromium.browser };
}

/** A code for `clientId`, signed in as `user` in the browser, and the verifier it was asked with. */
async function obtainCode(user = "ada", scope?: string): Promise<{ code: string; verifier: string }> {
  const { dev, site, browser } = started();
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl(dev.baseUrl, {
    client_id: clientId,
    redirect_uri: site.callbackUrl,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: `${dev.baseUrl}/mcp`,
    ...(scope === undefined ? {} : { scope }),
  });
  const callback = site.nextCallback();
  await signInInBrowser(browser, url, user, site.callbackUrl);
  const code = (await callback).get("code");
  if (code === null) throw new Error("no code");
  return { code, verifier };
}

const exchange = (code: string, verifier: string) =>
  tokenRequest(started().dev.baseUrl, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: started().site.callbackUrl,
  });
const refresh = (token: string) => tokenRequest(started().dev.baseUrl, { grant_type: "refresh_token", refresh_token: token, client_id: clientId });

/** tools/list with a bearer: the HTTP status. */
async function mcpStatus(token: string): Promise<number> {
  const response = await fetch(`${started().dev.baseUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await response.body?.cancel();
  return response.status;
}

describe("the token endpoint", () => {
  it("refuses a wrong PKCE verifier (invalid_grant) and issues no token; a replayed code is refused and revokes what the code gave", async () => {
    const { code, verifier } = await obtainCode();
    const wrong = await exchange(code, pkcePair().verifier);
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(wrong.body["access_token"]).toBeUndefined();
    const good = await exchange(code, verifier);
    expect(good.status).toBe(200);
    const token = good.body["access_token"] as string;
    expect(await mcpStatus(token)).toBe(200);
    const replay = await exchange(code, verifier);
    expect(replay).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // RFC 6749 §4.1.2: the tokens issued from a replayed code are revoked.
    expect(await mcpStatus(token)).toBe(401);
  });

  it("rotates refresh tokens, and a rotated-away refresh token presented again revokes the whole grant (invalid_grant)", async () => {
    const { code, verifier } = await obtainCode();
    const first = await exchange(code, verifier);
    const rt1 = first.body["refresh_token"] as string;
    const second = await refresh(rt1);
    expect(second.status).toBe(200);
    const rt2 = second.body["refresh_token"] as string;
    expect(rt2).not.toBe(rt1);
    const third = await refresh(rt2);
    expect(third.status).toBe(200);
    const rt3 = third.body["refresh_token"] as string;
    const access3 = third.body["access_token"] as string;
    expect(await mcpStatus(access3)).toBe(200);
    // rt1 is two rotations old: a thief's copy, or the client's; either way the family goes.
    expect(await refresh(rt1)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await refresh(rt3)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await mcpStatus(access3)).toBe(401);
  });

  it("revokes an access token at the revocation endpoint (RFC 7009): the MCP endpoint then answers 401", async () => {
    const { code, verifier } = await obtainCode();
    const token = (await exchange(code, verifier)).body["access_token"] as string;
    expect(await mcpStatus(token)).toBe(200);
    const revoked = await fetch(`${started().dev.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, token_type_hint: "access_token", client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    expect(await mcpStatus(token)).toBe(401);
  });

  it("refuses a forged refresh token without revoking anything", async () => {
    const { code, verifier } = await obtainCode();
    const issued = (await exchange(code, verifier)).body;
    const [userId, grantId] = (issued["refresh_token"] as string).split(":");
    expect(await refresh(`${userId}:${grantId}:forgedforgedforgedforgedforgedfo`)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await mcpStatus(issued["access_token"] as string)).toBe(200);
  });
});

describe("the authorization endpoint", () => {
  it("refuses plain PKCE and a request without PKCE with invalid_request, back at the registered redirect URI", async () => {
    const { dev, site } = started();
    for (const pkce of [{ code_challenge: "a".repeat(43), code_challenge_method: "plain" }, {}]) {
      const response = await fetch(authorizeUrl(dev.baseUrl, { client_id: clientId, redirect_uri: site.callbackUrl, state: "s1", ...pkce }), {
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location") ?? "");
      expect(`${location.origin}${location.pathname}`).toBe(site.callbackUrl);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("state")).toBe("s1");
    }
  });

  it("refuses an inexact or foreign redirect URI with a page of its own, never a redirect (no open redirect)", async () => {
    const { dev, site } = started();
    const { challenge } = pkcePair();
    for (const redirect of [
      `${site.callbackUrl}/`,
      `${site.callbackUrl}?next=x`,
      `${site.callbackUrl.toUpperCase()}`,
      "https://attacker.example/callback",
      `${site.origin}/callback/../evil`,
    ]) {
      const response = await fetch(
        authorizeUrl(dev.baseUrl, { client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: "S256" }),
        { redirect: "manual" },
      );
      expect(response.status, redirect).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("invalid_request");
    }
  });

  it("refuses a Client ID Metadata Document whose client_id is not its URL (invalid_client), and keeps nothing of it", async () => {
    const { dev, site } = started();
    const url = `${site.origin}/liar.json`;
    site.serve("/liar.json", {
      client_id: `${site.origin}/someone-else.json`,
      client_name: "liar",
      redirect_uris: [site.callbackUrl],
      token_endpoint_auth_method: "none",
    });
    const { challenge } = pkcePair();
    const ask = () =>
      fetch(authorizeUrl(dev.baseUrl, { client_id: url, redirect_uri: site.callbackUrl, code_challenge: challenge, code_challenge_method: "S256" }), {
        redirect: "manual",
      });
    const refused = await ask();
    expect(refused.status).toBe(400);
    expect(refused.headers.get("location")).toBeNull();
    expect(await refused.json()).toMatchObject({ error: "invalid_client" });
    // Nothing was stored for it: the token endpoint does not know the client either.
    expect(await tokenRequest(dev.baseUrl, { grant_type: "authorization_code", code: "x:y:z", code_verifier: "v".repeat(43), client_id: url })).toMatchObject({
      status: 400,
      body: { error: "invalid_client" },
    });
  });
});

describe("the consent page and the upstream callback", () => {
  /** The consent page for a fresh request: its handle and the cookie that binds it to this "browser". */
  async function consent(): Promise<{ handle: string; cookie: string }> {
    const { dev, site } = started();
    const { challenge } = pkcePair();
    const page = await fetch(
      authorizeUrl(dev.baseUrl, { client_id: clientId, redirect_uri: site.callbackUrl, code_challenge: challenge, code_challenge_method: "S256" }),
    );
    expect(page.status).toBe(200);
    const html = await page.text();
    // The client's name is shown escaped.
    expect(html).toContain("bad-input e2e");
    const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/^__Host-/);
    return { handle, cookie };
  }

  it("shows a client name chosen to inject markup as text", async () => {
    const { dev, site } = started();
    const response = await fetch(`${dev.baseUrl}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: `<script>alert("x")</script><img src=x onerror=alert(1)>`,
        redirect_uris: [site.callbackUrl],
        token_endpoint_auth_method: "none",
      }),
    });
    const evil = ((await response.json()) as { client_id: string }).client_id;
    const { challenge } = pkcePair();
    const page = await fetch(
      authorizeUrl(dev.baseUrl, { client_id: evil, redirect_uri: site.callbackUrl, code_challenge: challenge, code_challenge_method: "S256" }),
    );
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<img/);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  const post = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${started().dev.baseUrl}/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form),
    });

  it("refuses a consent POST without its handle, without the cookie that binds it (CSRF), or from another site; the right one goes upstream once", async () => {
    const { dev } = started();
    const { handle, cookie } = await consent();
    const missing = await post({ decision: "approve" }, { cookie });
    expect(missing.status).toBe(400);
    const unbound = await post({ handle, decision: "approve" });
    expect(unbound.status).toBe(400);
    expect(unbound.headers.get("location")).toBeNull();
    const foreign = await post({ handle, decision: "approve" }, { cookie, origin: "https://attacker.example" });
    expect(foreign.status).toBe(403);
    const approved = await post({ handle, decision: "approve" }, { cookie, origin: dev.baseUrl });
    expect(approved.status).toBe(302);
    expect(approved.headers.get("location")).toMatch(new RegExp(`^${dev.issuer}/`));
    const again = await post({ handle, decision: "approve" }, { cookie, origin: dev.baseUrl });
    expect(again.status).toBe(400);
  });

  it("refuses an upstream callback whose state this browser did not start, and never redirects where the callback URL says", async () => {
    const { dev } = started();
    for (const query of ["state=forged&code=abc&redirect_uri=https%3A%2F%2Fattacker.example%2F", "code=abc", "state=&error=access_denied"]) {
      const response = await fetch(`${dev.baseUrl}/oauth/callback?${query}`, { redirect: "manual" });
      expect(response.status, query).toBe(400);
      expect(response.headers.get("location")).toBeNull();
    }
  });
});

describe("limits of the authorization endpoints", () => {
  it("refuses a body over 16 KiB with 413", async () => {
    const response = await fetch(`${started().dev.baseUrl}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "x".repeat(20_000), redirect_uris: ["http://127.0.0.1:1/cb"] }),
    });
    expect(response.status).toBe(413);
  });

  it("rate-limits one client network to 60 requests a minute (429 with Retry-After), and the MCP endpoint is not counted", async () => {
    const { dev } = started();
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) {
      const response = await fetch(`${dev.baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=x",
      });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      await response.body?.cancel();
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
    expect(await mcpStatus("not-a-token")).toBe(401);
  });
});
