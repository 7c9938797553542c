// Types the Worker's main module for `exports` from "cloudflare:workers" (same shape `wrangler types` emits).
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("../../examples/hello/src/index");
  }
}
