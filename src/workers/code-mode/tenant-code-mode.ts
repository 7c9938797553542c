/** Code mode for the tenants of a multi-tenant Worker that turn it on: an opt-in, so others bundle none of it. */

import type { Feature } from "../../server/feature.ts";
import { codeMode } from "../../server/code-mode/code-mode-feature.ts";
import type { CodeModeLimits } from "../../server/code-mode/code-mode-options.ts";
import { workerLoaderRunner } from "./worker-loader-runner.ts";

/** What `createMultiTenantWorker({ codeMode })` takes: code mode, built per tenant on the env's Worker Loader. */
export interface TenantCodeMode {
  readonly kind: "edge-mcp/tenant-code-mode";
  /** The feature for one tenant's limits, on `MCP_LOADER`; undefined when the env has no loader bound. */
  feature(loader: WorkerLoader | undefined): ((limits: CodeModeLimits) => Feature) | undefined;
}

/**
 * Lets tenants turn code mode on (`"codeMode": true` in their config), each run in a Dynamic Worker
 * of the `MCP_LOADER` binding (`[[worker_loaders]]`). Without it, a tenant that asks for code mode
 * fails alone with an error that says to add it; Workers that leave it out bundle no code mode.
 *
 * @example
 * export default createMultiTenantWorker({ modules, codeMode: tenantCodeMode() });
 */
export function tenantCodeMode(): TenantCodeMode {
  return {
    kind: "edge-mcp/tenant-code-mode",
    feature: (loader) => loader && ((limits) => codeMode({ runner: workerLoaderRunner(loader), limits })),
  };
}
