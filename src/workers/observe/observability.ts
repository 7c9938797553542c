/**
 * Observability for a Worker, an opt-in import: `createWorker(server, { observe: observability() })`.
 * Then the standard OTEL_* variables export spans (OTLP/HTTP JSON), a registered OpenTelemetry
 * provider receives them otherwise, MCP_USAGE (Analytics Engine) and MCP_USAGE_ROLLUPS
 * (McpUsageObject) receive one usage record per admitted request, and MCP_ADMIN_TOKEN turns on
 * the usage view at `/admin/usage`. A Worker that does not import it bundles none of this.
 */

import type { RequestObserver } from "../../http/observer.ts";
import { createObserver, type Observer } from "../../observe/mcp-observer.ts";
import { otlpSettings, type OtlpEnv } from "../../observe/otlp/otlp-export.ts";
import { analyticsSink, type UsageSink } from "../../observe/usage/usage-record.ts";
import { handleUsageView, USAGE_PATH } from "../../observe/usage/usage-view.ts";
import { observeObjects } from "./object-spans.ts";
import { durableUsage, type McpUsageObject } from "./usage-object.ts";

/** The bindings and vars observability reads (all optional). */
export interface ObservabilityEnv extends OtlpEnv {
  /** Workers Analytics Engine dataset: one data point per admitted request. */
  MCP_USAGE?: AnalyticsEngineDataset;
  /** The McpUsageObject namespace: hourly roll-ups per tenant, by tool and by caller. */
  MCP_USAGE_ROLLUPS?: DurableObjectNamespace<McpUsageObject>;
  /** Secret: turns on `GET /admin/usage` for `Authorization: Bearer <token>`. */
  MCP_ADMIN_TOKEN?: string;
}

/** What a Worker entry asks of its observability, per env. */
export interface Observability {
  /** The observer of the env's endpoints (built once per env). */
  observer(env: object): RequestObserver;
  /** The answer of the usage view when the request is for it, else undefined. */
  adminRoute(request: Request, env: object): Promise<Response> | undefined;
}

/**
 * Turns on traces, usage metering and the usage view for `createWorker` or
 * `createMultiTenantWorker` (option `observe`), configured by the env alone.
 *
 * @example
 * export default createWorker(server, { observe: observability() });
 */
export function observability(): Observability {
  const observers = new WeakMap<object, Observer>();
  const observerOf = (env: object): Observer => {
    let observer = observers.get(env);
    if (!observer) {
      const vars = env as ObservabilityEnv;
      const usage: UsageSink[] = [];
      if (vars.MCP_USAGE) usage.push(analyticsSink(vars.MCP_USAGE));
      if (vars.MCP_USAGE_ROLLUPS) usage.push(durableUsage(vars.MCP_USAGE_ROLLUPS));
      observer = createObserver({ otlp: otlpSettings(vars), usage });
      observers.set(env, observer);
    }
    return observer;
  };
  // The Worker's objects (the notification hub) run this module too: their own work joins the traces.
  observeObjects((env) => observerOf(env).objectSpan);
  return {
    observer: observerOf,
    adminRoute(request, env) {
      const vars = env as ObservabilityEnv;
      // Without the token the view is off: the request goes on untouched (its URL is not even read).
      if (!vars.MCP_ADMIN_TOKEN) return undefined;
      const url = request.url;
      // Cheap test first: most requests are for the MCP endpoint.
      if (!url.includes(USAGE_PATH) || new URL(url).pathname !== USAGE_PATH) return undefined;
      return handleUsageView(request, vars.MCP_ADMIN_TOKEN, vars.MCP_USAGE_ROLLUPS ? durableUsage(vars.MCP_USAGE_ROLLUPS) : undefined);
    },
  };
}
