// Finds Debian's chromium (installing it with apt-get when missing and allowed) and launches it headless with a fresh profile.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";

function which(name: string): string | undefined {
  try {
    return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The chromium binary; installs Debian's package once when it is missing and this process may (root). */
export function chromiumPath(): string {
  const found = which("chromium");
  if (found) return found;
  if (process.getuid?.() === 0 && which("apt-get")) {
    execFileSync("apt-get", ["install", "-y", "chromium"], { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    const installed = which("chromium");
    if (installed) return installed;
  }
  throw new Error("chromium is not installed: apt-get install -y chromium (Debian), or put it on PATH");
}

/** Headless chromium on a throwaway profile, with nothing in the background that reaches the network. */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "edge-mcp-chromium-"));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
