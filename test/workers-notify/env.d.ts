// The bindings of the workers-notify runner (fixture/wrangler.toml plus vitest.config.ts).
declare namespace Cloudflare {
  interface Env {
    /** The runner's own hub (the fixture as the Worker under test: the fallback path). */
    MCP_NOTIFICATIONS: DurableObjectNamespace<import("../../src/workers/notifications/notification-hub.ts").McpNotificationHub>;
    /** The fixture bundled as an auxiliary Worker, with workerd's default flags. */
    NOTIFY: Fetcher;
    /** The auxiliary Worker's hub class. */
    NOTIFY_HUB: DurableObjectNamespace<import("../../src/workers/notifications/notification-hub.ts").McpNotificationHub>;
  }
}
