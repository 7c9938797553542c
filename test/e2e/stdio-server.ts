// `edge-mcp stdio` for e2e tests: spawn parameters, the official clients' stdio transports, and process checks.
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from "./clients.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const EDGE_MCP = fileURLToPath(new URL("../../bin/edge-mcp.mjs", import.meta.url));

/** The Worker configs of the repository, as `edge-mcp stdio` arguments. */
export const DEMO: string[] = [];
export const MULTI_TENANT = ["--config", "examples/multi-tenant/wrangler.toml", "--config", "examples/tool-service/wrangler.toml"];
export const CONFORMANCE = ["--config", "examples/conformance/wrangler.toml"];

// Every directory freshState makes lives under one per test file, removed after the file's tests.
const STATE_ROOT = mkdtempSync(join(tmpdir(), "edge-mcp-stdio-"));
afterAll(() => rmSync(STATE_ROOT, { recursive: true, force: true }));

/** A fresh directory (Durable Objects and KV of a run, or a throwaway project); never the repository's .wrangler/state. */
export function freshState(): string {
  return mkdtempSync(join(STATE_ROOT, "run-"));
}

/** What the stdio transports spawn: this checkout's bin, run by this Node, in the repository. */
export function stdioServer(args: string[], persistTo: string) {
  return {
    command: process.execPath,
    args: [EDGE_MCP, "stdio", "--persist-to", persistTo, ...args],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), WRANGLER_SEND_METRICS: "false" },
    stderr: "pipe" as const,
  };
}

/** Collects a child's stderr (the tail), for failure messages. */
function collect(stream: Readable | null): () => string {
  let text = "";
  stream?.on("data", (chunk: Buffer) => (text = (text + chunk.toString("utf8")).slice(-16_000)));
  return () => text;
}

type ElicitHandler = (params: { message: string; requestedSchema?: unknown }) => ElicitResult | Promise<ElicitResult>;

export interface StdioConnection<C> {
  client: C;
  /** The pid of `edge-mcp stdio`. */
  pid: number;
  stderr(): string;
}

/** SDK v1 (2025-11-25) over stdio; `elicit` declares the elicitation capability and answers it. */
export async function connectLegacyStdio(args: string[], persistTo: string, elicit?: ElicitHandler): Promise<StdioConnection<LegacyClient>> {
  const client = new LegacyClient({ name: "edge-mcp-e2e-stdio-legacy", version: "0.0.0" }, elicit ? { capabilities: { elicitation: {} } } : {});
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  const transport = new LegacyStdioTransport(stdioServer(args, persistTo));
  const stderr = collect(transport.stderr as Readable | null);
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`edge-mcp stdio did not connect: ${String(error)}\n--- stderr ---\n${stderr()}`, { cause: error });
  }
  if (client.getServerCapabilities() === undefined || transport.pid === null) throw new Error("no initialize answer");
  return { client, pid: transport.pid, stderr };
}

/**
 * Client v2 pinned to 2026-07-28 over stdio. It probes `server/discover` on a short-lived sibling
 * process first (spawned from the same parameters, then stopped), so two servers start.
 */
export async function connectModernStdio(args: string[], persistTo: string, elicit?: ElicitHandler): Promise<StdioConnection<ModernClient>> {
  const client = new ModernClient(
    { name: "edge-mcp-e2e-stdio-modern", version: "0.0.0" },
    { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION }, probe: { maxRetries: 0 } }, ...(elicit ? { capabilities: { elicitation: {} } } : {}) },
  );
  if (elicit) client.setRequestHandler("elicitation/create", (request) => elicit(request.params as { message: string }));
  const transport = new ModernStdioTransport(stdioServer(args, persistTo));
  const stderr = collect(transport.stderr as Readable | null);
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`edge-mcp stdio did not connect: ${String(error)}\n--- stderr ---\n${stderr()}`, { cause: error });
  }
  if (transport.pid === null) throw new Error("no process");
  return { client, pid: transport.pid, stderr };
}

export { LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION };

/** `edge-mcp stdio` spawned directly with pipes, leading its own process group (workerd joins it). */
export function spawnEdgeMcp(args: string[], options: { cwd?: string; persistTo?: string; env?: Record<string, string> } = {}): ChildProcessWithoutNullStreams {
  const persist = options.persistTo === undefined ? [] : ["--persist-to", options.persistTo];
  return spawn(process.execPath, [EDGE_MCP, "stdio", ...persist, ...args], {
    cwd: options.cwd ?? ROOT,
    detached: true,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Whether any process of the group led by `pid` is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the process `pid` is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every descendant of `pid` now (workerd and anything else it started), from ps. */
export function descendants(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((row) => row.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** Waits until `check` holds (polling), failing with `what` after `timeoutMs`. Not a speed assertion: a deadline for a wait. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Kills what is left of a group (cleanup after a failed test). */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}
