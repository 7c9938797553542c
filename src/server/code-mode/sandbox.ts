/** The contract between code mode (platform-free) and the sandbox that runs a program (a Dynamic Worker on Workers). */

/** What code mode asks a sandbox to run: one program, with one capability (calling tools). */
export interface SandboxRun {
  /**
   * The program as an ES module whose default export is `async (tools) => value`. The sandbox
   * loads it as `program.js`, so stack traces name that file.
   */
  readonly program: string;
  /** CPU time the sandbox may spend, in ms, where the sandbox can enforce it. */
  readonly cpuMs: number;
  /** Most bytes of `console` output the sandbox keeps; the rest is dropped and said so. */
  readonly maxConsoleBytes: number;
  /**
   * The run's allocation budget, in estimated bytes: the sandbox installs `installAllocationBudget`
   * of `ALLOCATION_BUDGET_MODULE` (allocation-budget.ts) with it before the program is imported.
   */
  readonly maxAllocationBytes: number;
  /**
   * Runs `tools.<name>(args)` for the program: admitted and run on the caller's behalf by code
   * mode. Never throws: a refusal or a tool error comes back as `{ ok: false }`.
   */
  callTool(name: string, args: unknown): Promise<InnerCallResult>;
}

/** What one inner call gives back to the program. */
export type InnerCallResult = { ok: true; value: unknown } | { ok: false; message: string; code?: number | undefined };

/** How a program ended, as the sandbox reports it. */
export type SandboxOutcome =
  | { ok: true; /** The returned value as JSON text; undefined when it returned nothing. */ json: string | undefined; console: string; consoleCut: boolean }
  | { ok: false; name: string; message: string; stack: string; console: string; consoleCut: boolean };

/**
 * Runs programs in isolation: no network, no bindings, no secrets, only `tools`. On Workers,
 * `workerLoaderRunner()` from `edge-mcp/workers` (a Worker Loader binding); a test may pass its own.
 */
export interface SandboxRunner {
  run(run: SandboxRun): Promise<SandboxOutcome>;
}
