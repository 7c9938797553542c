// The bench's observe runs (`node test/bench/run.mjs --observe-only`; README.md, "Observe runs"): workerd CPU
// per 2026-07-28 tools/call add(2, 3) of the demo's server without observability() (absent), with it and
// nothing configured (off), with OTLP export to a local sink (exporter: OTEL_EXPORTER_OTLP_ENDPOINT), the same with
// head sampling at 10 % (sampled: OTEL_TRACES_SAMPLER=parentbased_traceidratio, OTEL_TRACES_SAMPLER_ARG=0.1), and
// with usage metering (metering: MCP_USAGE bound, miniflare's Analytics Engine); and each one's bundle.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { interleave, pairedRatio, sumBatches } from "./paired.mjs";

/** The _meta and headers of a 2026-07-28 tools/call add, as the observe runs and gc-deopt.mjs send it. */
export const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
export const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "add",
};
const TARGETS = { off: 1.02, exporter: 1.15, sampled: 1.15, metering: 1.05 };

/** A local OTLP/HTTP sink: counts the export requests, their spans and bytes, answers 200 at once. */
function startSink() {
  const seen = { requests: 0, spans: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      seen.bytes += body.length;
      seen.requests++;
      for (const resource of JSON.parse(body.toString("utf8")).resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? []) seen.spans += scope.spans?.length ?? 0;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ seen, url: `http://127.0.0.1:${server.address().port}`, server })));
}

export async function runObserve(h, workDir) {
  const { expect, parseJson, fmt, median, log, table, post } = h;
  const rounds = h.rounds;
  const requests = h.requests;
  execFileSync("npm", ["run", "build"], { cwd: h.ROOT, stdio: "pipe" });
  // A copy of the config with absolute paths (wrangler resolves [alias] from the working directory).
  const dir = join(h.ROOT, "test/bench/observe");
  const config = join(workDir, "observe.toml");
  writeFileSync(
    config,
    readFileSync(join(dir, "wrangler.toml"), "utf8")
      .replace(/^main = "([^"]+)"$/m, (_, main) => `main = ${JSON.stringify(join(dir, main))}`)
      .replace(/^("edge-mcp(?:\/workers)?") = "([^"]+)"$/gm, (_, name, path) => `${name} = ${JSON.stringify(join(dir, path))}`),
  );
  const [absent, observed] = await Promise.all([
    h.bundle("observe-absent", config, workDir, [join(h.ROOT, "test/bench/observe/absent/index.ts")]),
    h.bundle("observe-observed", config, workDir),
  ]);
  // The ES module build of @opentelemetry/api, as wrangler picks it only when told (WRANGLER_BUILD_CONDITIONS).
  process.env.WRANGLER_BUILD_CONDITIONS = "workerd,worker,browser,module";
  const esm = await h.bundle("observe-esm", config, workDir).finally(() => delete process.env.WRANGLER_BUILD_CONDITIONS);
  const sink = await startSink();
  sink.server.unref(); // a failed run must not hang on it
  const variants = [
    { name: "absent", bundle: absent, extra: {} },
    { name: "off", bundle: observed, extra: {} },
    { name: "exporter", bundle: observed, extra: { bindings: { ...observed.vars, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: "bench" } } },
    // The exporter as a Worker under load runs it: head sampling, parent-based, 10 % of new traces (the bench's calls carry none).
    {
      name: "sampled",
      bundle: observed,
      extra: {
        bindings: {
          ...observed.vars,
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          OTEL_SERVICE_NAME: "bench",
          OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
          OTEL_TRACES_SAMPLER_ARG: "0.1",
        },
      },
    },
    { name: "metering", bundle: observed, extra: { analyticsEngineDatasets: { MCP_USAGE: { dataset: "edge_mcp_usage" } } } },
  ];
  let nextId = 1;
  const call = async (base, agent) => {
    const id = nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 }, _meta: META } });
    const res = await post(base, agent, HEADERS, body);
    expect(res.status === 200, `tools/call add: HTTP ${res.status}`, res.text.slice(0, 300));
    const msg = parseJson(res.text, "tools/call add");
    expect(msg.id === id && msg.result?.structuredContent?.sum === 5, "tools/call add: result", msg);
  };
  const sequential = async (n, one) => {
    for (let i = 0; i < n; i++) await one();
    return { count: n };
  };

  const perRound = [];
  const pairsOf = { off: [], exporter: [], sampled: [], metering: [] }; // per round: [{ a: absent batch, b: variant batch }]
  let busiest = 0;
  const othersTurns = [];
  const sizes = h.batchSizes(requests);
  for (let round = 0; round < rounds; round++) {
    // All four up at once on fresh workerds, booted in rotating order; then they take turns in batches.
    const order = variants.map((_, k) => variants[(k + round) % variants.length]);
    const up = new Map();
    try {
      for (const variant of order) {
        const spansBefore = sink.seen.spans;
        const worker = await h.startWorker(variant.bundle, undefined, variant.extra);
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        up.set(variant.name, { worker, pids: h.processTree(worker.pid) });
        await sequential(1500, () => call(worker.base, agent)).finally(() => agent.destroy());
        if (variant.name === "exporter") {
          // The spans leave after the answers (waitUntil, in windows): the sink must receive both of each call
          // (the demo has no authorizer or rate limiter: admission is an attribute, not a span), the boot probe's included.
          const expected = 2 * 1501;
          for (let i = 0; i < 250 && sink.seen.spans - spansBefore < expected; i++) await new Promise((done) => setTimeout(done, 20));
          expect(sink.seen.spans - spansBefore === expected, "exporter: the sink received every call's spans (server, tool)", sink.seen.spans - spansBefore);
        }
        if (variant.name === "sampled") {
          // About a tenth of the calls' spans: between 5 % and 15 % of them (1,501 draws).
          for (let i = 0; i < 250 && sink.seen.spans - spansBefore < 2 * 75; i++) await new Promise((done) => setTimeout(done, 20));
          // The last window's export, so that no span of this variant is counted for the next one.
          await new Promise((done) => setTimeout(done, 1200));
          const share = (sink.seen.spans - spansBefore) / (2 * 1501);
          expect(share >= 0.05 && share <= 0.15, "sampled: the sink received the spans of about 10 % of the calls", share);
        }
      }
      const sides = new Map(order.map((v) => [v.name, { pids: up.get(v.name).pids }]));
      await h.awaitQuiet([...sides.values()].flatMap((side) => side.pids));
      const m = await interleave({
        sides,
        turns: sizes.length,
        // A new keep-alive connection per batch (the same for every variant): workerd may close one that
        // idled while the others took their turns, and a request racing that close would fail.
        run: (name, turn) => {
          const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
          return sequential(sizes[turn], () => call(up.get(name).worker.base, agent)).finally(() => agent.destroy());
        },
        cpuOf: h.cpuOf,
        snapshot: h.snapshot,
        otherCores: h.otherCores,
      });
      busiest = Math.max(busiest, ...m.others);
      othersTurns.push(...m.others);
      const r = {};
      for (const v of variants) {
        const sum = sumBatches(m.batches.get(v.name));
        r[v.name] = sum.ns / sum.count / 1000;
      }
      const cpu = ({ ns, count }) => ({ ns, count });
      for (const key of Object.keys(pairsOf)) pairsOf[key].push(m.batches.get("absent").map((a, i) => ({ a: cpu(a), b: cpu(m.batches.get(key)[i]) })));
      perRound.push(r);
      log(`bench: observe round ${round + 1}/${rounds}: ${variants.map((v) => `${v.name} ${fmt(r[v.name])} µs`).join(", ")}`);
    } finally {
      await h.stopWorker();
    }
  }
  sink.server.close();

  const col = (key) => median(perRound.map((r) => r[key]));
  // Σvariant/Σabsent over every turn's pair of batches, its bootstrap interval, and each round's own.
  const paired = Object.fromEntries(Object.keys(pairsOf).map((key) => [key, pairedRatio(pairsOf[key])]));
  const kib = (b) => (b.gzipBytes / 1024).toFixed(1);
  const rows = [
    ["2026-07-28 tools/call add", "", "workerd CPU µs", "vs absent", "95 % interval", "95 %, rounds too", "rounds min..max", "target", "bundle gzip KiB"],
    ["absent (no observability())", "", fmt(col("absent")), "1.000", "-", "-", "-", "-", kib(absent)],
    ...["off", "exporter", "sampled", "metering"].map((key) => [
      {
        off: "off (observability(), nothing set)",
        exporter: "exporter (OTLP to a local sink)",
        sampled: "exporter, head sampling at 10 %",
        metering: "metering (MCP_USAGE bound)",
      }[key],
      "",
      fmt(col(key)),
      paired[key].ratio.toFixed(3),
      `${paired[key].low.toFixed(3)}..${paired[key].high.toFixed(3)}`,
      `${paired[key].roundsLow.toFixed(3)}..${paired[key].roundsHigh.toFixed(3)}`,
      `${Math.min(...paired[key].perRound).toFixed(2)}..${Math.max(...paired[key].perRound).toFixed(2)}`,
      `≤ ${TARGETS[key].toFixed(2)}`,
      kib(observed),
    ]),
  ];
  const verdict = (key) => `${key}_ratio=${paired[key].ratio.toFixed(3)}`;
  const text = [
    `edge-mcp observe runs: ${rounds} round(s), the five variants up together on fresh workerds each round, ${requests} sequential calls each after 1,500 warm-up,`,
    `in ${sizes.length} turns of batches of ~${Math.round(requests / sizes.length)} (every variant in turn, order reversed every other turn); ` +
      `ratio = Σvariant/Σabsent over every turn, 95 % bootstrap intervals over turns within rounds, and over rounds too; ${h.pinned()}`,
    `(the exporter sends the spans of each 1 s window (at most 512) in one OTLP/HTTP JSON request after the answers; the sink received ` +
      `${sink.seen.spans} spans in ${sink.seen.requests} requests, ${(sink.seen.bytes / 1024).toFixed(0)} KiB)`,
    "",
    table(rows),
    "",
    `bundle: observability() adds ${((observed.gzipBytes - absent.gzipBytes) / 1024).toFixed(1)} KiB gzip; with @opentelemetry/api's ES module build ` +
      `(WRANGLER_BUILD_CONDITIONS=workerd,worker,browser,module) ${((esm.gzipBytes - absent.gzipBytes) / 1024).toFixed(1)} KiB`,
    ...(busiest >= h.NOISY_CORES
      ? [
          "",
          `note: other processes kept up to ${busiest.toFixed(2)} cores busy during a measurement ` +
            `(${(othersTurns.reduce((a, b) => a + b, 0) / othersTurns.length).toFixed(2)} on average over the turns); the numbers are skewed, the ratios pulled towards 1 (README: How ratios are compared).`,
        ]
      : []),
    "",
    `observe: ${verdict("off")} ${verdict("exporter")} ${verdict("sampled")} ${verdict("metering")} off_kib=${((observed.gzipBytes - absent.gzipBytes) / 1024).toFixed(1)}`,
  ].join("\n");
  return { text };
}
