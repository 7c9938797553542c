#!/usr/bin/env node
// `npm run bench:gc-deopt`: which optimised functions of the demo's call path (`--observe exporter`: of the observe runs' OTLP exporter) a major GC throws away ("embedded
// weak objects cleared"), from V8's own traces on the bench's workerd. Exits 1 when the first major GC drops more
// than --max of them. No timing: it only reads the traces. See test/bench/README.md ("GC and deoptimisation").
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchWorkerd, freePort } from "./bench-workerd.mjs";
import { bundle, checkBuiltFromDist, distDemoConfig, ROOT, runCommand } from "./bundling.mjs";
import { capnpConfig } from "./callgrind.mjs";
import { HEADERS, META } from "./observe.mjs";

const { values: opt } = parseArgs({
  options: {
    calls: { type: "string", default: "40000" }, // most 2026-07-28 calls; it stops 2,000 calls after the --gcs-th major GC
    max: { type: "string", default: "0" }, // functions the first major GC may deoptimise
    gcs: { type: "string", default: "1" }, // major GCs to wait for before the last 2,000 calls
    keep: { type: "boolean", default: false }, // keep the temporary directory (trace.log, v8.log with --log-maps)
    "log-maps": { type: "boolean", default: false }, // V8's map log (v8.log): the maps re-created after the GC died in it
    observe: { type: "string", default: "" }, // "exporter": test/bench/observe's observed Worker exporting OTLP to a local sink, not the demo
  },
});
const WEAK = /\[marking dependent code .*?<SharedFunctionInfo ?([^>]*)>.*reason: embedded weak objects cleared\]/;
const MAJOR = /: Mark-Compact /;

if (!["", "exporter"].includes(opt.observe)) throw new Error(`--observe takes exporter, got ${opt.observe}`);

/** The observe runs' Worker with observability() (test/bench/observe.mjs), unminified, bundled against dist/. */
async function observedBundle(workDir) {
  await runCommand("npm", ["run", "build"], ROOT);
  const dir = join(ROOT, "test/bench/observe");
  const config = join(workDir, "observe.toml");
  writeFileSync(
    config,
    readFileSync(join(dir, "wrangler.toml"), "utf8")
      .replace(/^minify = true$/m, "minify = false")
      .replace(/^main = "([^"]+)"$/m, (_, main) => `main = ${JSON.stringify(join(dir, main))}`)
      .replace(/^("edge-mcp(?:\/workers)?") = "([^"]+)"$/gm, (_, name, path) => `${name} = ${JSON.stringify(join(dir, path))}`),
  );
  return bundle("observe-observed", config, workDir);
}

/** A local OTLP/HTTP sink that answers 200 to every export; counts the requests. */
function startSink() {
  const seen = { requests: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.requests++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done({ seen, server, url: `http://127.0.0.1:${server.address().port}` })));
}

const workDir = mkdtempSync(join(tmpdir(), "edge-mcp-gc-deopt-"));
let child;
let sink;
try {
  let demo;
  let vars = {};
  if (opt.observe === "exporter") {
    demo = await observedBundle(workDir);
    sink = await startSink();
    vars = { ...demo.vars, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: "gc-deopt" };
  } else {
    // The demo as the benches build it, unminified so that the traces name its functions.
    const configPath = await distDemoConfig(workDir);
    writeFileSync(configPath, readFileSync(configPath, "utf8").replace(/^minify = true$/m, "minify = false"));
    demo = await bundle("demo", configPath, workDir);
  }
  checkBuiltFromDist(demo);
  const dir = join(workDir, "run");
  mkdirSync(join(dir, "bundle"), { recursive: true });
  cpSync(demo.scriptPath, join(dir, "bundle/index.js"));
  const port = await freePort();
  const flags = ["--trace-gc", "--trace-deopt-verbose"];
  if (opt["log-maps"]) flags.push("--log-maps", "--log-maps-details", `--logfile=${join(dir, "v8.log")}`, "--no-logfile-per-isolate");
  let capnp = capnpConfig({ ...demo, vars: { ...demo.vars, ...vars }, port, v8Flags: flags });
  // workerd's default outbound reaches public addresses only; the sink listens on the loopback.
  if (sink)
    capnp = capnp.replace(
      '(name = "main", worker = .worker) ]',
      '(name = "main", worker = .worker), (name = "internet", network = (allow = ["public", "local"])) ]',
    );
  writeFileSync(join(dir, "config.capnp"), capnp);
  // stdbuf: V8 prints its traces with stdio, which would hold them in a buffer while workerd runs.
  child = spawn("stdbuf", ["-oL", benchWorkerd(), "serve", "config.capnp"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const gcs = []; // per major GC: the functions it deoptimised
  let pending = [];
  let trace = "";
  const read = (d) => {
    trace += d;
    const lines = trace.split("\n");
    trace = lines.pop() ?? "";
    for (const line of lines) {
      const weak = WEAK.exec(line);
      if (weak) pending.push(weak[1] || "(anonymous)");
      else if (MAJOR.test(line)) gcs.push(pending.splice(0));
    }
  };
  child.stdout.on("data", read);
  child.stderr.on("data", read);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 }, _meta: META } });
  const call = () =>
    new Promise((done, fail) => {
      const headers = { ...HEADERS, "content-length": Buffer.byteLength(body) };
      const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers }, (res) => {
        let t = "";
        res.on("data", (d) => (t += d));
        res.on("end", () => (res.statusCode === 200 && t.includes('"sum":5') ? done() : fail(new Error(`HTTP ${res.statusCode}: ${t.slice(0, 300)}`))));
      });
      req.on("error", fail);
      req.end(body);
    });
  for (let t = 0; ; t++) {
    try {
      await call();
      break;
    } catch (e) {
      if (t > 150 || e.code !== "ECONNREFUSED") throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  let calls = 0;
  let after;
  for (; calls < Number(opt.calls) && (after === undefined || calls < after); calls++) {
    await call();
    if (after === undefined && gcs.length >= Number(opt.gcs)) after = calls + 2000;
  }
  agent.destroy();
  if (gcs.length === 0) throw new Error(`no major GC in ${calls} calls: raise --calls`);
  gcs.forEach((names, i) =>
    console.log(`major GC ${i + 1}: ${names.length} deoptimised (embedded weak objects cleared)${names.length > 0 ? `: ${names.sort().join(", ")}` : ""}`),
  );
  if (sink) {
    if (sink.seen.requests === 0) throw new Error("the exporter sent nothing to the sink");
    console.log(`exporter: the sink received ${sink.seen.requests} OTLP requests`);
  }
  console.log(`gc-deopt: first_major_gc=${gcs[0].length} calls=${calls}`);
  if (gcs[0].length > Number(opt.max)) process.exitCode = 1;
} finally {
  child?.kill("SIGTERM");
  sink?.server.close();
  if (opt.keep) console.error(`gc-deopt: kept ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });
}
