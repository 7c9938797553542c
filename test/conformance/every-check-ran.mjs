// node test/conformance/every-check-ran.mjs DIR SCENARIO... [--allow-skip CHECK_ID]...
//
// A scenario "passes" when no check FAILS, so a server that does not declare an extension passes
// its scenarios with every check SKIPPED. This reads the checks.json each scenario wrote under DIR
// (the runner's -o directory) and requires every check of every named scenario to be SUCCESS,
// except SKIPPED checks named with --allow-skip (e.g. cache attributes that only 2026-07-28 has).
// Prints one line per scenario; exits 1 when a scenario is missing or has another status.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const dir = args.shift();
const scenarios = [];
const allowed = new Set();
while (args.length > 0) {
  const arg = args.shift();
  if (arg === "--allow-skip") allowed.add(args.shift());
  else scenarios.push(arg);
}
if (!dir || scenarios.length === 0) {
  console.error("usage: every-check-ran.mjs DIR SCENARIO... [--allow-skip CHECK_ID]...");
  process.exit(2);
}

const runs = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()) : [];
let bad = 0;
for (const scenario of scenarios) {
  // The suite writes <dir>/server-<scenario>-<ISO time>/checks.json.
  const run = runs
    .filter((entry) => entry.name.startsWith(`server-${scenario}-`) && /^\d{4}-/.test(entry.name.slice(`server-${scenario}-`.length)))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .at(-1);
  const file = run && join(dir, run.name, "checks.json");
  if (!file || !existsSync(file)) {
    bad++;
    console.log(`   NOT RUN     ${scenario}  <- no checks.json under ${dir}`);
    continue;
  }
  const checks = JSON.parse(readFileSync(file, "utf8"));
  const off = checks.filter((check) => check.status !== "SUCCESS" && !(check.status === "SKIPPED" && allowed.has(check.id)));
  const skipped = checks.filter((check) => check.status === "SKIPPED").length;
  if (checks.length === 0 || off.length > 0) {
    bad++;
    const detail = off.length === 0 ? "no checks" : off.map((check) => `${check.id} ${check.status}`).join(", ");
    console.log(`   NOT ALL RUN ${scenario}  <- ${detail}`);
  } else {
    const skips = skipped > 0 ? `, ${skipped} SKIPPED as allowed (${[...allowed].join(", ")})` : "";
    console.log(`   all run     ${scenario}: ${checks.length - skipped} of ${checks.length} checks SUCCESS${skips}`);
  }
}
process.exit(bad === 0 ? 0 : 1);
