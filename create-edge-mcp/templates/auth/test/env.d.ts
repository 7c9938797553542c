// Types `env` and `exports` of "cloudflare:workers" in tests (what `wrangler types` would write).
declare namespace Cloudflare {
  interface Env {
    MCP_RESOURCE: string;
    AUTH_ISSUER: string;
    AUTH_JWKS_URI: string;
    MCP_API_KEYS: string;
  }
  interface GlobalProps {
    mainModule: typeof import("../src/index");
  }
}
