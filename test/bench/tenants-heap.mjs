// node test/bench/tenants-heap.mjs <persisted namespace dir> [--rounds N]: the V8 heap of the bench:tenants Worker
// (keyedTenants({ maxTenants: 100 })) after a full garbage collection, read through workerd's inspector, as it
// serves more and more distinct tenants of a namespace that `npm run bench:tenants` imported (TENANT_STATE_DIR/<size>).
// RSS keeps garbage and the local KV's pages; the heap after a collection is what the Worker holds.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./bench-workerd.mjs";
import { ROOT } from "./bundling.mjs";
import { inspector } from "./notifications.mjs";

const STATE = process.argv[2];
if (!STATE || STATE.startsWith("--"))
  throw new Error("usage: node test/bench/tenants-heap.mjs <persisted namespace dir, e.g. TENANT_STATE_DIR/100000> [--rounds N]");
const ROUNDS = process.argv.includes("--rounds") ? Number(process.argv[process.argv.indexOf("--rounds") + 1]) : 3;
const PER_ROUND = 3000;
const CONFIG = join(ROOT, "test/bench/tenants/wrangler.toml");
const ENV = { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const wranglerRequire = createRequire(join(ROOT, "node_modules/wrangler/package.json"));
const miniflareRequire = createRequire(wranglerRequire.resolve("miniflare"));
const { Miniflare } = miniflareRequire("miniflare");
const WebSocket = miniflareRequire("ws");

const idOf = (i) => `t${String(i).padStart(6, "0")}`;

const outdir = mkdtempSync(join(tmpdir(), "edge-mcp-tenants-heap-"));
const built = spawnSync("npx", ["--no-install", "wrangler", "deploy", "--dry-run", "--config", CONFIG, "--outdir", outdir], {
  cwd: ROOT,
  env: ENV,
  encoding: "utf8",
});
if (built.status !== 0) throw new Error(`bundling failed:\n${built.stderr}${built.stdout}`);
const inspectorPort = await freePort();
const mf = new Miniflare({
  name: "tenants",
  modules: true,
  scriptPath: join(outdir, "index.js"),
  modulesRoot: outdir,
  compatibilityDate: "2026-04-01",
  compatibilityFlags: ["enable_request_signal"],
  kvNamespaces: { MCP_TENANTS_KV: "bench-tenants" },
  // Where `wrangler dev --persist-to STATE` keeps the namespace.
  kvPersist: join(resolve(STATE), "v3/kv"),
  inspectorPort,
  host: "127.0.0.1",
  port: 0,
  unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
});
try {
  await mf.ready;
  const heap = await inspector(WebSocket, inspectorPort, "tenants");
  const direct = new URL(await mf.unsafeGetDirectURL());
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello", arguments: {} } });
  // Plain http to the Worker's own socket: fetch cannot set Host, which routes the tenant.
  const call = (i) =>
    new Promise((done, fail) => {
      const host = `${idOf(i)}.bench.test`;
      const headers = { host, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
      const req = http.request({ host: direct.hostname, port: direct.port, path: "/mcp", method: "POST", headers }, (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => (text.includes(`hi from ${idOf(i)}`) ? done() : fail(new Error(`tenant ${idOf(i)} answered ${res.statusCode}: ${text}`))));
      });
      req.on("error", fail);
      req.end(body);
    });
  const rows = [];
  for (let i = 0; i < 300; i++) await call(i);
  rows.push(["300 tenants", await heap.heapAfterGcMiB()]);
  for (let n = 0; n < PER_ROUND; n++) await call(200 + (n % 100));
  rows.push([`${PER_ROUND} more requests to 100 held tenants`, await heap.heapAfterGcMiB()]);
  for (let round = 0; round < ROUNDS; round++) {
    const from = 300 + round * PER_ROUND;
    for (let i = from; i < from + PER_ROUND; i++) await call(i);
    rows.push([`${from + PER_ROUND} tenants served (round ${round + 1} of ${PER_ROUND} new)`, await heap.heapAfterGcMiB()]);
  }
  heap.close();
  for (const [what, mib] of rows) console.log(`${mib.toFixed(2).padStart(8)} MiB  after ${what}`);
  const first = rows[1]?.[1] ?? 0;
  const last = rows.at(-1)?.[1] ?? 0;
  console.log(`tenants-heap: held_mib=${first.toFixed(2)} after_new_mib=${last.toFixed(2)} growth_mib=${(last - first).toFixed(2)}`);
} finally {
  await mf.dispose();
  rmSync(outdir, { recursive: true, force: true });
}
