// The workerd binary the benches run (wrangler's own miniflare's) and a free local port for it.
import { join } from "node:path";
import { createRequire } from "node:module";
import net from "node:net";
import { ROOT } from "./bundling.mjs";

/**
 * The workerd binary `npm run bench` runs: the one of wrangler's own miniflare (the package root may hold a
 * newer workerd for other tools, with another V8: counting that one would not explain the bench's times).
 */
export function benchWorkerd() {
  try {
    const fromMiniflare = createRequire(createRequire(join(ROOT, "node_modules/wrangler/package.json")).resolve("miniflare"));
    const main = fromMiniflare("workerd");
    return /** @type {string} */ (main.default ?? main);
  } catch {
    return join(ROOT, "node_modules/@cloudflare/workerd-linux-64/bin/workerd");
  }
}
/** A free TCP port on 127.0.0.1. */
export const freePort = () =>
  new Promise((done, fail) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
    server.on("error", fail);
  });
