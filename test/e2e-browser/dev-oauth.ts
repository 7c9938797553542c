// Runs `npm run dev:oauth` (scripts/dev-oauth.mjs) as a user does: the local OpenID provider and wrangler dev of examples/oauth, stopped together.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePorts } from "../e2e/free-ports.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface DevOAuth {
  readonly baseUrl: string;
  /** The local OpenID provider's issuer, as the script printed it. */
  readonly issuer: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts the script on a free port (its inspector on another, a fresh KV directory) and waits until /mcp answers. */
export async function startDevOAuth(env: Record<string, string> = {}): Promise<DevOAuth> {
  const [port, inspector] = await freePorts(2);
  const persist = mkdtempSync(join(tmpdir(), "edge-mcp-oauth-kv-"));
  const child = spawn(
    process.execPath,
    [
      "scripts/dev-oauth.mjs",
      "--port",
      String(port),
      "--inspector-port",
      String(inspector),
      "--persist-to",
      persist,
      "--log-level",
      "warn",
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false" },
    },
  );
  let log = "";
  child.stdout.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-64_000)));
  child.stderr.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-64_000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, "SIGTERM");
    await exited;
    rmSync(persist, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const response = await fetch(`${baseUrl}/.well-known/oauth-authorization-server`).catch(() => undefined);
    if (response?.ok) {
      const issuer = /Local OpenID provider at (\S+) /.exec(log)?.[1];
      if (issuer === undefined) throw new Error(`no issuer printed:\n${log}`);
      return { baseUrl, issuer, output: () => log, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await stop();
  throw new Error(`npm run dev:oauth did not start:\n${log}`);
}
