/** Code mode's sandbox on Workers: each program runs in a fresh Dynamic Worker (Worker Loader) with no network and no bindings. */

import { RpcTarget, env as workerEnv } from "cloudflare:workers";
import { ALLOCATION_BUDGET_FILE, ALLOCATION_BUDGET_MODULE } from "../server/code-mode/allocation-budget.ts";
import type { InnerCallResult, SandboxOutcome, SandboxRun, SandboxRunner } from "../server/code-mode/sandbox.ts";

/**
 * The Dynamic Worker's entry: it puts the allocation budget in place, captures `console`, gives the program a `tools` object whose
 * methods call the parent through the RPC stub it is handed, and reports how the program ended.
 * It is the only module besides the program; the program cannot reach `env` (it is empty) or the
 * network (`globalOutbound: null` refuses `fetch` and `connect`).
 */
const HARNESS = `import { WorkerEntrypoint } from "cloudflare:workers"; import { installAllocationBudget } from "./${ALLOCATION_BUDGET_FILE}";
class ToolError extends Error {
  constructor(message, code) { super(message); this.name = "ToolError"; if (code !== undefined) this.code = code; }
}
export default class Harness extends WorkerEntrypoint {
  async run(bridge, maxConsoleBytes, maxAllocationBytes) {
    let size = 0;
    let consoleCut = false;
    const lines = [];
    // Console lines are built without the wrapped built-ins, so a program past its allocation budget can still log text.
    const show = (value) => { if (typeof value === "string") return value; try { return JSON.stringify(value); } catch { return String(value); } };
    const write = (level) => (...args) => {
      let line = level === "log" ? "" : level + ": ";
      for (let i = 0; i < args.length; i++) line += (i === 0 ? "" : " ") + show(args[i]);
      if (consoleCut || size + line.length + 1 > maxConsoleBytes) { consoleCut = true; return; }
      size += line.length + 1;
      lines[lines.length] = line;
    };
    for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = write(level);
    const call = (name) => async (args) => {
      const answer = await bridge.call(name, args);
      if (!answer.ok) throw new ToolError(answer.message, answer.code);
      return answer.value;
    };
    const tools = new Proxy({}, { get: (_, name) => (typeof name === "string" && name !== "then" ? call(name) : undefined) });
    globalThis.tools = tools;
    const ended = () => { let text = ""; for (let i = 0; i < lines.length; i++) text += (i === 0 ? "" : "\\n") + lines[i]; return { console: text, consoleCut }; };
    const budget = installAllocationBudget(maxAllocationBytes);
    try {
      const program = (await import("./program.js")).default;
      if (typeof program !== "function") throw new TypeError("the module has no default export function");
      const value = await program(tools);
      // The result is written under a budget of its own: a program that caught the limit still gives its answer.
      budget.renew();
      return { ok: true, json: value === undefined ? undefined : JSON.stringify(value), ...ended() };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      return { ok: false, name: e.name, message: e.message, stack: String(e.stack ?? ""), ...ended() };
    }
  }
}
`;

/** The parent's side of the RPC: one per run, holding that run's admitted `callTool` and nothing else. */
class ToolBridge extends RpcTarget {
  readonly #callTool: SandboxRun["callTool"];

  constructor(callTool: SandboxRun["callTool"]) {
    super();
    this.#callTool = callTool;
  }

  call(name: unknown, args: unknown): Promise<InnerCallResult> {
    return this.#callTool(String(name), args);
  }
}

export interface WorkerLoaderRunnerOptions {
  /** The Dynamic Worker's compatibility date (default 2026-04-01). */
  compatibilityDate?: string;
}

interface HarnessEntrypoint {
  run(bridge: ToolBridge, maxConsoleBytes: number, maxAllocationBytes: number): Promise<SandboxOutcome>;
}

/**
 * A code-mode sandbox on a Worker Loader binding (`[[worker_loaders]] binding = "LOADER"`): pass
 * the binding, or its name to read it from the Worker's env when a program runs. Each run loads
 * a fresh isolate (`load`, never cached: no state is shared between runs or callers) with
 * `globalOutbound: null`, an empty env and `limits.cpuMs`.
 */
export function workerLoaderRunner(loader: WorkerLoader | string = "LOADER", options: WorkerLoaderRunnerOptions = {}): SandboxRunner {
  const compatibilityDate = options.compatibilityDate ?? "2026-04-01";
  return {
    async run(run) {
      const binding = typeof loader === "string" ? ((workerEnv as unknown as Record<string, unknown>)[loader] as WorkerLoader | undefined) : loader;
      if (!binding)
        throw new Error(
          `code mode needs a Worker Loader binding named ${typeof loader === "string" ? loader : "LOADER"} ([[worker_loaders]] in wrangler.toml)`,
        );
      const worker = binding.load({
        compatibilityDate,
        mainModule: "harness.js",
        modules: { "harness.js": HARNESS, "program.js": run.program, [ALLOCATION_BUDGET_FILE]: ALLOCATION_BUDGET_MODULE },
        globalOutbound: null,
        env: {},
        limits: { cpuMs: run.cpuMs },
      });
      const entry = worker.getEntrypoint() as unknown as HarnessEntrypoint;
      return await entry.run(new ToolBridge((name, args) => run.callTool(name, args)), run.maxConsoleBytes, run.maxAllocationBytes);
    },
  };
}
