/** A tool service's MCP Apps, as app declarations: their HTML read over RPC within the module's timeout, their tools the service's own. */

import { isObject } from "../core/json.ts";
import type { AppDefinition } from "../server/apps/app.ts";
import { checkApp, uiUriProblem } from "../server/apps/check-app.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";
import type { ServiceApp, ToolService } from "./service-contract.ts";
import { ModuleFailure, callContext, withTimeout, type ServiceModuleOptions } from "./service-module.ts";

/**
 * The apps a service lists, each linked to the service's tools it names (already prefixed in
 * `tools`). Those tools are taken out of `tools`: apps() lists them, linked. An app that names a
 * tool the service does not list, or that has no `readApp()`, is refused (logged) and its tools
 * stay plain. The apps() checks (URI, CSP) still run on what is returned.
 */
export function serviceApps(
  service: ToolService,
  listed: readonly unknown[],
  tools: ToolDefinition[],
  options: ServiceModuleOptions,
): { apps: AppDefinition[]; refused: string[] } {
  const apps: AppDefinition[] = [];
  const refused: string[] = [];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const value of listed) {
    if (!isObject(value) || typeof value["uri"] !== "string" || typeof value["name"] !== "string") {
      refused.push(`an app without a uri and a name`);
      continue;
    }
    const app = value as unknown as ServiceApp;
    const uriProblem = uiUriProblem(app.uri);
    if (uriProblem) {
      refused.push(`app uri ${uriProblem}`);
      continue;
    }
    const pick = (names: unknown): ToolDefinition[] | string => {
      if (names === undefined) return [];
      if (!Array.isArray(names)) return `app ${app.uri}: tools and appTools must be lists of tool names`;
      const found: ToolDefinition[] = [];
      for (const name of names) {
        const tool = typeof name === "string" ? byName.get(`${options.prefix}_${name}`) : undefined;
        if (!tool) return `app ${app.uri}: names the tool ${String(name)}, which the service does not list`;
        found.push(tool);
      }
      return found;
    };
    const shown = pick(app.tools);
    const appOnly = pick(app.appTools);
    if (typeof shown === "string" || typeof appOnly === "string") {
      refused.push(typeof shown === "string" ? shown : (appOnly as string));
      continue;
    }
    // An RPC stub has every method (a missing one fails when called), so this catches local services only.
    if (typeof service.readApp !== "function") {
      refused.push(`app ${app.uri}: the service has no readApp()`);
      continue;
    }
    const served: AppDefinition = {
      uri: `ui://${options.prefix}/${app.uri.replace(/^ui:\/\//, "")}`,
      name: app.name,
      ...(app.title === undefined ? {} : { title: app.title }),
      ...(app.description === undefined ? {} : { description: app.description }),
      ...(app.csp === undefined ? {} : { csp: app.csp }),
      ...(app.permissions === undefined ? {} : { permissions: app.permissions }),
      ...(app.domain === undefined ? {} : { domain: app.domain }),
      ...(app.prefersBorder === undefined ? {} : { prefersBorder: app.prefersBorder }),
      html: async (ctx) => {
        try {
          return await withTimeout(
            (service.readApp as NonNullable<ToolService["readApp"]>)(app.uri, callContext(ctx)),
            options.timeoutMs,
            options.name,
            `readApp(${app.uri})`,
          );
        } catch (error) {
          if (error instanceof ModuleFailure) throw error;
          throw new ModuleFailure(`module ${options.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
      tools: shown,
      appTools: appOnly,
    };
    try {
      // One bad app (a CSP entry that is not an origin) is refused alone; the service's other apps are served.
      checkApp(served, `module ${options.name}`);
    } catch (error) {
      refused.push(error instanceof Error ? error.message : String(error));
      continue;
    }
    for (const tool of [...shown, ...appOnly]) tools.splice(tools.indexOf(tool), 1);
    apps.push(served);
  }
  return { apps, refused };
}
