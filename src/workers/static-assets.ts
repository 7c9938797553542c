/** Reads MCP App HTML from the Worker's Static Assets binding, on demand (never at module load). */

import { env } from "cloudflare:workers";
import type { AppAssetLoader } from "../server/apps/app.ts";

/** The host of the URLs handed to the assets binding: it serves by path alone. */
const ASSETS_ORIGIN = "https://assets.invalid";

/**
 * The loader of `apps([...], { assets: staticAssets() })`: each `{ asset: "/path.html" }` app is
 * fetched from the `[assets]` binding (default `ASSETS`) on its first read in an isolate. A Worker
 * keeps large app HTML out of its bundle this way, so its startup does not grow with its apps.
 *
 * @example
 * // wrangler.toml: [assets] directory = "./public", binding = "ASSETS"
 * apps([board], { assets: staticAssets() })
 */
export function staticAssets(binding = "ASSETS"): AppAssetLoader {
  return async (path) => {
    const fetcher = (env as unknown as Record<string, unknown>)[binding] as Fetcher | undefined;
    if (!fetcher || typeof fetcher.fetch !== "function") {
      throw new Error(`apps: the static assets binding ${binding} is not bound; add [assets] with binding = "${binding}" to wrangler.toml`);
    }
    const response = await fetcher.fetch(new Request(new URL(path, ASSETS_ORIGIN)));
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`apps: the static asset ${path} answered ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}
