// Types `exports` of "cloudflare:workers" in tests: the Worker's main module (what `wrangler types` would write).
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("../src/index");
  }
}
