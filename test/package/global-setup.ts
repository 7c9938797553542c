// Package test setup: packs edge-mcp (its prepack builds dist/) and create-edge-mcp into a temporary directory, once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { run } from "./run.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The temporary directory holding the tarballs; tests make their projects in it. */
    packDir: string;
    /** The packed edge-mcp, as `npm publish` would upload it. */
    edgeMcpTarball: string;
    /** The packed create-edge-mcp. */
    createTarball: string;
  }
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `npm pack` of the package in `dir` into `destination`; returns the tarball's path. */
async function pack(dir: string, destination: string): Promise<string> {
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination], { cwd: dir });
  // prepack (the build) may print before npm's JSON, which starts at the first line that opens with "[".
  const packed = JSON.parse(stdout.slice(Math.max(0, stdout.search(/^\[/m)))) as { filename: string }[];
  const filename = packed[0]?.filename;
  if (!filename) throw new Error(`npm pack in ${dir} named no tarball:\n${stdout}`);
  return join(destination, filename);
}

export default async function setup(project: TestProject): Promise<() => void> {
  const packDir = mkdtempSync(join(tmpdir(), "edge-mcp-package-"));
  try {
    project.provide("packDir", packDir);
    project.provide("edgeMcpTarball", await pack(ROOT, packDir));
    project.provide("createTarball", await pack(join(ROOT, "create-edge-mcp"), packDir));
  } catch (error) {
    rmSync(packDir, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(packDir, { recursive: true, force: true });
}
