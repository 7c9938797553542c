// The deployable size of a Worker, as `wrangler deploy` uploads it, and the sizes README.md claims for each template.
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { run } from "./run.ts";

/** How far a measured size may be from README.md's figure, either way. */
export const SIZE_TOLERANCE_KIB = 2;

/**
 * `wrangler deploy --dry-run --outdir` of the Worker of `config` in `project`, with the project's own
 * wrangler; returns the gzip size of the bundle in KiB (zlib defaults, as wrangler's "gzip:" figure;
 * the source map is not counted, as it is not part of the script).
 */
export async function deployableGzipKiB(project: string, config: string): Promise<number> {
  const outdir = mkdtempSync(join(project, ".bundle-"));
  await run(join(project, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--config", config, "--outdir", outdir], { cwd: project });
  return gzipSync(readFileSync(join(outdir, "index.js"))).length / 1024;
}

/** The heading of README.md's table of template sizes; its rows are `| Worker | N KiB |`. */
const TABLE_HEADING = "| Worker | deployable bundle (gzip) |";

/** README.md's template sizes, by the text of the row's first cell (e.g. "`basic`"). */
export function readmeSizes(readme: string): Map<string, number> {
  const lines = readme.split("\n");
  const start = lines.findIndex((line) => line.trim() === TABLE_HEADING);
  if (start < 0) throw new Error(`README.md has no table headed ${TABLE_HEADING}`);
  const sizes = new Map<string, number>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split("|").map((cell) => cell.trim());
    const kib = /^([\d.]+) KiB$/.exec(cells[2] ?? "")?.[1];
    if (cells[1] === undefined || kib === undefined) throw new Error(`README.md: size table row without a "N KiB" figure: ${line}`);
    sizes.set(cells[1], Number(kib));
  }
  return sizes;
}
