// MCP Apps bench (bundle): what apps cost a Worker's bundle, the part of its startup that grows
// with what it carries. Bundles the Workers of apps-workers.mjs (a one-tool Worker without apps, the
// same with 20 apps of 200 KiB whose HTML is a static asset, and with the HTML inlined as strings);
// prints raw and gzip sizes. Run: node test/bench/apps-bundle.mjs (npm run bench:apps runs it, then apps-boot.mjs)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { VARIANTS, bundle } from "./apps-workers.mjs";

const dir = mkdtempSync(join(tmpdir(), "edge-mcp-apps-bench-"));
try {
  const rows = [];
  for (const [name, variant] of Object.entries(VARIANTS)) {
    if (name === "no apps, assets bound") continue; // the same bundle as "no apps"
    const entry = join(dir, `${rows.length}.js`);
    writeFileSync(entry, variant.source);
    const bytes = await bundle(entry);
    rows.push({ name, kib: bytes.length / 1024, gzipKib: gzipSync(bytes).length / 1024 });
  }
  for (const row of rows) console.log(`${row.name.padEnd(36)} ${row.kib.toFixed(1).padStart(8)} KiB  ${row.gzipKib.toFixed(1).padStart(7)} KiB gzip`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
