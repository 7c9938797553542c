// Sign-in with a GitHub-shaped upstream (OAuth 2 without OIDC): a stand-in on 127.0.0.1 that answers as GitHub does
// (authorize, access_token with PKCE, /user), the fixture Worker under wrangler dev, the SDK v1 client and Chromium.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts } from "../e2e/free-ports.ts";
import { startWranglerDev, type WranglerDev } from "../e2e/wrangler-dev.ts";
import { launchChromium } from "./chromium.ts";
import { sdkSignIn, startClientSite, type ClientSite } from "./oauth-client.ts";

const CLIENT_ID = "Iv1.fixture";
const CLIENT_SECRET = "fixture-secret";
const USER_TOKEN = "gho_fixture_user_token";

let github: Server | undefined;
let wrangler: WranglerDev | undefined;
let site: ClientSite | undefined;
let chromium: { browser: Browser; close(): Promise<void> } | undefined;
/** What the stand-in saw: token requests refused, and the bearer of each API call. */
const seen = { refused: [] as string[], apiBearers: [] as string[] };
const persist = mkdtempSync(join(tmpdir(), "edge-mcp-oauth-github-"));

function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => resolve(new URLSearchParams(text)));
  });
}

/** GitHub's web and API hosts, as far as sign-in needs them; the user has already authorized the app. */
async function startGithub(port: number): Promise<Server> {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", `http://127.0.0.1:${port}`);
      const json = (value: unknown, status = 200) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (url.pathname === "/login/oauth/authorize") {
        const code = `code-${codes.size + 1}`;
        codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", redirectUri: url.searchParams.get("redirect_uri") ?? "" });
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        return response.writeHead(302, { location: back.href }).end();
      }
      if (url.pathname === "/login/oauth/access_token") {
        const form = await formOf(request);
        const issued = codes.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const ok =
          issued !== undefined &&
          form.get("client_id") === CLIENT_ID &&
          form.get("client_secret") === CLIENT_SECRET &&
          form.get("redirect_uri") === issued.redirectUri &&
          createHash("sha256").update(verifier).digest("base64url") === issued.challenge;
        codes.delete(form.get("code") ?? "");
        // GitHub answers a bad code with 200 and an error member.
        if (!ok) {
          seen.refused.push(form.get("code") ?? "");
          return json({ error: "bad_verification_code" });
        }
        return json({ access_token: USER_TOKEN, token_type: "bearer", scope: "read:user" });
      }
      const bearer = request.headers.authorization ?? "";
      seen.apiBearers.push(bearer);
      if (bearer !== `Bearer ${USER_TOKEN}`) return json({ message: "Bad credentials" }, 401);
      if (url.pathname === "/user") return json({ id: 583231, login: "octocat", name: "The Octocat", email: null });
      if (url.pathname === "/user/repos") return json([{ full_name: "octocat/hello-world" }]);
      json({ message: "Not Found" }, 404);
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

beforeAll(async () => {
  const [port] = await freePorts(1);
  const origin = `http://127.0.0.1:${port}`;
  github = await startGithub(port ?? 0);
  [wrangler, site, chromium] = await Promise.all([
    startWranglerDev({
      name: "oauth github fixture",
      configPath: "test/e2e/fixtures/oauth-github/wrangler.toml",
      vars: { GITHUB_WEB_ORIGIN: origin, GITHUB_API_ORIGIN: origin },
      args: ["--persist-to", persist],
    }),
    startClientSite(),
    launchChromium(),
  ]);
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await site?.close();
  await wrangler?.stop();
  await new Promise((resolve) => (github ? github.close(resolve) : resolve(undefined)));
  rmSync(persist, { recursive: true, force: true });
});

describe("sign-in with GitHub (OAuth 2 without OpenID Connect)", () => {
  it("signs the user in as GitHub's numeric user id, and a tool reads the user's repositories from GitHub as the user", async () => {
    if (!wrangler || !site || !chromium) throw new Error("not started");
    const { client, provider } = await sdkSignIn({ baseUrl: wrangler.baseUrl, site, browser: chromium.browser, user: "octocat" });
    try {
      expect((await client.callTool({ name: "whoami", arguments: {} })).content).toEqual([{ type: "text", text: "You are @octocat (GitHub user 583231)." }]);
      const repos = await client.callTool({ name: "repos", arguments: {} });
      expect(JSON.stringify(repos.content)).toContain("octocat/hello-world");
      // GitHub saw the user's token, never the MCP client's; the client never saw GitHub's.
      expect(seen.apiBearers.every((bearer) => bearer === `Bearer ${USER_TOKEN}`)).toBe(true);
      expect(seen.apiBearers).not.toContain(`Bearer ${provider.tokens()?.access_token ?? ""}`);
      expect(JSON.stringify(repos)).not.toContain(USER_TOKEN);
      expect(seen.refused).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
