// Types `env` of "cloudflare:workers" in tests (what `wrangler types` would write).
declare namespace Cloudflare {
  interface Env {
    OIDC_ISSUER: string;
    OIDC_CLIENT_ID: string;
    OAUTH_KV: KVNamespace;
  }
}
