// The bench's scale runs (run.mjs calls runScale after the main rounds; --scale-only, --no-scale):
// a registry of 10 vs 10,000 tools (tools/list first page, tools/call of the last tool, boot),
// a 1 MiB against a 64 KiB tool result, and 64 SSE streams at once against one at a time.
// The Worker is test/bench/scale (bundled once per registry size with --define TOOL_COUNT:<n>).
// Same workerd CPU accounting as the main rounds. What is measured and how: README.md, "Scale runs".
import http from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import net from "node:net";

/** A port free on 127.0.0.1 right now (for workerd's inspector). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Seconds since `started` (a performance.now() time), for progress lines. */
const elapsedS = (started, digits = 0) => ((performance.now() - started) / 1000).toFixed(digits);
const TARGET_RATIO = 1.2; // tools/list page and tools/call dispatch with the most tools, against the fewest
const FIXED_TOOLS = ["big", "big_64k", "stream"]; // test/bench/scale/src/tools.ts, before the generated tools
const BIG = { name: "big", bytes: 1024 * 1024, calls: 64 };
const BIG_64K = { name: "big_64k", bytes: 64 * 1024, calls: 1024 };
const STREAMS = 64; // at once
const STREAM_EVENTS = 20; // progress events per stream
const STREAM_DELAY_MS = 2; // between events, in the tool (a timer: each event leaves in its own turn)
const SINGLE_STREAMS = 32; // one at a time, for the 1-stream figures
const BURSTS = 4; // of STREAMS at once
const SEARCH_TOOLS = ["search_tools", "describe_tools", "call_tool"]; // tool search is on: listed first
const MAX_PAGES = 32; // the runtime's default bound on pages per list
const FIRST_CALLS = 200; // distinct tools called for the first time (validators built on first call), at most
const SEARCH_TARGET_US = 1000; // search_tools workerd CPU per call at the largest size
const BOOT_TARGET = 2; // boot of the largest registry against the smallest

// ---------------------------------------------------------------------------------------------
// What the scale Worker answers (kept in step with test/bench/scale/src/tools.ts).

const toolName = (i) => `tool_${String(i).padStart(5, "0")}`;
const toolNames = (n) => [...SEARCH_TOOLS, ...FIXED_TOOLS, ...Array.from({ length: n - FIXED_TOOLS.length }, (_, i) => toolName(i))];
const lastTool = (n) => toolName(n - FIXED_TOOLS.length - 1);
/** search_tools queries: words every generated tool has (the worst case: all match), and the last tool's exact name. */
const searchQueries = (n) => ({ broad: "adds the sum", exact: lastTool(n) });

function blobText(bytes) {
  const lines = [];
  for (let i = 0, n = 0; n < bytes; i++, n += 64)
    lines.push(`row ${String(i).padStart(6, "0")}: "edge-mcp scale bench", value=${String((i * 7919) % 100000).padStart(5, "0")};\n`.padStart(64, " "));
  return lines.join("").slice(0, bytes);
}

// ---------------------------------------------------------------------------------------------
// HTTP: one POST, with the time of its first body byte (SSE: the first event).

function request(base, agent, headers, body) {
  return new Promise((resolvePost, reject) => {
    const t0 = performance.now();
    let firstMs;
    const req = http.request(
      { host: base.hostname, port: base.port, path: "/mcp", method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => {
          firstMs ??= performance.now() - t0;
          chunks.push(chunk);
        });
        res.on("end", () =>
          resolvePost({
            status: res.statusCode,
            contentType: res.headers["content-type"],
            text: Buffer.concat(chunks).toString("utf8"),
            firstMs,
            endMs: performance.now() - t0,
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error("request timed out after 10 s")));
    req.on("error", reject);
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// The measurements.

export async function runScale(h, workDir) {
  const { REVISIONS, isModern, WrongAnswer, expect, parseJson, isObject, fmt, median, percentile, log } = h;
  const sizes = h.sizes;
  const small = sizes[0];
  const started = performance.now();
  let nextId = 1;
  let busiest = 0; // other processes' cores during a measurement, at most

  const params = (rev, p, meta) => {
    const out = rev.params(p);
    return meta === undefined ? out : { ...out, _meta: { ...(out._meta ?? {}), ...meta } };
  };
  const listRequest = (rev, id, cursor) => ({
    headers: rev.headers("tools/list"),
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: params(rev, cursor === undefined ? {} : { cursor }) }),
  });
  const callRequest = (rev, id, name, args, meta) => ({
    headers: rev.headers("tools/call", name),
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: params(rev, { name, arguments: args }, meta) }),
  });
  const searchRequest = (rev, id, query) => callRequest(rev, id, "search_tools", { query });

  /** A JSON answer's result, envelope and revision fields checked. */
  function resultOf(rev, what, id, res) {
    what = `${rev.name} ${what} (id ${id})`;
    expect(res.status === 200, `${what}: HTTP ${res.status}`, res.text.slice(0, 300));
    expect(/^application\/json\b/.test(res.contentType ?? ""), `${what}: content-type ${res.contentType}`);
    const msg = parseJson(res.text, what);
    expect(msg.jsonrpc === "2.0" && msg.id === id && !("error" in msg) && isObject(msg.result), `${what}: envelope`, msg);
    checkRevisionFields(rev, what, msg.result);
    return msg.result;
  }
  function checkRevisionFields(rev, what, result) {
    if (isModern(rev)) {
      expect(result.resultType === "complete", `${what}: resultType`, result.resultType);
      const info = result._meta?.["io.modelcontextprotocol/serverInfo"];
      expect(isObject(info) && info.name === "edge-mcp-bench-scale", `${what}: _meta serverInfo`, result._meta);
    } else {
      expect(result.resultType === undefined && result._meta === undefined, `${what}: 2025 answers carry no resultType/_meta`, Object.keys(result));
    }
  }
  /** The expected bytes of every later answer, from one that passed its check: the same with another id. */
  function template(rev, what, id, res) {
    const parts = res.text.split(`"id":${id},`);
    expect(parts.length === 2, `${rev.name} ${what}: answer must hold "id":${id}, exactly once`, res.text.slice(0, 300));
    return { prefix: `${parts[0]}"id":`, suffix: `,${parts[1]}`, bytes: Buffer.byteLength(res.text) };
  }

  function checkCall(rev, n, id, res) {
    checkCallOf(rev, lastTool(n), id, res);
  }
  function checkCallOf(rev, name, id, res) {
    const result = resultOf(rev, `tools/call ${name}`, id, res);
    const { content, structuredContent, resultType, _meta, ...rest } = result;
    expect(isDeepStrictEqual(content, [{ type: "text", text: `${name}: 2 + 3 = 5` }]), `${rev.name} tools/call ${name}: content`, content);
    expect(isDeepStrictEqual(structuredContent, { sum: 5 }), `${rev.name} tools/call ${name}: structuredContent`, structuredContent);
    expect(Object.keys(rest).length === 0, `${rev.name} tools/call ${name}: unexpected result keys`, Object.keys(rest));
  }

  /** A search_tools answer: "N of M tools matched" first, the same numbers and tools in structuredContent. */
  function checkSearch(rev, n, query, id, res) {
    const what = `search_tools ${JSON.stringify(query)} of ${n} tools`;
    const result = resultOf(rev, what, id, res);
    const sc = result.structuredContent;
    expect(
      isObject(sc) && sc.total === n && sc.matched >= 1 && Array.isArray(sc.tools) && sc.tools.length === Math.min(10, sc.matched),
      `${rev.name} ${what}: structuredContent`,
      sc,
    );
    expect(
      result.content?.[0]?.text?.startsWith(`${sc.matched} of ${n} tools matched ${JSON.stringify(query)}`),
      `${rev.name} ${what}: text`,
      result.content?.[0]?.text?.slice(0, 80),
    );
    return sc;
  }

  /** Walks every tools/list page once, checking each; returns per-page request builders and templates. */
  async function walkAndCheck(base, rev, n) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const names = toolNames(n);
    const pages = [];
    let cursor;
    let seen = 0;
    try {
      for (let page = 0; ; page++) {
        const id = nextId++;
        const res = await request(base, agent, ...Object.values(listRequest(rev, id, cursor)));
        const what = `tools/list page ${page + 1} of ${n} tools`;
        const result = resultOf(rev, what, id, res);
        // Pages are bounded by bytes: each must hold the next tools in order, and the last must end the list.
        const got = Array.isArray(result.tools) ? result.tools.map((t) => t?.name) : result.tools;
        const want = names.slice(seen, seen + (got?.length ?? 0));
        expect(got?.length > 0 && isDeepStrictEqual(got, want), `${rev.name} ${what}: tool names`, { got: got?.slice?.(0, 5), want: want.slice(0, 5) });
        for (const tool of result.tools) expect(tool.inputSchema?.type === "object", `${rev.name} ${what}: ${tool.name} inputSchema`, tool);
        seen += got.length;
        const more = seen < names.length;
        expect(more ? typeof result.nextCursor === "string" : result.nextCursor === undefined, `${rev.name} ${what}: nextCursor`, result.nextCursor);
        if (isModern(rev))
          expect(typeof result.ttlMs === "number" && typeof result.cacheScope === "string", `${rev.name} ${what}: ttlMs/cacheScope`, Object.keys(result));
        pages.push({ cursor, template: template(rev, what, id, res) });
        if (!more) break;
        cursor = result.nextCursor;
      }
    } finally {
      agent.destroy();
    }
    expect(pages.length <= MAX_PAGES, `${rev.name} tools/list: ${pages.length} pages for ${n} tools, more than ${MAX_PAGES}`);
    return pages;
  }

  /** `count` requests one after the other on one keep-alive connection; each answer must equal its template. */
  async function sequential(base, count, next) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const t0 = performance.now();
    try {
      for (let i = 0; i < count; i++) {
        const id = nextId++;
        const { headers, body, template: t, what } = next(i, id);
        const res = await request(base, agent, headers, body);
        if (res.status !== 200 || res.text !== t.prefix + id + t.suffix) {
          throw new WrongAnswer(`${what} (id ${id}): HTTP ${res.status}, answer differs from the checked one: ${res.text.slice(0, 300)}`);
        }
      }
    } finally {
      agent.destroy();
    }
    return { count, seconds: (performance.now() - t0) / 1000 };
  }

  /** Requests one after the other whose answers differ (each its own tool): `check(id, res)` checks each. */
  async function checkedSequential(base, count, make) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const t0 = performance.now();
    try {
      for (let i = 0; i < count; i++) {
        const id = nextId++;
        const { headers, body, check } = make(i, id);
        check(id, await request(base, agent, headers, body));
      }
    } finally {
      agent.destroy();
    }
    return { count, seconds: (performance.now() - t0) / 1000 };
  }

  /** Like `measured`, for work that cannot be redone (a first call, a first search): measured once, after quiet. */
  async function measuredOnce(pids, units, fn) {
    const m = await h.once(pids, fn);
    busiest = Math.max(busiest, m.others);
    return { value: m.value, cpuUs: (m.s1.workerd.schedNs - m.s0.workerd.schedNs) / units / 1000, seconds: (m.s1.t - m.s0.t) / 1000 };
  }

  /** Runs `fn` as one quiet measurement; workerd CPU µs per unit of work and the wall seconds. */
  async function measured(pids, units, fn) {
    const m = await h.quietly(pids, fn);
    busiest = Math.max(busiest, m.others);
    return {
      value: m.value,
      cpuUs: (m.s1.workerd.schedNs - m.s0.workerd.schedNs) / units / 1000,
      seconds: (m.s1.t - m.s0.t) / 1000,
    };
  }

  /**
   * `count` requests per revision in two halves, revisions alternating (2025, 2026, 2025, 2026): a
   * full GC lands in one window, and whichever revision came second would otherwise always get it.
   * Resolves with workerd CPU µs per request and req/s (c=1) for each revision.
   */
  async function interleaved(base, pids, count, nextByRev) {
    const sums = Object.fromEntries(REVISIONS.map((rev) => [rev.name, { cpuUs: 0, seconds: 0, count: 0 }]));
    for (const half of [Math.ceil(count / 2), Math.floor(count / 2)]) {
      for (const rev of REVISIONS) {
        const m = await measured(pids, half, () => sequential(base, half, nextByRev[rev.name]));
        const sum = sums[rev.name];
        sum.cpuUs += m.cpuUs * half;
        sum.seconds += m.value.seconds;
        sum.count += half;
      }
    }
    return Object.fromEntries(Object.entries(sums).map(([rev, sum]) => [rev, { cpuUs: sum.cpuUs / sum.count, rps: sum.count / sum.seconds }]));
  }

  const rssMiB = (pids) => {
    let kib = 0;
    for (const pid of pids) {
      try {
        kib += Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      } catch {
        // ended
      }
    }
    return kib / 1024;
  };

  /** First answer of a scale Worker: a 2025-11-25 tools/list first page (checked after the boot clock stops). */
  const listProbe = (n) => async (base, agent) => {
    const rev = REVISIONS[0];
    const id = nextId++;
    const res = await request(base, agent, ...Object.values(listRequest(rev, id)));
    return () => {
      const result = resultOf(rev, `boot tools/list of ${n} tools`, id, res);
      expect(
        isDeepStrictEqual(
          result.tools?.slice(0, 3).map((t) => t.name),
          SEARCH_TOOLS,
        ),
        `boot tools/list of ${n} tools: the search tools first`,
        result.tools?.slice(0, 3),
      );
    };
  };

  // --- one registry size: boot, tools/list, tools/call of the last tool ------------------------
  async function measureRegistry(b, n) {
    const worker = await h.startWorker(b, listProbe(n));
    const pids = () => h.processTree(worker.pid);
    const out = { bootMs: worker.bootMs, readyMs: worker.readyMs, bootCpuMs: worker.bootCpuMs, bootRssMiB: rssMiB(pids()), revs: {} };
    // Calls first, before any list traffic: full list pages (~50 KiB answers; the check below walks
    // all 100 pages at 10,000 tools) grow workerd's old generation (README.md, "Scale runs"), and the
    // full GC that follows marks the whole registry, which would bill the calls after it.
    // Each kind has its own warm-up (JIT, connections), discarded.
    const calls = {};
    for (const rev of REVISIONS) {
      const id = nextId++;
      const res = await request(worker.base, new http.Agent({ keepAlive: false }), ...Object.values(callRequest(rev, id, lastTool(n), { a: 2, b: 3 })));
      checkCall(rev, n, id, res);
      const t = template(rev, `tools/call ${lastTool(n)}`, id, res);
      calls[rev.name] = {
        bytes: t.bytes,
        next: (i, id) => ({ ...callRequest(rev, id, lastTool(n), { a: 2, b: 3 }), template: t, what: `${rev.name} tools/call ${lastTool(n)}` }),
      };
    }
    for (const rev of REVISIONS) await sequential(worker.base, 500, calls[rev.name].next);
    const callRuns = await interleaved(worker.base, pids, h.requests, Object.fromEntries(REVISIONS.map((rev) => [rev.name, calls[rev.name].next])));
    for (const rev of REVISIONS) {
      out.revs[rev.name] = { callCpuUs: callRuns[rev.name].cpuUs, callRps: callRuns[rev.name].rps, callKiB: calls[rev.name].bytes / 1024 };
    }
    Object.assign(out, await measureFirstCalls(worker, pids, n));
    const lists = {};
    for (const rev of REVISIONS) {
      const pages = await walkAndCheck(worker.base, rev, n);
      lists[rev.name] = {
        pages,
        first: (i, id) => ({ ...listRequest(rev, id), template: pages[0].template, what: `${rev.name} tools/list of ${n} tools` }),
        walk: (i, id) => {
          const p = pages[i % pages.length];
          return { ...listRequest(rev, id, p.cursor), template: p.template, what: `${rev.name} tools/list page ${(i % pages.length) + 1} of ${n} tools` };
        },
      };
    }
    for (const rev of REVISIONS) await sequential(worker.base, 500, lists[rev.name].first);
    const listRuns = await interleaved(worker.base, pids, h.requests, Object.fromEntries(REVISIONS.map((rev) => [rev.name, lists[rev.name].first])));
    for (const rev of REVISIONS) {
      const p = lists[rev.name];
      // Every page in turn (cursors past the first), as many whole walks as make about requests/5 pages.
      const walkPages = Math.max(1, Math.round(h.requests / 5 / p.pages.length)) * p.pages.length;
      const walk = await measured(pids, walkPages, () => sequential(worker.base, walkPages, p.walk));
      const listKiB = p.pages.reduce((sum, page) => sum + page.template.bytes, 0) / 1024;
      Object.assign(out.revs[rev.name], {
        listCpuUs: listRuns[rev.name].cpuUs,
        listRps: listRuns[rev.name].rps,
        listKiB: p.pages[0].template.bytes / 1024,
        listCpuUsPerKiB: listRuns[rev.name].cpuUs / (p.pages[0].template.bytes / 1024),
        walkCpuUs: walk.cpuUs,
        pages: p.pages.length,
        // A client listing the whole catalogue: every page once, one after the other.
        allPagesKiB: listKiB,
        allPagesCpuMs: (walk.cpuUs * p.pages.length) / 1000,
        allPagesWallMs: (walk.value.seconds * 1000) / (walkPages / p.pages.length),
      });
    }
    Object.assign(out, await measureSearch(worker, pids, n));
    out.rssMiB = rssMiB(pids());
    await h.stopWorker();
    return out;
  }

  // --- first calls: a tool's validators are built on its first call ---------------------------
  /**
   * `k` tools never called before, one call each (each builds its validators), then the same `k`
   * again: workerd CPU µs per call of each. The last tool, which the call runs used, is left out.
   */
  async function measureFirstCalls(worker, pids, n) {
    const rev = REVISIONS[REVISIONS.length - 1];
    const k = Math.min(FIRST_CALLS, n - FIXED_TOOLS.length - 1);
    const make = (i, id) => ({ ...callRequest(rev, id, toolName(i), { a: 2, b: 3 }), check: (id, res) => checkCallOf(rev, toolName(i), id, res) });
    const first = await measuredOnce(pids, k, () => checkedSequential(worker.base, k, make));
    const later = await measured(pids, k, () => checkedSequential(worker.base, k, make));
    return { firstCalls: k, firstCallCpuUs: first.cpuUs, laterCallCpuUs: later.cpuUs };
  }

  // --- search_tools: the first builds the index; then CPU per call ------------------------------
  async function measureSearch(worker, pids, n) {
    const rev = REVISIONS[REVISIONS.length - 1];
    const queries = searchQueries(n);
    const out = {};
    const first = await measuredOnce(pids, 1, () =>
      checkedSequential(worker.base, 1, (i, id) => ({
        ...searchRequest(rev, id, queries.broad),
        check: (id, res) => checkSearch(rev, n, queries.broad, id, res),
      })),
    );
    out.firstSearchCpuMs = first.cpuUs / 1000;
    for (const [kind, query] of Object.entries(queries)) {
      const id = nextId++;
      const res = await request(worker.base, new http.Agent({ keepAlive: false }), ...Object.values(searchRequest(rev, id, query)));
      const sc = checkSearch(rev, n, query, id, res);
      if (kind === "exact") expect(sc.tools[0]?.name === lastTool(n), `${rev.name} search_tools ${query}: the tool named first`, sc.tools.slice(0, 2));
      const t = template(rev, `search_tools ${query}`, id, res);
      const next = (i, id) => ({ ...searchRequest(rev, id, query), template: t, what: `${rev.name} search_tools ${JSON.stringify(query)}` });
      await sequential(worker.base, 100, next); // warm-up
      const count = Math.max(100, Math.round(h.requests / 4));
      const m = await measured(pids, count, () => sequential(worker.base, count, next));
      out[`search_${kind}_CpuUs`] = m.cpuUs;
      out[`search_${kind}_Matched`] = sc.matched;
    }
    return out;
  }

  // --- heap: V8's own figure, through the inspector ----------------------------------------------
  /**
   * On a fresh workerd with its inspector on: boot to a first `ping` (module load and nothing
   * else), then the V8 heap in use after a garbage collection, at boot, after a client listed every
   * page, and after the first search (the index). The collection runs when the isolate next works,
   * so each reading sends a `ping` to give it a turn.
   */
  async function measureHeap(b, n) {
    const rev = REVISIONS[0];
    const ping = async (base) => {
      const id = nextId++;
      const res = await request(base, new http.Agent({ keepAlive: false }), rev.headers("ping"), JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }));
      return () => expect(res.status === 200 && isDeepStrictEqual(parseJson(res.text, "ping").result, {}), `ping of ${n} tools`, res.text.slice(0, 200));
    };
    const port = await freePort();
    const worker = await h.startWorker(b, ping, { inspectorPort: port });
    try {
      const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      const url = targets.find((t) => typeof t.webSocketDebuggerUrl === "string")?.webSocketDebuggerUrl;
      expect(url !== undefined, `heap of ${n} tools: an inspector target`, targets);
      const ws = new h.WebSocket(url);
      await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
      let seq = 0;
      const waiting = new Map();
      ws.on("message", (data) => {
        const message = JSON.parse(String(data));
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      });
      const send = (method) => new Promise((resolve) => (waiting.set(++seq, resolve), ws.send(JSON.stringify({ id: seq, method }))));
      const heapMiB = async () => {
        let done = false;
        const collected = send("HeapProfiler.collectGarbage").then(() => (done = true));
        // workerd reads inspector messages when the isolate next runs: give it turns until the GC is done.
        for (let tries = 0; !done; tries++) {
          expect(tries < 100, `heap of ${n} tools: the inspector did not answer HeapProfiler.collectGarbage`);
          (await ping(worker.base))();
          await Promise.race([collected, new Promise((resolve) => setTimeout(resolve, 100))]);
        }
        return (await send("Runtime.getHeapUsage")).result.usedSize / 2 ** 20;
      };
      const out = { pingBootMs: worker.bootMs, heapBootMiB: await heapMiB() };
      await walkAndCheck(worker.base, rev, n);
      out.heapListMiB = await heapMiB();
      const id = nextId++;
      const query = searchQueries(n).broad;
      checkSearch(rev, n, query, id, await request(worker.base, new http.Agent({ keepAlive: false }), ...Object.values(searchRequest(rev, id, query))));
      out.heapSearchMiB = await heapMiB();
      ws.close();
      return out;
    } finally {
      await h.stopWorker();
    }
  }

  /** Runs `fn(worker, pids)` on a fresh workerd, so that no earlier phase's heap state bills it. */
  async function onFreshWorker(b, n, fn) {
    const worker = await h.startWorker(b, listProbe(n));
    try {
      return await fn(worker, () => h.processTree(worker.pid));
    } finally {
      await h.stopWorker();
    }
  }

  // --- big results -------------------------------------------------------------------------------
  async function measureBig(worker, pids) {
    const out = {};
    for (const rev of REVISIONS) {
      for (const spec of [BIG_64K, BIG]) {
        const text = blobText(spec.bytes);
        const id = nextId++;
        const res = await request(worker.base, new http.Agent({ keepAlive: false }), ...Object.values(callRequest(rev, id, spec.name, {})));
        const result = resultOf(rev, `tools/call ${spec.name}`, id, res);
        const { content, resultType, _meta, ...rest } = result;
        expect(
          Array.isArray(content) && content.length === 1 && content[0]?.type === "text",
          `${rev.name} tools/call ${spec.name}: content`,
          content?.[0]?.type,
        );
        expect(
          content[0].text.length === spec.bytes && content[0].text === text,
          `${rev.name} tools/call ${spec.name}: text (${content[0].text.length} chars, want ${spec.bytes})`,
        );
        expect(Object.keys(rest).length === 0, `${rev.name} tools/call ${spec.name}: unexpected result keys`, Object.keys(rest));
        const t = template(rev, `tools/call ${spec.name}`, id, res);
        const next = (i, id) => ({ ...callRequest(rev, id, spec.name, {}), template: t, what: `${rev.name} tools/call ${spec.name}` });
        await sequential(worker.base, Math.max(4, spec.calls >> 3), next); // warm-up
        const m = await measured(pids, spec.calls, () => sequential(worker.base, spec.calls, next));
        const mib = (spec.bytes * spec.calls) / 2 ** 20;
        out[`${rev.name}:${spec.name}`] = {
          cpuUs: m.cpuUs,
          wallMs: (m.value.seconds * 1000) / spec.calls,
          mibPerS: mib / m.value.seconds,
          mibPerCpuS: mib / ((m.cpuUs * spec.calls) / 1e6),
          wireKiB: t.bytes / 1024,
        };
      }
    }
    return { big: out };
  }

  // --- SSE streams -------------------------------------------------------------------------------
  async function streamOnce(base, agent, rev) {
    const id = nextId++;
    const token = `p${id}`;
    const res = await request(
      base,
      agent,
      ...Object.values(callRequest(rev, id, "stream", { events: STREAM_EVENTS, delayMs: STREAM_DELAY_MS }, { progressToken: token })),
    );
    const what = `${rev.name} tools/call stream (id ${id})`;
    expect(res.status === 200, `${what}: HTTP ${res.status}`, res.text.slice(0, 300));
    expect(/^text\/event-stream\b/.test(res.contentType ?? ""), `${what}: content-type ${res.contentType} (want SSE)`);
    const events = res.text.split("\n\n").filter((e) => e !== "");
    expect(events.length === STREAM_EVENTS + 1, `${what}: ${events.length} SSE events, want ${STREAM_EVENTS} progress + 1 result`, res.text.slice(0, 300));
    const messages = events.map((e, i) => {
      const lines = e.split("\n");
      expect(lines[0] === "event: message" && lines.slice(1).every((l) => l.startsWith("data: ")), `${what}: SSE event ${i + 1}`, e.slice(0, 200));
      return parseJson(
        lines
          .slice(1)
          .map((l) => l.slice(6))
          .join("\n"),
        `${what}: SSE event ${i + 1}`,
      );
    });
    for (let k = 1; k <= STREAM_EVENTS; k++) {
      const m = messages[k - 1];
      expect(
        m.jsonrpc === "2.0" &&
          m.method === "notifications/progress" &&
          !("id" in m) &&
          isDeepStrictEqual(m.params, { progressToken: token, progress: k, total: STREAM_EVENTS, message: `step ${k}` }),
        `${what}: progress event ${k}`,
        m,
      );
    }
    const last = messages[STREAM_EVENTS];
    expect(last.jsonrpc === "2.0" && last.id === id && !("error" in last) && isObject(last.result), `${what}: result envelope`, last);
    const { content, resultType, _meta, ...rest } = last.result;
    expect(
      isDeepStrictEqual(content, [{ type: "text", text: `streamed ${STREAM_EVENTS} events` }]) && Object.keys(rest).length === 0,
      `${what}: result`,
      last.result,
    );
    checkRevisionFields(rev, what, last.result);
    return { firstMs: res.firstMs, endMs: res.endMs };
  }

  async function measureStreams(worker, pids) {
    const out = {};
    const n1 = SINGLE_STREAMS;
    const nMany = STREAMS * BURSTS;
    for (const rev of REVISIONS) {
      const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const many = new http.Agent({ keepAlive: true, maxSockets: STREAMS });
      try {
        // Warm-up and connections: a few alone, one burst.
        for (let i = 0; i < 4; i++) await streamOnce(worker.base, one, rev);
        await Promise.all(Array.from({ length: STREAMS }, () => streamOnce(worker.base, many, rev)));
        const single = await measured(pids, n1, async () => {
          const runs = [];
          for (let i = 0; i < n1; i++) runs.push(await streamOnce(worker.base, one, rev));
          return { runs, walls: runs.map((r) => r.endMs) };
        });
        const burst = await measured(pids, nMany, async () => {
          const runs = [];
          const walls = [];
          for (let b = 0; b < BURSTS; b++) {
            const t0 = performance.now();
            runs.push(...(await Promise.all(Array.from({ length: STREAMS }, () => streamOnce(worker.base, many, rev)))));
            walls.push(performance.now() - t0);
          }
          return { runs, walls };
        });
        const row = (m, streams) => ({
          wallMs: median(m.value.walls), // one stream alone; a burst of STREAMS
          cpuUsStream: m.cpuUs,
          cpuUsEvent: m.cpuUs / STREAM_EVENTS,
          eventsPerS: ((m.value.runs.length * STREAM_EVENTS) / m.value.walls.reduce((a, b) => a + b, 0)) * 1000,
          firstP50: percentile(
            m.value.runs.map((r) => r.firstMs),
            50,
          ),
          endP99: percentile(
            m.value.runs.map((r) => r.endMs),
            99,
          ),
          streams,
        });
        out[rev.name] = { one: row(single, 1), many: row(burst, STREAMS) };
      } finally {
        one.destroy();
        many.destroy();
      }
    }
    return { streams: out };
  }

  // --- the runs ----------------------------------------------------------------------------------
  log(
    `bench: scale runs: registries of ${sizes.join(", ")} tools, ${h.rounds} round(s), ${h.requests} sequential requests each; ` +
      `${BIG.bytes >> 10} vs ${BIG_64K.bytes >> 10} KiB results; ${STREAMS} SSE streams of ${STREAM_EVENTS} events at once vs 1`,
  );
  const config = join(h.ROOT, "test/bench/scale/wrangler.toml");
  const bundles = {};
  await Promise.all(sizes.map(async (n) => (bundles[n] = await h.bundle(`scale-${n}`, config, workDir, ["--define", `TOOL_COUNT:${n}`]))));
  log(`bench: scale: bundled ${sizes.length} Workers, ${(bundles[small].gzipBytes / 1024).toFixed(1)} KiB gz each (${elapsedS(started, 1)} s)`);
  await h.startWorker(bundles[small], listProbe(small)); // unmeasured: cold disk caches
  await h.stopWorker();

  const rounds = [];
  for (let r = 0; r < h.rounds; r++) {
    const round = {};
    // Sizes in a rotating order, so slow drift of the machine does not favour one size.
    for (const n of [...sizes.slice(r % sizes.length), ...sizes.slice(0, r % sizes.length)]) {
      round[n] = await measureRegistry(bundles[n], n);
      Object.assign(round[n], await measureHeap(bundles[n], n));
    }
    Object.assign(round[small], await onFreshWorker(bundles[small], small, measureBig), await onFreshWorker(bundles[small], small, measureStreams));
    rounds.push(round);
    const perSize = (rev, key) => sizes.map((n) => fmt(round[n].revs[rev][key])).join("/");
    const show = (rev) => `${rev} list ${perSize(rev, "listCpuUs")} µs, call ${perSize(rev, "callCpuUs")} µs`;
    log(
      `bench: scale round ${r + 1}/${h.rounds} (${sizes.join("/")} tools): ${REVISIONS.map((x) => show(x.name)).join("; ")}; ` +
        `boot ${sizes.map((n) => fmt(round[n].bootMs)).join("/")} ms; others used <= ${busiest.toFixed(2)} cores (${elapsedS(started)} s)`,
    );
    if (h.opt.verbose) log(JSON.stringify(round, (k, v) => (typeof v === "number" ? Number(v.toPrecision(4)) : v)));
  }
  return report(h, { sizes, rounds, busiest, bundles, seconds: (performance.now() - started) / 1000 });
}

// ---------------------------------------------------------------------------------------------
// Report.

function report(h, { sizes, rounds, busiest, bundles, seconds }) {
  const { REVISIONS, fmt, median, table } = h;
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  const mid = sizes.length > 2 ? sizes[sizes.length - 2] : undefined;
  const count = (n) => n.toLocaleString("en-US");
  const med = (f) => median(rounds.map(f));
  const range = (xs) => `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}`;
  const lines = [];

  // 1. Registry size.
  const head = [
    "metric",
    "revision",
    ...sizes.map((n) => `${count(n)} tools`),
    `ratio ${count(large)}/${count(small)}`,
    "min..max",
    ...(mid ? [`ratio ${count(large)}/${count(mid)}`] : []),
  ];
  const rows = [head];
  const ratios = {};
  const registryRow = (label, revName, get, { ratio = true, digits = fmt } = {}) => {
    const per = rounds.map((r) => get(r[large]) / get(r[small]));
    const perMid = mid ? rounds.map((r) => get(r[large]) / get(r[mid])) : [];
    rows.push([
      label,
      revName,
      ...sizes.map((n) => digits(med((r) => get(r[n])))),
      ratio ? median(per).toFixed(2) : "-",
      ratio ? range(per) : "-",
      ...(mid ? [ratio ? median(perMid).toFixed(2) : "-"] : []),
    ]);
    return [median(per), mid ? median(perMid) : NaN];
  };
  for (const rev of REVISIONS) registryRow("tools/list first page: workerd CPU µs", rev.name, (m) => m.revs[rev.name].listCpuUs);
  for (const rev of REVISIONS) registryRow("  req/s c=1", rev.name, (m) => m.revs[rev.name].listRps);
  for (const rev of REVISIONS) registryRow("  page KiB", rev.name, (m) => m.revs[rev.name].listKiB);
  for (const rev of REVISIONS)
    [ratios[`list:${rev.name}`], ratios[`listMid:${rev.name}`]] = registryRow(
      "  workerd CPU µs per KiB of page",
      rev.name,
      (m) => m.revs[rev.name].listCpuUsPerKiB,
    );
  for (const rev of REVISIONS) registryRow("tools/list every page in turn: CPU µs/page", rev.name, (m) => m.revs[rev.name].walkCpuUs);
  for (const rev of REVISIONS)
    [ratios[`call:${rev.name}`], ratios[`callMid:${rev.name}`]] = registryRow(
      `tools/call last tool: workerd CPU µs`,
      rev.name,
      (m) => m.revs[rev.name].callCpuUs,
    );
  for (const rev of REVISIONS) registryRow("  req/s c=1", rev.name, (m) => m.revs[rev.name].callRps);
  registryRow("boot: ms to first answer", "-", (m) => m.bootMs);
  registryRow("  of which until workerd listens", "-", (m) => m.readyMs);
  registryRow("boot: workerd CPU ms to first answer", "-", (m) => m.bootCpuMs);
  registryRow("workerd RSS MiB after boot", "-", (m) => m.bootRssMiB);
  registryRow("workerd RSS MiB after the runs (uncollected garbage too)", "-", (m) => m.rssMiB);
  rows.push([
    "bundle KiB gzip (same code, TOOL_COUNT differs)",
    "-",
    ...sizes.map((n) => (bundles[n].gzipBytes / 1024).toFixed(1)),
    "-",
    "-",
    ...(mid ? ["-"] : []),
  ]);

  // 1b. Large catalogues: what a client and an isolate pay for the whole catalogue.
  const catalogRows = [head];
  const catalogRow = (label, revName, get) => {
    const per = rounds.map((r) => get(r[large]) / get(r[small]));
    const perMid = mid ? rounds.map((r) => get(r[large]) / get(r[mid])) : [];
    catalogRows.push([
      label,
      revName,
      ...sizes.map((n) => fmt(med((r) => get(r[n])))),
      median(per).toFixed(2),
      range(per),
      ...(mid ? [median(perMid).toFixed(2)] : []),
    ]);
    return median(per);
  };
  const bootRatio = catalogRow("boot: ms to the first tools/list page", "-", (m) => m.bootMs);
  catalogRow("boot: ms to a first ping (module load only)", "-", (m) => m.pingBootMs);
  catalogRow("V8 heap MiB after boot (after a GC)", "-", (m) => m.heapBootMiB);
  catalogRow("  after a client listed every page", "-", (m) => m.heapListMiB);
  catalogRow("  after the first search (the index)", "-", (m) => m.heapSearchMiB);
  for (const rev of REVISIONS) catalogRow("tools/list whole list: pages", rev.name, (m) => m.revs[rev.name].pages);
  for (const rev of REVISIONS) catalogRow("  KiB", rev.name, (m) => m.revs[rev.name].allPagesKiB);
  for (const rev of REVISIONS) catalogRow("  workerd CPU ms", rev.name, (m) => m.revs[rev.name].allPagesCpuMs);
  for (const rev of REVISIONS) catalogRow("  wall ms, pages one after the other", rev.name, (m) => m.revs[rev.name].allPagesWallMs);
  catalogRow(`tools/call first call of a tool (builds its validators): workerd CPU µs`, REVISIONS[REVISIONS.length - 1].name, (m) => m.firstCallCpuUs);
  catalogRow("  later calls of the same tools", REVISIONS[REVISIONS.length - 1].name, (m) => m.laterCallCpuUs);
  catalogRow("search_tools first call (builds the index): workerd CPU ms", REVISIONS[REVISIONS.length - 1].name, (m) => m.firstSearchCpuMs);
  catalogRow(
    `search_tools "${searchQueries(large).broad}" (every tool matches): CPU µs/call`,
    REVISIONS[REVISIONS.length - 1].name,
    (m) => m.search_broad_CpuUs,
  );
  catalogRow(`search_tools exact name of the last tool: CPU µs/call`, REVISIONS[REVISIONS.length - 1].name, (m) => m.search_exact_CpuUs);
  const searchUs = Math.max(
    med((r) => r[large].search_broad_CpuUs),
    med((r) => r[large].search_exact_CpuUs),
  );
  const firstCall = med((r) => r[large].firstCallCpuUs) / med((r) => r[large].laterCallCpuUs);

  const listRatio = Math.max(...REVISIONS.map((r) => ratios[mid ? `listMid:${r.name}` : `list:${r.name}`]));
  const callRatio = Math.max(...REVISIONS.map((r) => ratios[`call:${r.name}`]));
  const met = listRatio <= TARGET_RATIO && callRatio <= TARGET_RATIO;
  const catalogMet = bootRatio <= BOOT_TARGET && searchUs <= SEARCH_TARGET_US;
  lines.push(`edge-mcp scale runs: medians of ${rounds.length} round(s); ratio = per-round ratio, median over rounds`);
  lines.push(
    `\nscale 1/3: registry size (tool search on: ${SEARCH_TOOLS.join(", ")}, then ${FIXED_TOOLS.join(", ")}, then tool_00000…; last tool = ${lastTool(large)} at ${count(large)}; pages bounded by bytes)\n`,
  );
  lines.push(table(rows));
  lines.push(
    `\ntarget: tools/call with ${count(large)} tools within ${TARGET_RATIO}x of ${count(small)}, and tools/list CPU per KiB of page with ${count(large)} within ${TARGET_RATIO}x of ${count(mid ?? small)}: ` +
      `call ${callRatio.toFixed(2)}x, list ${listRatio.toFixed(2)}x (worse revision) -> ${met ? "met" : "NOT met"}`,
  );
  lines.push(`\nscale 1b: large catalogues (the whole list as a client walks it, boot, heap, first calls, tool search)\n`);
  lines.push(table(catalogRows));
  lines.push(
    `\ntarget: boot of ${count(large)} tools within ${BOOT_TARGET}x of ${count(small)}: ${bootRatio.toFixed(2)}x; search_tools under ${SEARCH_TARGET_US} µs of workerd CPU at ${count(large)}: ` +
      `${fmt(searchUs)} µs (worse query) -> ${catalogMet ? "met" : "NOT met"}; a first call costs ${firstCall.toFixed(2)}x a later one (${count(large)} tools)`,
  );

  // Growth, from the medians.
  const g = (n, f) => med((r) => f(r[n]));
  const growth = [];
  for (const rev of REVISIONS.map((r) => r.name)) {
    const list = (n) => g(n, (m) => m.revs[rev].listCpuUs);
    const kib = (n) => g(n, (m) => m.revs[rev].listKiB);
    const call = (n) => g(n, (m) => m.revs[rev].callCpuUs);
    const full = mid ?? small; // the smallest size whose first page is full
    const perKiB = kib(full) > kib(small) ? (list(full) - list(small)) / (kib(full) - kib(small)) : NaN;
    growth.push(
      `  ${rev}: list page ${fmt(list(small))} -> ${fmt(list(large))} µs` +
        (mid
          ? ` (${fmt(perKiB)} µs per KiB of page from ${count(small)} to ${count(mid)} tools, where the page fills up; ` +
            `${fmt(((list(large) - list(mid)) / (large - mid)) * 1000)} µs per 1,000 more tools from ${count(mid)} to ${count(large)}, same page)`
          : "") +
        `; call ${fmt(call(small))} -> ${fmt(call(large))} µs (${fmt(((call(large) - call(small)) / (large - small)) * 1000)} µs per 1,000 tools)`,
    );
  }
  const boot = (n) => g(n, (m) => m.bootMs);
  const bootCpu = (n) => g(n, (m) => m.bootCpuMs);
  const rss = (n) => g(n, (m) => m.bootRssMiB);
  const heap = (n) => g(n, (m) => m.heapBootMiB);
  const heapList = (n) => g(n, (m) => m.heapListMiB);
  const heapSearch = (n) => g(n, (m) => m.heapSearchMiB);
  growth.push(
    `  boot: ${fmt(((boot(large) - boot(small)) / (large - small)) * 1000)} ms and ${fmt(((bootCpu(large) - bootCpu(small)) / (large - small)) * 1000)} ms of workerd CPU ` +
      `per 1,000 tools (declarations checked at module load, the first page's list built by the first request); workerd RSS after boot ${fmt(((rss(large) - rss(small)) / (large - small)) * 1024)} KiB per tool`,
  );
  growth.push(
    `  heap: ${fmt(((heap(large) - heap(small)) / (large - small)) * 1024 * 1024)} bytes per tool after boot, ` +
      `${fmt(((heapList(large) - heapList(small) - heap(large) + heap(small)) / (large - small)) * 1024 * 1024)} more once listed, ` +
      `${fmt(((heapSearch(large) - heapList(large) - heapSearch(small) + heapList(small)) / (large - small)) * 1024 * 1024)} more for the search index`,
  );

  // 2. Big results.
  const bigRows = [["metric", "revision", `small (${lastTool(small)})`, "64 KiB", "1 MiB", "ratio 1 MiB/64 KiB"]];
  const big = (rev, name, key) => med((r) => r[small].big[`${rev}:${name}`][key]);
  const bigRatio = (rev, key) => rounds.map((r) => r[small].big[`${rev}:${BIG.name}`][key] / r[small].big[`${rev}:${BIG_64K.name}`][key]);
  const slope = {};
  for (const [key, label] of [
    ["cpuUs", "workerd CPU µs/call"],
    ["wallMs", "wall ms/call c=1"],
    ["mibPerS", "result MiB/s (wall, c=1)"],
    ["mibPerCpuS", "result MiB per workerd CPU s"],
    ["wireKiB", "answer KiB on the wire"],
  ]) {
    for (const rev of REVISIONS.map((r) => r.name)) {
      const smallValue = key === "cpuUs" ? g(small, (m) => m.revs[rev].callCpuUs) : key === "wireKiB" ? g(small, (m) => m.revs[rev].callKiB ?? NaN) : NaN;
      bigRows.push([
        label,
        rev,
        Number.isFinite(smallValue) ? fmt(smallValue) : "-",
        fmt(big(rev, BIG_64K.name, key)),
        fmt(big(rev, BIG.name, key)),
        median(bigRatio(rev, key)).toFixed(2),
      ]);
      if (key === "cpuUs") slope[rev] = (big(rev, BIG.name, key) - big(rev, BIG_64K.name, key)) / ((BIG.bytes - BIG_64K.bytes) / 1024);
    }
  }
  lines.push(`\nscale 2/3: big results (tools/call on a fresh ${count(small)}-tool Worker, one after the other; text with quotes and newlines to escape)\n`);
  lines.push(table(bigRows));
  for (const rev of REVISIONS.map((r) => r.name)) {
    const fixed = big(rev, BIG_64K.name, "cpuUs") - slope[rev] * (BIG_64K.bytes / 1024);
    growth.push(
      `  ${rev}: result cost is linear: ${fmt(slope[rev])} µs per KiB from 64 KiB to 1 MiB (${fmt(1e6 / (1024 * slope[rev]))} MiB per CPU s at the margin) ` +
        `on a fixed ~${fmt(fixed)} µs (a small call: ${fmt(g(small, (m) => m.revs[rev].callCpuUs))} µs)`,
    );
  }

  // 3. SSE streams.
  const sseRows = [["metric", "revision", "1 stream", `${STREAMS} at once`, "ratio"]];
  let sseCpuRatio = 0;
  for (const [key, label] of [
    ["wallMs", `wall ms (1 stream alone; ${STREAMS} streams at once)`],
    ["cpuUsStream", "workerd CPU µs/stream"],
    ["cpuUsEvent", "  per progress event (stream CPU / events)"],
    ["eventsPerS", "progress events/s"],
    ["firstP50", "first event ms p50"],
    ["endP99", "stream done ms p99"],
  ]) {
    for (const rev of REVISIONS.map((r) => r.name)) {
      const per = rounds.map((r) => r[small].streams[rev].many[key] / r[small].streams[rev].one[key]);
      if (key === "cpuUsStream") sseCpuRatio = Math.max(sseCpuRatio, median(per));
      sseRows.push([label, rev, fmt(med((r) => r[small].streams[rev].one[key])), fmt(med((r) => r[small].streams[rev].many[key])), median(per).toFixed(2)]);
    }
  }
  lines.push(
    `\nscale 3/3: SSE streams (tools/call stream on a fresh ${count(small)}-tool Worker, with a progressToken: ` +
      `${STREAM_EVENTS} progress events ${STREAM_DELAY_MS} ms apart, then the result; ` +
      `${SINGLE_STREAMS} alone one after the other vs ${BURSTS} bursts of ${STREAMS} at once)\n`,
  );
  lines.push(table(sseRows));
  for (const rev of REVISIONS.map((r) => r.name)) {
    const one = med((r) => r[small].streams[rev].one.cpuUsStream);
    const many = med((r) => r[small].streams[rev].many.cpuUsStream);
    growth.push(
      `  ${rev}: ${STREAMS} streams at once cost ${fmt(many / one)}x the CPU per stream of one alone; ` +
        `${STREAMS} take ${fmt(med((r) => r[small].streams[rev].many.wallMs) / med((r) => r[small].streams[rev].one.wallMs))}x the wall time of one ` +
        `(${STREAMS}x the work)`,
    );
  }
  lines.push(`\ngrowth:\n${growth.join("\n")}`);
  if (busiest >= h.NOISY_CORES) {
    lines.push(`\nnote: other processes kept up to ${busiest.toFixed(2)} cores busy during a scale measurement; the numbers are skewed then.`);
  }
  lines.push(`\n(scale runs ${seconds.toFixed(0)} s)`);
  const bigSlope = Math.max(...Object.values(slope));
  lines.push(
    `scale: list_ratio=${listRatio.toFixed(2)} call_ratio=${callRatio.toFixed(2)} target_${TARGET_RATIO}=${met ? "met" : "missed"} ` +
      `boot_ratio=${bootRatio.toFixed(2)} search_us=${searchUs.toFixed(0)} first_call_ratio=${firstCall.toFixed(2)} catalog_targets=${catalogMet ? "met" : "missed"} ` +
      `boot_ms_per_1k_tools=${(((boot(large) - boot(small)) / (large - small)) * 1000).toFixed(1)} big_us_per_kib=${bigSlope.toFixed(2)} sse${STREAMS}_cpu_per_stream_ratio=${sseCpuRatio.toFixed(2)}`,
  );
  return { text: lines.join("\n"), listRatio, callRatio, met: met && catalogMet };
}
