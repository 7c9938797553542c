// Client ID Metadata Documents over https, as the oauth example fetches them: the example bundled as it deploys
// and run in workerd (miniflare), the internet played by this test through miniflare's outbound service, so
// `https://clients.example.test/...` answers here and nothing leaves the machine. Good documents are used and
// cached; huge, slow, mismatched, private-address and plain-http ones are refused with invalid_client, nothing
// stored.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ORIGIN = "https://mcp.example.test";
const CLIENTS = "https://clients.example.test";
const REDIRECT_URI = "https://app.example.test/callback";

interface Miniflare {
  ready: Promise<unknown>;
  dispatchFetch(url: string, init?: RequestInit): Promise<Response>;
  getKVNamespace(name: string): Promise<{ list(): Promise<{ keys: { name: string }[] }> }>;
  dispose(): Promise<void>;
}
// wrangler's own miniflare (the one `wrangler dev` runs), as test/bench does.
const wranglerRequire = createRequire(join(ROOT, "node_modules/wrangler/package.json"));
const { Miniflare: MiniflareClass } = wranglerRequire(wranglerRequire.resolve("miniflare")) as {
  Miniflare: new (options: Record<string, unknown>) => Miniflare;
};

/** Every request the Worker sent out, by URL. */
const outbound: string[] = [];

const documentOf = (path: string, fields: Record<string, unknown> = {}) => ({
  client_id: `${CLIENTS}${path}`,
  client_name: "CIMD client under test",
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: "none",
  ...fields,
});

/** The internet, as far as the Worker can tell. */
async function internet(request: Request): Promise<Response> {
  outbound.push(request.url);
  const json = (body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { headers: { "content-type": "application/json", "cache-control": "max-age=300", ...headers } });
  const path = new URL(request.url).pathname;
  if (!request.url.startsWith(CLIENTS)) return new Response("not here", { status: 502 });
  switch (path) {
    case "/good.json":
      return json(documentOf(path));
    case "/huge.json":
      return json(documentOf(path, { padding: "x".repeat(64 * 1024) }));
    case "/mismatch.json":
      return json(documentOf("/someone-else.json"));
    case "/secret.json":
      return json(documentOf(path, { token_endpoint_auth_method: "client_secret_basic", client_secret: "s" }));
    case "/slow.json":
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      return json(documentOf(path));
    default:
      return new Response("no such document", { status: 404 });
  }
}

let mf: Miniflare | undefined;
let outdir = "";

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), "edge-mcp-oauth-cimd-"));
  const built = spawnSync("npx", ["--no-install", "wrangler", "deploy", "--dry-run", "--config", "examples/oauth/wrangler.toml", "--outdir", outdir], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  if (built.status !== 0) throw new Error(`bundling examples/oauth failed:\n${built.stderr}${built.stdout}`);
  mf = new MiniflareClass({
    modules: true,
    scriptPath: join(outdir, "index.js"),
    modulesRoot: outdir,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["enable_request_signal", "global_fetch_strictly_public"],
    kvNamespaces: { OAUTH_KV: "oauth" },
    durableObjects: { MCP_ACCOUNTS: { className: "McpAccountsObject", useSQLite: true } },
    bindings: {
      OIDC_ISSUER: "https://idp.example.test",
      OIDC_CLIENT_ID: "edge-mcp",
      OAUTH_RESOURCE: `${ORIGIN}/mcp`,
      OAUTH_DEV_LOOPBACK_CIMD: "false",
      PUBLIC_URL: ORIGIN,
      FIXTURE_CLIENT_ID: "fixture",
    },
    outboundService: internet,
  });
  await mf.ready;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  if (outdir !== "") rmSync(outdir, { recursive: true, force: true });
});

/** GET /authorize for a client id, as a browser sent by the client would. */
function authorize(clientId: string): Promise<Response> {
  if (!mf) throw new Error("not started");
  const url = new URL("/authorize", ORIGIN);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    state: "s",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    resource: `${ORIGIN}/mcp`,
  }))
    url.searchParams.set(name, value);
  return mf.dispatchFetch(url.href);
}

const fetchesOf = (path: string) => outbound.filter((url) => url === `${CLIENTS}${path}`).length;

async function storedClients(): Promise<string[]> {
  if (!mf) throw new Error("not started");
  const { keys } = await (await mf.getKVNamespace("OAUTH_KV")).list();
  return keys.map((key) => key.name).filter((name) => name.startsWith("client:"));
}

describe("Client ID Metadata Documents over https", () => {
  it("uses a good document: the consent page names the client, and a second request is served from the cache", async () => {
    const first = await authorize(`${CLIENTS}/good.json`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("CIMD client under test");
    expect((await authorize(`${CLIENTS}/good.json`)).status).toBe(200);
    expect(fetchesOf("/good.json")).toBe(1);
  });

  it("refuses a document over 5 KB, one whose client_id is not its URL, one with a client secret, and a 404, each with invalid_client", async () => {
    for (const path of ["/huge.json", "/mismatch.json", "/secret.json", "/missing.json"]) {
      const refused = await authorize(`${CLIENTS}${path}`);
      expect(refused.status, path).toBe(400);
      expect(await refused.text(), path).toContain("invalid_client");
      expect(fetchesOf(path), path).toBe(1);
    }
  });

  it("gives up on a document that takes longer than 10 s, with invalid_client", async () => {
    const started = Date.now();
    const refused = await authorize(`${CLIENTS}/slow.json`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("invalid_client");
    expect(Date.now() - started).toBeLessThan(11_500);
  }, 20_000);

  it("never fetches a document on a private, loopback or link-local address, or over plain http", async () => {
    const before = outbound.length;
    for (const clientId of [
      "https://10.0.0.1/client.json",
      "https://192.168.1.20/client.json",
      "https://169.254.169.254/latest/meta-data/client.json",
      "https://[fd00::1]/client.json",
      "https://127.0.0.1/client.json",
      "https://localhost/client.json",
      "https://metadata.google.internal/client.json",
    ]) {
      const refused = await authorize(clientId);
      expect(refused.status, clientId).toBe(400);
      expect(await refused.text(), clientId).toContain("invalid_client");
    }
    // Plain http is no CIMD client id at all for the library: an unknown client.
    const plain = await authorize(`http://clients.example.test/good.json`);
    expect(plain.status).toBe(400);
    expect(await plain.text()).toContain("Invalid client_id");
    expect(outbound.slice(before)).toEqual([]);
  });

  it("stores none of the refused clients", async () => {
    expect(await storedClients()).toEqual([]);
  });
});
