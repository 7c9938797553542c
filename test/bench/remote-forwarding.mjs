// `npm run bench:remote` (not part of `npm run bench`): what forwarding a call to another MCP server costs the
// Worker that forwards it. Two gateways serve the same tool as up_add: one reaches add(a, b) of an edge-mcp MCP
// server over Streamable HTTP (remoteServers(), 2026-07-28), the other the same add bound as a tool service over
// RPC (toolServices()). The upstream MCP server runs in a workerd of its own, behind a counting proxy in this
// process; the tool service necessarily shares its gateway's workerd, so the service side's figure includes the
// service's own work (the ratio is then a little lower than the gateway's own alone would give).
//
// Measured: workerd CPU per tools/call (per-thread schedstat of each gateway's workerd), in sequential batches on
// one keep-alive connection each, the gateways taking turns A B, B A, … (test/bench/README.md, "How ratios are
// compared"); and whether a second tools/list reaches the upstream (the list is cached per isolate). Last line:
//   remote: cpu_ratio=X remote_us=A service_us=B second_list_reached_upstream=no
// Options: --requests N (calls per gateway per round, default 2000), --batch N (default 200), --rounds N (default 3).
import http from "node:http";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bundle, ROOT } from "./bundling.mjs";

const { values: opt } = parseArgs({
  options: { requests: { type: "string", default: "2000" }, batch: { type: "string", default: "200" }, rounds: { type: "string", default: "3" } },
});
const REQUESTS = Number(opt.requests);
const BATCH = Number(opt.batch);
const ROUNDS = Number(opt.rounds);
const WARMUP = 500;

const require = createRequire(import.meta.url);
const { Miniflare } = createRequire(require.resolve("wrangler/package.json"))("miniflare");
const log = (...args) => console.error(...args);
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const headersOf = (method, name) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name }),
});

/** POSTs one JSON-RPC request on `agent`; resolves with the status and the body text. */
function post(url, agent, headers, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", agent, headers }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString() }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** The JSON-RPC message of an answer (JSON, or the last data line of an SSE stream). */
function messageOf(text) {
  const data = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .pop()
        ?.slice(6);
  return JSON.parse(data ?? "null");
}

let nextId = 1;
async function callAdd(url, agent) {
  const id = nextId++;
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "up_add", arguments: { a: 2, b: 3 }, _meta: META } });
  const { status, text } = await post(url, agent, headersOf("tools/call", "up_add"), body);
  const message = status === 200 ? messageOf(text) : undefined;
  if (message?.id !== id || message.result?.content?.[0]?.text !== "5") throw new Error(`up_add(2, 3) answered ${status}: ${text.slice(0, 300)}`);
}

async function listTools(url, agent) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/list", params: { _meta: META } });
  const { status, text } = await post(url, agent, headersOf("tools/list"), body);
  const names = status === 200 ? (messageOf(text).result?.tools ?? []).map((tool) => tool.name) : [];
  if (!names.includes("up_add")) throw new Error(`tools/list answered ${status} without up_add: ${text.slice(0, 300)}`);
}

/** The workerd child this process started last (miniflare spawns one per instance). */
function workerdChildren() {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === process.pid && stat.includes("(workerd")) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/** CPU of a process so far, in ns: per-thread schedstat summed. */
function cpuNs(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // thread ended
    }
  }
  return ns;
}

/** Starts miniflare with `workers` (the first gets the direct socket); resolves with it, its URL and its workerd's pid. */
async function start(workers) {
  const before = new Set(workerdChildren());
  const [first, ...rest] = workers;
  const mf = new Miniflare({ host: "127.0.0.1", port: 0, workers: [{ ...first, unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }] }, ...rest] });
  await mf.ready;
  const url = await mf.unsafeGetDirectURL(first.name);
  const pid = workerdChildren().find((child) => !before.has(child));
  if (pid === undefined) throw new Error("no new workerd child");
  return { mf, url: new URL("/mcp", url).href, pid };
}

const worker = (name, b, more = {}) => ({
  name,
  modules: true,
  scriptPath: b.scriptPath,
  modulesRoot: b.outdir,
  compatibilityDate: b.compatibilityDate,
  compatibilityFlags: b.compatibilityFlags,
  bindings: b.vars,
  ...more,
});

const work = mkdtempSync(join(tmpdir(), "edge-mcp-bench-remote-"));
const running = [];
let proxy;
try {
  log("bench:remote: bundling");
  const dir = join(ROOT, "test/bench/remote");
  const [upstream, adder, remoteGw, serviceGw] = await Promise.all(
    ["upstream", "adder", "gateway-remote", "gateway-service"].map((name) => bundle(name, join(dir, name, "wrangler.toml"), work)),
  );

  const up = await start([worker("upstream", upstream)]);
  running.push(up);
  // The counting proxy: every JSON-RPC method that reaches the upstream.
  const reached = [];
  proxy = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      try {
        reached.push(JSON.parse(body.toString()).method);
      } catch {
        reached.push("?");
      }
      const out = http.request(up.url, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      out.on("error", () => response.destroy());
      out.end(body);
    });
  });
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxyUrl = `http://127.0.0.1:${proxy.address().port}/mcp`;

  const remote = await start([worker("gateway-remote", remoteGw, { bindings: { ...remoteGw.vars, UPSTREAM_URL: proxyUrl } })]);
  running.push(remote);
  const service = await start([
    worker("gateway-service", serviceGw, { serviceBindings: { ADDER: { name: "adder", entrypoint: "Adder" } } }),
    worker("adder", adder),
  ]);
  running.push(service);
  const sides = { remote, service };
  const agents = { remote: new http.Agent({ keepAlive: true, maxSockets: 1 }), service: new http.Agent({ keepAlive: true, maxSockets: 1 }) };

  // List caching: the first tools/list builds the server (one upstream list); the second must not reach it.
  await listTools(remote.url, agents.remote);
  const lists = reached.filter((method) => method === "tools/list").length;
  await listTools(remote.url, agents.remote);
  const secondReached = reached.filter((method) => method === "tools/list").length > lists;
  log(`bench:remote: upstream methods after two tools/list: ${JSON.stringify(reached)}`);

  for (const name of Object.keys(sides)) for (let i = 0; i < WARMUP; i++) await callAdd(sides[name].url, agents[name]);
  const total = { remote: { ns: 0, calls: 0 }, service: { ns: 0, calls: 0 } };
  const perRound = [];
  for (let round = 0; round < ROUNDS; round++) {
    const own = { remote: { ns: 0, calls: 0 }, service: { ns: 0, calls: 0 } };
    for (let turn = 0; turn * BATCH < REQUESTS; turn++) {
      const order = (round + turn) % 2 === 0 ? ["remote", "service"] : ["service", "remote"];
      for (const name of order) {
        const { url, pid } = sides[name];
        const start = cpuNs(pid);
        for (let i = 0; i < BATCH; i++) await callAdd(url, agents[name]);
        own[name].ns += cpuNs(pid) - start;
        own[name].calls += BATCH;
      }
    }
    for (const name of Object.keys(own)) {
      total[name].ns += own[name].ns;
      total[name].calls += own[name].calls;
    }
    perRound.push(own.remote.ns / own.remote.calls / (own.service.ns / own.service.calls));
    log(`bench:remote: round ${round + 1}: ratio ${perRound.at(-1).toFixed(2)}`);
  }
  const us = (side) => side.ns / side.calls / 1000;
  const ratio = us(total.remote) / us(total.service);
  console.log("| gateway | workerd CPU µs/call |");
  console.log("|---|---|");
  console.log(`| remoteServers() (HTTP to an MCP server) | ${us(total.remote).toFixed(1)} |`);
  console.log(`| toolServices() (RPC, service included) | ${us(total.service).toFixed(1)} |`);
  console.log(`ratio per round: ${perRound.map((r) => r.toFixed(2)).join(", ")}`);
  console.log(
    `remote: cpu_ratio=${ratio.toFixed(2)} remote_us=${us(total.remote).toFixed(1)} service_us=${us(total.service).toFixed(1)} second_list_reached_upstream=${secondReached ? "yes" : "no"}`,
  );
} finally {
  for (const { mf } of running.reverse()) await mf.dispose().catch(() => {});
  proxy?.close();
  rmSync(work, { recursive: true, force: true });
}
