// Starts `wrangler dev` (the pinned node_modules/.bin/wrangler) on loopback and stops its whole process group.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePorts } from "./free-ports.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WRANGLER = fileURLToPath(new URL("../../node_modules/.bin/wrangler", import.meta.url));
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const MAX_LOG_CHARS = 64_000;

export interface WranglerDevOptions {
  /** Label used in error messages. */
  name: string;
  /** Wrangler config(s), relative to the repository root; several run together (the first is served). Default: the root wrangler.toml. */
  configPath?: string | string[];
  /** `--var KEY:VALUE` overrides of the config's [vars]. */
  vars?: Record<string, string>;
  /** More arguments for `wrangler dev` (e.g. `--persist-to` a fresh directory). */
  args?: string[];
  /** A project directory to run in, with its own node_modules/.bin/wrangler (default: this repository and its wrangler). Config paths are relative to it. */
  cwd?: string;
}

export interface WranglerDev {
  readonly name: string;
  readonly baseUrl: string;
  /** wrangler's stdout+stderr so far (the tail, if long). */
  output(): string;
  /** Stops wrangler and everything it spawned (workerd, esbuild). Idempotent. */
  stop(): Promise<void>;
}

/** Spawns `wrangler dev` (of the root wrangler.toml by default) and resolves once it answers HTTP. */
export async function startWranglerDev(options: WranglerDevOptions): Promise<WranglerDev> {
  const [port, inspectorPort] = await freePorts(2);
  const baseUrl = `http://127.0.0.1:${port}`;
  const configs = [options.configPath ?? "wrangler.toml"].flat();
  const args = ["dev", ...configs.flatMap((config) => ["--config", config]), "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--inspector-ip", "127.0.0.1", "--inspector-port", String(inspectorPort));
  args.push("--log-level", "warn", "--show-interactive-dev-session=false", "--live-reload=false");
  for (const [key, value] of Object.entries(options.vars ?? {})) args.push("--var", `${key}:${value}`);
  args.push(...(options.args ?? []));

  const cwd = options.cwd ?? ROOT;
  const child = spawn(options.cwd ? join(options.cwd, "node_modules/.bin/wrangler") : WRANGLER, args, {
    cwd,
    detached: true, // own process group, so stop() can signal workerd too
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_SEND_ERROR_REPORTS: "false",
      WRANGLER_HIDE_BANNER: "true", // the banner also runs an npm update check
      CLOUDFLARE_CF_FETCH_ENABLED: "false", // don't download Request.cf data
      WRANGLER_LOG_PATH: `${ROOT}.wrangler/logs`, // debug logs stay in the (git-ignored) project dir
    },
  });
  let log = "";
  const append = (chunk: Buffer): void => {
    // wrangler colours its error boxes regardless of NO_COLOR; strip ANSI codes for readable logs.
    // eslint-disable-next-line no-control-regex -- ESC is the character to strip
    log = (log + chunk.toString("utf8").replace(/\x1b\[[0-9;]*m/g, "")).slice(-MAX_LOG_CHARS);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  trackForExit(child);

  let stopping: Promise<void> | undefined;
  const server: WranglerDev = {
    name: options.name,
    baseUrl,
    output: () => log,
    stop: () => (stopping ??= stopGroup(child, exited)),
  };
  try {
    await waitForHttp(baseUrl, child);
  } catch (error) {
    await server.stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`wrangler dev (${options.name}) did not start: ${reason}\n--- wrangler output ---\n${log}`, { cause: error });
  }
  return server;
}

async function waitForHttp(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`exited early (code ${child.exitCode}, signal ${child.signalCode})`);
    }
    try {
      const response = await fetch(baseUrl, { signal: AbortSignal.timeout(5_000) });
      await response.body?.cancel();
      return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no HTTP answer at ${baseUrl} within ${READY_TIMEOUT_MS} ms (last error: ${String(lastError)})`);
}

/** Whether any process is left in the group led by `pid`. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + STOP_GRACE_MS;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
  await exited;
  untrack(child);
  const killDeadline = Date.now() + STOP_GRACE_MS;
  while (groupAlive(pid) && Date.now() < killDeadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (groupAlive(pid)) throw new Error(`processes of group ${pid} (wrangler dev) survived SIGKILL`);
}

// Last resort if vitest exits without running teardown (crash, Ctrl-C): kill what is still running.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function trackForExit(child: ChildProcess): void {
  running.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const proc of running) if (proc.pid !== undefined) signalGroup(proc.pid, "SIGKILL");
  });
}

function untrack(child: ChildProcess): void {
  running.delete(child);
}
