// npm run dev [-- --port N] [wrangler flags…]: a local OpenID provider on the next free port, then
// `wrangler dev` of this Worker pointed at it. Ctrl-C stops both.
import { spawn } from "node:child_process";
import { DEV_CLIENT, freePortFrom, startLocalProvider } from "./local-provider.mjs";

const rest = [];
let port = 8787;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--port" && argv[i + 1] !== undefined) port = Number(argv[++i]);
  else if (argv[i].startsWith("--port=")) port = Number(argv[i].slice("--port=".length));
  else rest.push(argv[i]);
}
if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`--port must be a TCP port; got ${port}`);

const provider = await startLocalProvider({ port: await freePortFrom(port + 1), workerOrigins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`] });
console.log(`Local OpenID provider at ${provider.issuer}: sign in with any user name (e.g. "ada") and any password.`);
console.log(`MCP endpoint at http://127.0.0.1:${port}/mcp`);

const vars = {
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: DEV_CLIENT.clientId,
  OIDC_CLIENT_SECRET: DEV_CLIENT.clientSecret,
  // Clients running on this machine may publish their metadata document on a loopback host.
  OAUTH_DEV_LOOPBACK_CIMD: "true",
  MCP_DEV: "true",
};
const args = [
  "wrangler",
  "dev",
  "--no-minify",
  "--ip",
  "127.0.0.1",
  "--port",
  String(port),
  ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ...rest,
];
const wrangler = spawn("npx", ["--no-install", ...args], {
  stdio: "inherit",
  detached: true, // its own process group: stopping it stops workerd too
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
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
  await provider.stop();
  process.exit(code);
}
wrangler.once("exit", (code) => void stop(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.once(signal, () => void stop(0));
