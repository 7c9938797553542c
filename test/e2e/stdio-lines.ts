// Line-level access to a spawned `edge-mcp stdio`: write JSON-RPC lines, read the lines it writes, wait for its exit.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";

export interface LinePeer {
  send(line: string | object): void;
  /** The next line written to stdout (waits for it). */
  next(): Promise<string>;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
}

const NEXT_TIMEOUT_MS = 20_000;

export function linePeer(child: ChildProcessWithoutNullStreams): LinePeer {
  const queued: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else queued.push(line);
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-32_000)));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  return {
    send: (line) => child.stdin.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`),
    next: () => {
      const line = queued.shift();
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no line from edge-mcp stdio within ${NEXT_TIMEOUT_MS} ms\n--- stderr ---\n${stderr}`)),
          NEXT_TIMEOUT_MS,
        );
        waiting.push((value) => {
          clearTimeout(timer);
          resolve(value);
        });
      });
    },
    stderr: () => stderr,
    exited,
  };
}
