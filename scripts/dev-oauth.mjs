// npm run dev:oauth -- [--port N] [wrangler flags…]: a local OpenID provider on the next free port, then `wrangler dev` of examples/oauth.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ACCOUNTS_CLIENT, DEV_CLIENT, freePortFrom, startLocalOidcProvider } from "./local-oidc-provider.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const WRANGLER = fileURLToPath(new URL("../node_modules/.bin/wrangler", import.meta.url));

/** `--port N` (or `--port=N`) out of the arguments; everything else passes through to wrangler. */
function parseArgs(argv) {
  const rest = [];
  let port = 8787;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--port" && argv[i + 1] !== undefined) port = Number(argv[++i]);
    else if (arg.startsWith("--port=")) port = Number(arg.slice("--port=".length));
    else rest.push(arg);
  }
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`--port must be a TCP port; got ${port}`);
  return { port, rest };
}

const { port, rest } = parseArgs(process.argv.slice(2));
const providerPort = await freePortFrom(port + 1);
const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
// DEV_OAUTH_ACCOUNTS_ACCESS_TTL: seconds the connected accounts' access tokens live (tests shorten it to see a refresh).
const accountsAccessTtl = Number(process.env.DEV_OAUTH_ACCOUNTS_ACCESS_TTL ?? "3600");
// DEV_OAUTH_SIGN_IN_ACCESS_TTL: seconds the sign-in's upstream access tokens live (tests shorten it to see the upstream refresh).
const signInAccessTtl = Number(process.env.DEV_OAUTH_SIGN_IN_ACCESS_TTL ?? "3600");
const oidc = await startLocalOidcProvider({ port: providerPort, workerOrigins: origins, accountsAccessTtl, signInAccessTtl });
console.log(`Local OpenID provider at ${oidc.issuer} (sign in with any user name, e.g. "ada"; any password).`);
console.log(`MCP endpoint at http://127.0.0.1:${port}/mcp`);

const args = ["dev", "--config", "examples/oauth/wrangler.toml", "--ip", "127.0.0.1", "--port", String(port)];
args.push("--var", `OIDC_ISSUER:${oidc.issuer}`, "--var", `OIDC_CLIENT_ID:${DEV_CLIENT.clientId}`, "--var", `OIDC_CLIENT_SECRET:${DEV_CLIENT.clientSecret}`);
// Connected accounts: the local provider again, under its accounts client; the key seals tokens on this machine only.
args.push("--var", `FIXTURE_CLIENT_ID:${ACCOUNTS_CLIENT.clientId}`, "--var", `FIXTURE_CLIENT_SECRET:${ACCOUNTS_CLIENT.clientSecret}`);
args.push("--var", "MCP_ACCOUNTS_KEY:local-development-accounts-key-not-for-production", "--var", `PUBLIC_URL:http://127.0.0.1:${port}`);
// Tests turn on traces to a local collector and the usage view (with its admin token) to look for tokens in them.
if (process.env.DEV_OAUTH_OTLP_ENDPOINT) args.push("--var", `OTEL_EXPORTER_OTLP_ENDPOINT:${process.env.DEV_OAUTH_OTLP_ENDPOINT}`);
if (process.env.DEV_OAUTH_ADMIN_TOKEN) args.push("--var", `MCP_ADMIN_TOKEN:${process.env.DEV_OAUTH_ADMIN_TOKEN}`);
args.push(...rest);
const wrangler = spawn(WRANGLER, args, {
  cwd: ROOT,
  stdio: "inherit",
  detached: true, // its own process group: stopping it stops workerd too
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  try {
    if (wrangler.exitCode === null && wrangler.pid !== undefined) process.kill(-wrangler.pid, "SIGTERM");
  } catch {
    // the group is already gone
  }
  await oidc.stop();
  process.exit(code);
}
wrangler.once("exit", (code) => void stop(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.once(signal, () => void stop(0));
