// Code mode's cost under `wrangler dev` (README, "Code mode"): workerd CPU (from /proc, Linux, 10 ms ticks) and wall
// time per run of the globex workflow as five direct calls and as one execute, and of a trivial execute (a cold
// Dynamic Worker each time). Start the example first: `npm run dev:multi-tenant -- --port 8787`, then
// `node test/bench/code-mode.mjs http://127.0.0.1:8787 40`.
import { readFileSync } from "node:fs";
const BASE = process.argv[2] ?? "http://127.0.0.1:8787";
const URL_ = `${BASE}/t/globex/mcp`;
const PORT = new URL(BASE).port;
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
let id = 1;
async function call(name, args) {
  const r = await fetch(URL_, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
      "cf-connecting-ip": `198.51.100.${id % 250}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args, _meta: meta } }),
  });
  const t = await r.text();
  if (r.status !== 200) throw new Error(t);
  return t;
}
import { readdirSync } from "node:fs";
const pids = readdirSync("/proc")
  .filter((d) => /^\d+$/.test(d))
  .filter((d) => {
    try {
      const c = readFileSync(`/proc/${d}/cmdline`, "utf8");
      return c.startsWith("/") && c.includes("bin/workerd") && c.includes(`127.0.0.1:${PORT}`);
    } catch {
      return false;
    }
  });
const cpu = () =>
  pids.reduce((s, p) => {
    const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
    return s + Number(f[11]) + Number(f[12]);
  }, 0) * 10; // ms (100 Hz)
const CITIES = ["Paris", "Oslo", "Lima", "Rome"];
const five = async () => {
  for (const city of CITIES) await call("weather_forecast", { city });
  await call("hello", { name: "Ann" });
};
const PROGRAM = `const out = []; for (const city of ${JSON.stringify(CITIES)}) { try { out.push(await tools.weather_forecast({ city })); } catch (e) { out.push(e.message); } } out.push(await tools.hello({ name: "Ann" })); return out.join("; ");`;
const one = () => call("execute", { code: PROGRAM });
const trivial = () => call("execute", { code: "return 1;" });
const hello = () => call("hello", { name: "A" });
const N = Number(process.argv[3] ?? 40);
async function measure(label, fn) {
  for (let i = 0; i < 3; i++) await fn();
  const c0 = cpu();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const wall = (performance.now() - t0) / N;
  const c = (cpu() - c0) / N;
  console.log(`${label}: workerd CPU ${c.toFixed(1)} ms, wall ${wall.toFixed(1)} ms per run (n=${N}, pids ${pids.join(",")})`);
}
await measure("five direct calls", five);
await measure("one execute (same workflow)", one);
await measure("execute return 1 (a cold Dynamic Worker each time)", trivial);
await measure("one direct hello", hello);
