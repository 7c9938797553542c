/** MCP Apps as an opt-in feature: `apps([...])` serves the `ui://` resources, links their tools and declares the extension. */

import { DefinitionError } from "../../core/definition-error.ts";
import { invalidParams } from "../../core/errors.ts";
import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";
import type { TransportContext } from "../context/transport.ts";
import type { Feature } from "../feature.ts";
import type { ResourceDefinition } from "../resources/resource.ts";
import { resourcesFeature } from "../resources/resources-feature.ts";
import { ADDED_RESOURCES } from "../resources/resource-services.ts";
import type { ToolFilter } from "../tools/tool-filter.ts";
import type { ToolReader } from "../tools/tool-view.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import { APP_MIME_TYPE, APPS_EXTENSION, type AppAssetLoader, type AppDefinition } from "./app.ts";
import { appResource, checkLoader } from "./app-resource.ts";
import { checkApp, checkLinkedTool, linkTool } from "./check-app.ts";

export interface AppsOptions {
  /** Reads `{ asset }` HTML: `staticAssets()` from `edge-mcp/workers` on Workers (an `[assets]` binding). */
  assets?: AppAssetLoader | undefined;
  /** Tools declared outside the apps that name one in `_meta.ui.resourceUri` (as official SDK code does). */
  tools?: readonly ToolDefinition[] | undefined;
}

/** What `apps()` compiles: the resources and linked tools, and which tools only an app may call. */
export interface CompiledApps {
  readonly resources: ResourceDefinition[];
  readonly tools: ToolDefinition[];
  /** Tools whose visibility leaves out "model". */
  readonly appOnly: ReadonlySet<string>;
}

/** True when the client declared the extension with the app mime type (SEP-1865 "Capability Negotiation"). */
export function declaresApps(clientCapabilities: JsonObject): boolean {
  const extensions = clientCapabilities["extensions"];
  const ui = isObject(extensions) ? extensions[APPS_EXTENSION] : undefined;
  if (!isObject(ui)) return false;
  const types = ui["mimeTypes"];
  return types === undefined || (Array.isArray(types) && types.includes(APP_MIME_TYPE));
}

/**
 * Whether this request comes from a client known not to render apps: a 2026-07-28 request (its
 * capabilities travel with it) or a 2025 session (from `initialize`) without the extension. A 2025
 * stateless request carries no capabilities, so it is treated as the spec's host-side rules expect.
 */
function knownWithoutApps(ctx: TransportContext): boolean {
  return (ctx.era === "modern" || ctx.sessionful === true) && !declaresApps(ctx.clientCapabilities);
}

/** Checks the apps and their tools once; throws a DefinitionError naming the app, tool and field. */
export function compileApps(list: readonly AppDefinition[], options: AppsOptions = {}): CompiledApps {
  if (!Array.isArray(list)) throw new DefinitionError(`apps() takes an array of apps from defineApp`);
  const resources: ResourceDefinition[] = [];
  const tools: ToolDefinition[] = [];
  const uris = new Set<string>();
  list.forEach((app: AppDefinition, i: number) => {
    const where = `apps[${i}]`;
    checkApp(app, where);
    checkLoader(app, options.assets, where);
    if (uris.has(app.uri)) throw new DefinitionError(`${where}: the app ${app.uri} is declared twice`);
    uris.add(app.uri);
    resources.push(appResource(app, options.assets));
    const none: readonly ToolDefinition[] = [];
    (app.tools ?? none).forEach((tool, t) => tools.push(linkTool(tool, app.uri, false, `${where}.tools[${t}]`)));
    (app.appTools ?? none).forEach((tool, t) => tools.push(linkTool(tool, app.uri, true, `${where}.appTools[${t}]`)));
  });
  (options.tools ?? []).forEach((tool, t) => tools.push(checkLinkedTool(tool, uris, `apps options.tools[${t}]`)));
  const appOnly = new Set<string>();
  for (const tool of tools) {
    const ui = tool._meta?.["ui"];
    const visibility = isObject(ui) ? ui["visibility"] : undefined;
    if (Array.isArray(visibility) && !visibility.includes("model")) appOnly.add(tool.name);
  }
  return { resources, tools, appOnly };
}

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): serves each app's HTML as a `ui://`
 * resource (`text/html;profile=mcp-app`, `_meta.ui` with its CSP and permissions, a digest),
 * lists its tools with `_meta.ui.resourceUri`, and declares the extension in `initialize` and
 * `server/discover`. A client known not to render apps does not see app-only tools, and calling
 * one is refused as an unknown tool; every other tool answers it with its text, as usual. Tool
 * search never offers an app-only tool to any client, and its `call_tool` refuses one as unknown.
 *
 * @example
 * const server = createServer({ info, features: [apps([counter])] });
 */
export function apps(list: readonly AppDefinition[], options: AppsOptions = {}): Feature {
  const compiled = compileApps(list, options);
  // Which tools are hidden depends on the request's declared extensions only: its pages stay cacheable as usual.
  const hidden: ToolFilter = { key: "apps:hidden", allows: (name) => !compiled.appOnly.has(name), shared: true };
  return {
    name: "apps",
    // The apps' ui:// resources are served by the resources feature.
    requires: [resourcesFeature],
    tools: compiled.tools,
    provides: [ADDED_RESOURCES],
    install: (host) => {
      host.provide(ADDED_RESOURCES, compiled.resources);
      return {
        extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
        ...(compiled.appOnly.size === 0
          ? {}
          : {
              // A model is never offered an app-only tool (tool search); a client's list hides it only where apps do not render.
              toolFilter: (ctx: TransportContext, reader: ToolReader) => (reader === "model" || knownWithoutApps(ctx) ? hidden : undefined),
              callTool: (tool, _request, ctx) => {
                if (compiled.appOnly.has(tool.name) && knownWithoutApps(ctx)) throw invalidParams(`Unknown tool: ${tool.name}`);
                return undefined;
              },
            }),
      };
    },
  };
}
