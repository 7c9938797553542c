// `edge-mcp stdio`: the project's Worker in miniflare, spoken to over stdin/stdout; its lifecycle and exit codes.

import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { loadProjectTools } from "./project-tools.mjs";
import { startWorkers } from "./start-workers.mjs";
import { STDIO_USAGE, parseStdioOptions } from "./stdio-options.mjs";
import { StdioRelay } from "./stdio-relay.mjs";
import { UsageError } from "./usage-error.mjs";

// After EOF on stdin, answers still in flight get this long before the Worker is stopped.
const EOF_GRACE_MS = 5_000;
const SIGNALS = /** @type {const} */ (["SIGTERM", "SIGINT", "SIGHUP"]);

/**
 * Runs `start`, then removes the signal listeners it added. wrangler (on import) and miniflare
 * (per instance) exit the process on SIGTERM/SIGINT at once, which would skip ending the session
 * and waiting for workerd to exit; edge-mcp's own handlers do both.
 * @template T
 * @param {() => Promise<T>} start
 * @returns {Promise<T>}
 */
async function keepingSignals(start) {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  try {
    return await start();
  } finally {
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
}

/** @param {string} line */
function logLine(line) {
  process.stderr.write(line.endsWith("\n") ? line : `${line}\n`);
}

/**
 * An error for stderr: esbuild's messages one per line (`file:line:column: ERROR: text`),
 * otherwise the message (the stack with MCP_DEBUG).
 * @param {unknown} error
 * @param {boolean} debug
 */
function describe(error, debug) {
  const errors = /** @type {{ errors?: unknown }} */ (error)?.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    return errors
      .map((/** @type {{ text?: string, location?: { file: string, line: number, column: number } | null }} */ e) => {
        const at = e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : "";
        return `\n  ${at}ERROR: ${e.text}`;
      })
      .join("");
  }
  if (!(error instanceof Error)) return String(error);
  return debug && error.stack ? error.stack : error.message;
}

/**
 * Runs `edge-mcp stdio ARGS` in this process: starts the Worker, relays stdin/stdout until EOF
 * on stdin, a signal (SIGTERM, SIGINT, SIGHUP) or a closed stdout, then stops workerd. Resolves
 * with the exit code: 0 after a clean stop, 1 when the Worker did not start, 2 for a bad
 * command line. stdout carries JSON-RPC lines only; anything else that writes to it (wrangler's
 * and miniflare's loggers, `console.log`) is sent to stderr.
 * @param {readonly string[]} args
 * @returns {Promise<number>}
 */
export async function runStdio(args) {
  let options;
  try {
    options = parseStdioOptions(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    logLine(`edge-mcp stdio: ${error.message}\n\n${STDIO_USAGE}`);
    return 2;
  }
  const debug = /^(1|true|yes|on)$/i.test(process.env["MCP_DEBUG"] ?? "");
  const stdout = process.stdout;
  const writeOut = stdout.write.bind(stdout);
  stdout.write = /** @type {typeof stdout.write} */ (process.stderr.write.bind(process.stderr));

  // Lines that arrive while the Worker starts wait here, in order.
  /** @type {string[]} */
  const early = [];
  /** @type {StdioRelay | undefined} */
  let relay;
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  // Backpressure: while as many requests wait as may run at once, stdin is not read (the host's
  // writes block in the pipe). readline still hands over the rest of the chunk it holds, so
  // what waits stays bounded by the limit plus one chunk.
  let paused = false;
  const backlog = () => (relay ? relay.backlog : early.length);
  const pauseIfFull = () => {
    if (!paused && backlog() >= options.maxInFlight) ((paused = true), lines.pause());
  };
  const resumeIfRoom = () => {
    if (paused && backlog() < Math.ceil(options.maxInFlight / 2)) ((paused = false), lines.resume());
  };
  lines.on("line", (line) => {
    if (relay) relay.receive(line);
    else early.push(line);
    pauseIfFull();
  });
  const ended = new Promise((resolve) => lines.once("close", () => resolve("eof")));
  // EPIPE on stdout: the host is gone.
  const broken = new Promise((resolve) => stdout.on("error", () => resolve("stdout closed")));
  /** @type {Promise<string>} */
  const signalled = new Promise((resolve) => {
    for (const signal of SIGNALS) process.once(signal, () => resolve(signal));
    // A bug must not leave workerd running: stop it, then exit non-zero.
    process.once("uncaughtException", (error) => (logLine(`edge-mcp stdio: ${describe(error, true)}`), (process.exitCode = 1), resolve("crash")));
  });

  const started = performance.now();
  let workers;
  try {
    workers = await keepingSignals(async () => {
      const cwd = process.cwd();
      const tools = loadProjectTools([cwd, ...options.configs.map((config) => dirname(resolve(cwd, config)))]);
      if (debug) logLine(`edge-mcp stdio: wrangler ${tools.wranglerVersion}`);
      return startWorkers(tools, options, cwd, logLine);
    });
  } catch (error) {
    logLine(`edge-mcp stdio: the Worker did not start: ${describe(error, debug)}`);
    return 1;
  }
  if (debug) logLine(`edge-mcp stdio: Worker ready in ${Math.round(performance.now() - started)} ms`);

  /** @param {string} json */
  const write = (json) => new Promise((resolve) => writeOut(`${json}\n`, () => resolve(undefined)));
  relay = new StdioRelay({
    dispatch: workers.dispatch,
    endpoint: `http://${options.host}${options.path}`,
    headers: options.headers,
    write,
    log: logLine,
    debug,
    maxInFlight: options.maxInFlight,
    onRoom: resumeIfRoom,
  });
  for (const line of early.splice(0)) relay.receive(line);
  resumeIfRoom();

  const reason = await Promise.race([ended, broken, signalled]);
  if (reason === "eof") {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, EOF_GRACE_MS)));
    await Promise.race([relay.idle(), grace, broken, signalled]);
    clearTimeout(timer);
  }
  if (debug) logLine(`edge-mcp stdio: stopping (${reason})`);
  lines.close();
  await relay.close();
  await workers.dispose();
  return reason === "crash" ? 1 : 0;
}
