// e2e global setup: `wrangler dev` servers of the root wrangler.toml (auto and sse response modes), the multi-tenant
// example with the tool service, and the large-catalogue example.
import type { TestProject } from "vitest/node";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL (no path) of `wrangler dev` with the [vars] of wrangler.toml as they are. */
    baseUrlAuto: string;
    /** Base URL (no path) of `wrangler dev` with `--var MCP_RESPONSE_MODE:sse`. */
    baseUrlSse: string;
    /** Base URL (no path) of the multi-tenant example served with the tool service. */
    baseUrlMultiTenant: string;
    /** Base URL (no path) of the large-catalogue example: 10,000 tools, tool search, API keys. */
    baseUrlLargeCatalog: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers: WranglerDev[] = [];
  const teardown = async (): Promise<void> => {
    reportCrashes(servers);
    const results = await Promise.allSettled(servers.map((server) => server.stop()));
    const failures = results.filter((result) => result.status === "rejected");
    if (failures.length > 0)
      throw new AggregateError(
        failures.map((f): unknown => f.reason),
        "wrangler dev teardown failed",
      );
  };
  try {
    // One at a time: two cold starts at once on a 2-core machine only slow each other down.
    servers.push(await startWranglerDev({ name: "auto" }));
    servers.push(await startWranglerDev({ name: "sse", vars: { MCP_RESPONSE_MODE: "sse" } }));
    servers.push(await startWranglerDev({ name: "multi-tenant", configPath: ["examples/multi-tenant/wrangler.toml", "examples/tool-service/wrangler.toml"] }));
    servers.push(await startWranglerDev({ name: "large-catalog", configPath: "examples/large-catalog/wrangler.toml" }));
  } catch (error) {
    await teardown();
    throw error;
  }
  const [auto, sse, multiTenant, largeCatalog] = servers as [WranglerDev, WranglerDev, WranglerDev, WranglerDev];
  project.provide("baseUrlAuto", auto.baseUrl);
  project.provide("baseUrlSse", sse.baseUrl);
  project.provide("baseUrlMultiTenant", multiTenant.baseUrl);
  project.provide("baseUrlLargeCatalog", largeCatalog.baseUrl);
  return teardown;
}

/**
 * Prints the output of every server whose workerd crashed and was restarted by miniflare: a request in flight then
 * gets wrangler's 503 "Your worker restarted mid-request" in whichever test sent it, far from the cause.
 */
function reportCrashes(servers: WranglerDev[]): void {
  for (const server of servers) {
    const output = server.output();
    if (output.includes("crashed unexpectedly")) console.error(`workerd of wrangler dev (${server.name}) crashed during the e2e run:\n${output}`);
  }
}
