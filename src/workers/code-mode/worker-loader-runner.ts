/** Code mode's sandbox on Workers: each program runs in a fresh Dynamic Worker (Worker Loader) with no network and no bindings. */

import { RpcTarget, env as workerEnv } from "cloudflare:workers";
import { ALLOCATION_BUDGET_FILE, ALLOCATION_BUDGET_MODULE } from "../../server/code-mode/allocation-budget.ts";
import type { InnerCallResult, SandboxOutcome, SandboxRun, SandboxRunner } from "../../server/code-mode/sandbox.ts";
import { HARNESS_MODULE } from "./harness-module.ts";

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
        modules: { "harness.js": HARNESS_MODULE, "program.js": run.program, [ALLOCATION_BUDGET_FILE]: ALLOCATION_BUDGET_MODULE },
        globalOutbound: null,
        env: {},
        limits: { cpuMs: run.cpuMs },
      });
      const entry = worker.getEntrypoint() as unknown as HarnessEntrypoint;
      return await entry.run(new ToolBridge((name, args) => run.callTool(name, args)), run.maxConsoleBytes, run.maxAllocationBytes);
    },
  };
}
