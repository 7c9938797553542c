/** How an MCP App is declared (the `io.modelcontextprotocol/ui` extension, SEP-1865): a `ui://` HTML resource and the tools that show it. */

import type { Icon, JsonObject } from "../../core/types.ts";
import type { HandlerContext } from "../context/handler-context.ts";
import type { ToolDefinition } from "../tools/tool.ts";

/** The extension's id, declared in `capabilities.extensions` by servers and by hosts that render apps. */
export const APPS_EXTENSION = "io.modelcontextprotocol/ui";

/** The mime type of an app's HTML resource (SEP-1865 "UI Resource Format"). */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The flat tool `_meta` key older hosts read for the app of a tool (deprecated by the spec, still sent). */
export const FLAT_RESOURCE_URI_KEY = "ui/resourceUri";

/** Who may call a tool: the model (listed to the agent), the app (called through its host), or both (the default). */
export type AppVisibility = "model" | "app";

/** Origins the app's iframe may reach; the host turns them into its Content Security Policy. Empty means none. */
export interface AppCsp {
  /** fetch/XHR/WebSocket origins (`connect-src`), e.g. `https://api.example.com`, `wss://live.example.com`. */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts and media (`script-src`, `img-src`, …); `https://*.example.com` is allowed. */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** Base URIs of the document (`base-uri`). */
  baseUriDomains?: string[];
}

/** Browser capabilities the app asks the host for (its iframe's `allow`); the host may refuse any. */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/**
 * Reads an app's file from where the Worker keeps its static files (a Workers Static Assets
 * binding: see `staticAssets()` in `edge-mcp/workers`). Called on the first read of each app, per
 * isolate; never at module load. `undefined` means no such file.
 */
export type AppAssetLoader = (path: string) => Promise<string | Uint8Array | undefined>;

/**
 * Where an app's HTML comes from: a string in the bundle (small apps); `{ asset: "/path.html" }`,
 * a file of the Worker's static assets, read on demand (the default for real apps: bundling large
 * HTML costs every isolate its startup CPU); or a function of the request's context.
 */
export type AppHtml = string | { asset: string } | ((ctx: HandlerContext) => string | Uint8Array | Promise<string | Uint8Array>);

export interface AppDefinition {
  /** The app's resource, `ui://` then an authority and a path, e.g. `ui://weather/forecast.html`. */
  uri: string;
  /** Short name of the resource (`resources/list`). */
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  html: AppHtml;
  /** Origins the app reaches; omitted means none (the host's restrictive default). */
  csp?: AppCsp;
  permissions?: AppPermissions;
  /** A dedicated sandbox origin, in the host's own format (host-dependent; see SEP-1865). */
  domain?: string;
  /** Whether the host should draw a border and background around the app. */
  prefersBorder?: boolean;
  /** Tools that show this app; visible to the model and callable by the app unless their `_meta.ui.visibility` says otherwise. */
  tools?: readonly ToolDefinition[];
  /** Tools only the app calls (visibility `["app"]`): hidden from the model. */
  appTools?: readonly ToolDefinition[];
}

/**
 * Declares an MCP App: its HTML resource and the tools that show it. Serve it with
 * `createServer({ features: [apps([app])] })`.
 *
 * @example
 * const counter = defineApp({
 *   uri: "ui://counter/app.html",
 *   name: "counter",
 *   html: "<!doctype html><title>Counter</title><p id=n>0</p>",
 *   tools: [defineTool({ name: "show_counter", description: "Shows a counter.", inputSchema: { type: "object" }, handler: () => "Counter: 0" })],
 * });
 */
export function defineApp(definition: AppDefinition): AppDefinition {
  return definition;
}

/** The `_meta.ui` of an app's resource, as sent in `resources/list` and in each `resources/read` content. */
export function appResourceMeta(app: AppDefinition): JsonObject {
  const ui: JsonObject = {};
  if (app.csp) ui["csp"] = app.csp;
  if (app.permissions) ui["permissions"] = app.permissions;
  if (app.domain !== undefined) ui["domain"] = app.domain;
  if (app.prefersBorder !== undefined) ui["prefersBorder"] = app.prefersBorder;
  return ui;
}
