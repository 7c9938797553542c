// The bench's task runs (run.mjs calls runTasks after the main rounds; --no-tasks skips them): what a
// tools/call that creates a task (the demo's report tool, one McpTaskObject per task) and a tasks/get
// poll cost in workerd CPU, against a plain 2026-07-28 tools/call add(2, 3) on the same instance.
// The demo bundle runs with its Durable Objects bound (MCP_TASKS, MCP_QUOTAS, MCP_HANDLES), in memory.
// What is measured and how: README.md, "Task runs".
import http from "node:http";
import { join } from "node:path";

const ROUNDS_DEFAULT = 3;
const ADDRESSES_EVERY = 50; // tasks per simulated client address: anonymous callers' quotas count by address (100 each)
const TASK_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};
const PLAIN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const BASE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" };

export async function runTasks(h, workDir, { rounds = ROUNDS_DEFAULT, requests }) {
  const { expect, parseJson, isObject, fmt, median, log, table, post } = h;
  const started = performance.now();
  const demo = await h.bundle("demo-tasks", join(h.ROOT, "wrangler.toml"), workDir);
  const durableObjects = {
    MCP_TASKS: { className: "McpTaskObject", useSQLite: true },
    MCP_QUOTAS: { className: "McpQuotaObject", useSQLite: true },
    MCP_HANDLES: { className: "McpHandleObject", useSQLite: true },
  };
  let nextId = 1;
  let address = 0;
  let created = 0;
  let busiest = 0;

  const send = (base, agent, method, name, params, extraHeaders = {}) => {
    const id = nextId++;
    const headers = { ...BASE_HEADERS, "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }), ...extraHeaders };
    return post(base, agent, headers, JSON.stringify({ jsonrpc: "2.0", id, method, params })).then((res) => ({ id, res }));
  };
  const answer = (what, { id, res }) => {
    expect(res.status === 200, `${what}: HTTP ${res.status}`, res.text.slice(0, 300));
    const msg = parseJson(res.text, what);
    expect(msg.id === id && isObject(msg.result), `${what}: envelope`, msg);
    return msg.result;
  };

  const plainCall = async (base, agent) => {
    const result = answer("tools/call add", await send(base, agent, "tools/call", "add", { name: "add", arguments: { a: 2, b: 3 }, _meta: PLAIN_META }));
    expect(result.content?.[0]?.text === "The sum of 2 and 3 is 5" && result.resultType === "complete", "tools/call add: result", result);
  };
  // A report of one section without delay: the task completes right after it is created (no question: no elicitation capability).
  const createTask = async (base, agent) => {
    if (created++ % ADDRESSES_EVERY === 0) address++;
    const ip = `198.18.${address >> 8}.${address & 255}`;
    const result = answer(
      "tools/call report (task)",
      await send(
        base,
        agent,
        "tools/call",
        "report",
        { name: "report", arguments: { topic: "bench", sections: 1, delayMs: 0 }, _meta: TASK_META },
        { "cf-connecting-ip": ip },
      ),
    );
    expect(result.resultType === "task" && typeof result.taskId === "string" && result.status === "working", "tools/call report: CreateTaskResult", result);
    return { taskId: result.taskId, ip };
  };
  const getTask = async (base, agent, task, status) => {
    const result = answer(
      "tasks/get",
      await send(base, agent, "tasks/get", task.taskId, { taskId: task.taskId, _meta: TASK_META }, { "cf-connecting-ip": task.ip }),
    );
    expect(result.taskId === task.taskId && result.resultType === "complete", "tasks/get: DetailedTask", result);
    if (status !== undefined) expect(result.status === status, `tasks/get: status ${status}`, result);
    return result;
  };

  const sequential = async (n, one) => {
    for (let i = 0; i < n; i++) await one(i);
    return { count: n };
  };

  const perRound = [];
  for (let round = 0; round < rounds; round++) {
    const worker = await h.startWorker(demo, undefined, { durableObjects });
    const pids = () => h.processTree(worker.pid);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Correctness first: a task runs to completed, its result is the report.
      const first = await createTask(worker.base, agent);
      let done;
      for (let i = 0; i < 200 && (done = await getTask(worker.base, agent, first)).status !== "completed"; i++) await new Promise((r) => setTimeout(r, 10));
      expect(
        done.status === "completed" && done.result?.content?.[0]?.text === "# Report: bench\n## Section 1\nFindings 1 about bench.",
        "the bench task's result",
        done,
      );
      // Warm-up, discarded.
      await sequential(300, () => plainCall(worker.base, agent));
      await sequential(100, () => createTask(worker.base, agent));
      await sequential(300, () => getTask(worker.base, agent, first, "completed"));

      const cpu = (m) => {
        busiest = Math.max(busiest, m.others);
        return (m.s1.workerd.schedNs - m.s0.workerd.schedNs) / m.value.count / 1000;
      };
      const plain = await h.quietly(pids, () => sequential(requests, () => plainCall(worker.base, agent)));
      const creates = await h.quietly(pids, () => sequential(Math.ceil(requests / 4), () => createTask(worker.base, agent)));
      const polls = await h.quietly(pids, () => sequential(requests, () => getTask(worker.base, agent, first, "completed")));
      const r = { plainUs: cpu(plain), createUs: cpu(creates), getUs: cpu(polls) };
      perRound.push(r);
      log(
        `bench: tasks round ${round + 1}/${rounds}: tools/call ${fmt(r.plainUs)} µs, task-creating call ${fmt(r.createUs)} µs, tasks/get ${fmt(r.getUs)} µs (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    } finally {
      agent.destroy();
      await h.stopWorker();
    }
  }

  const col = (key) => median(perRound.map((r) => r[key]));
  const ratio = (key) => median(perRound.map((r) => r[key] / r.plainUs));
  const spread = (key) => {
    const ratios = perRound.map((r) => r[key] / r.plainUs);
    return `${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)}`;
  };
  const rows = [
    ["2026-07-28 request", "", "workerd CPU µs", "vs tools/call", "min..max"],
    ["tools/call add (plain)", "", fmt(col("plainUs")), "1.00", "-"],
    ["tools/call report → CreateTaskResult", "", fmt(col("createUs")), ratio("createUs").toFixed(2), spread("createUs")],
    ["tasks/get (a completed task)", "", fmt(col("getUs")), ratio("getUs").toFixed(2), spread("getUs")],
  ];
  const text = [
    `edge-mcp task runs: medians of ${rounds} round(s), a fresh workerd each; ${requests} sequential tools/call and tasks/get, ${Math.ceil(requests / 4)} task creations per round`,
    "(a task-creating call includes its task object: quota lease, stored record, the handler's run and its result; tasks/get reads the record)",
    "",
    table(rows),
    ...(busiest >= h.NOISY_CORES
      ? ["", `note: other processes kept up to ${busiest.toFixed(2)} cores busy during a measurement; the numbers are skewed.`]
      : []),
    "",
    `tasks: create_cpu_us=${fmt(col("createUs"))} get_cpu_us=${fmt(col("getUs"))} call_cpu_us=${fmt(col("plainUs"))} create_ratio=${ratio("createUs").toFixed(2)} get_ratio=${ratio("getUs").toFixed(2)}`,
  ].join("\n");
  return { text };
}
