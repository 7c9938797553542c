// The deployable size of a Worker, as `wrangler deploy` uploads it, and the sizes docs/templates.md claims for each template.
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { run } from "./run.ts";

/** How far a measured size may be from the figure of docs/templates.md, either way. */
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

/** The guide whose table gives each template's deployable size, from the repository's root. */
export const SIZES_DOC = "docs/templates.md";

/** The heading of the table of template sizes in {@link SIZES_DOC}; its rows are `| Worker | N KiB |`. */
const TABLE_HEADING = "| Worker | deployable bundle (gzip) |";

/** The template sizes of {@link SIZES_DOC}'s text, by the text of the row's first cell (e.g. "`basic`"). */
export function templateSizes(doc: string): Map<string, number> {
  const lines = doc.split("\n");
  const start = lines.findIndex((line) => line.trim() === TABLE_HEADING);
  if (start < 0) throw new Error(`${SIZES_DOC} has no table headed ${TABLE_HEADING}`);
  const sizes = new Map<string, number>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split("|").map((cell) => cell.trim());
    const kib = /^([\d.]+) KiB$/.exec(cells[2] ?? "")?.[1];
    if (cells[1] === undefined || kib === undefined) throw new Error(`${SIZES_DOC}: size table row without a "N KiB" figure: ${line}`);
    sizes.set(cells[1], Number(kib));
  }
  return sizes;
}
