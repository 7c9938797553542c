// Runs a command for the package tests: output captured, a deadline, and an error that shows the output on failure.
import { spawn } from "node:child_process";

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** Kill the command (its whole process group) after this long. */
  timeoutMs?: number;
  /** Resolve with a failing exit code instead of throwing. */
  allowFailure?: boolean;
  /** Variables added to the command's environment. */
  env?: Record<string, string>;
  /** What the command reads on its standard input (none: it is closed). */
  input?: string;
}

// npm sets npm_* variables for the scripts it runs (this test runs under `npm test`); a nested npm
// would read them as its own config (prefix, package, lifecycle). Only where the cache and the
// config files are passes through, so that installs use the cache `npm ci` filled.
const NPM_KEPT = new Set(["npm_config_cache", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_registry"]);

/** The environment for commands: quiet, offline wrangler, and none of the outer npm's script variables. */
export function commandEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.toLowerCase().startsWith("npm_") && !NPM_KEPT.has(key.toLowerCase())) continue;
    if (key === "INIT_CWD") continue;
    env[key] = value;
  }
  return {
    ...env,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    WRANGLER_HIDE_BANNER: "true",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
    CI: "true",
  };
}

/** Runs `command args` in `cwd` and resolves with its output; throws with the output when it fails. */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...commandEnv(), ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    // What the command reads, if anything; its standard input is closed either way.
    child.stdin.end(options.input ?? "");
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr };
      if (code === 0 || options.allowFailure) resolve(result);
      else {
        const how = signal ? `was killed (${signal}) after ${timeoutMs} ms` : `exited ${code}`;
        reject(
          new Error(`${command} ${args.join(" ")} (in ${options.cwd}) ${how}\n--- stdout ---\n${stdout.slice(-8000)}\n--- stderr ---\n${stderr.slice(-8000)}`),
        );
      }
    });
  });
}
