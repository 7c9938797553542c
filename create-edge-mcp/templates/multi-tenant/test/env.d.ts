// Types `env` and `exports` of "cloudflare:workers" in tests (what `wrangler types` would write).
declare namespace Cloudflare {
  interface Env {
    MCP_TENANTS: string;
    WEATHER: Fetcher;
    TOOL_RATE_LIMIT: RateLimit;
    MCP_SESSIONS: DurableObjectNamespace;
    MCP_QUOTAS: DurableObjectNamespace<import("../src/index").McpQuotaObject>;
  }
  interface GlobalProps {
    mainModule: typeof import("../src/index");
  }
}
