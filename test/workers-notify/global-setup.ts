// workers-notify global setup: bundles the fixture Worker (as `wrangler deploy` would) for its run
// as an auxiliary Worker, which keeps workerd's default flags (the runner's turn cross-request
// wake-ups off). The bundle goes to .wrangler/notify-fixture (ignored by git).
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export const FIXTURE_BUNDLE_DIR = resolve(import.meta.dirname, "../../.wrangler/notify-fixture");

export default function setup(): void {
  execFileSync(
    resolve(import.meta.dirname, "../../node_modules/.bin/wrangler"),
    ["deploy", "--dry-run", "--config", resolve(import.meta.dirname, "fixture/wrangler.toml"), "--outdir", FIXTURE_BUNDLE_DIR],
    {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" },
      stdio: "pipe",
    },
  );
}
