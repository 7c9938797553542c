/** Startup checks of app declarations: `ui://` URIs, CSP origins, permissions, and the tools linked to each app. */

import { DefinitionError } from "../../core/definition-error.ts";
import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import { FLAT_RESOURCE_URI_KEY, type AppDefinition, type AppVisibility } from "./app.ts";

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSIONS: ReadonlySet<string> = new Set(["camera", "microphone", "geolocation", "clipboardWrite"]);
const APP_KEYS: ReadonlySet<string> = new Set([
  "uri",
  "name",
  "title",
  "description",
  "icons",
  "html",
  "csp",
  "permissions",
  "domain",
  "prefersBorder",
  "tools",
  "appTools",
]);
const ORIGIN_SCHEMES: ReadonlySet<string> = new Set(["https:", "http:", "wss:", "ws:"]);
/** `ui://` + an authority + an optional path; no spaces, query or fragment (a host matches the URI exactly). */
const UI_URI = /^ui:\/\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?$/;
const MAX_URI = 512;

/** True for `scheme://host[:port]` (a CSP source origin), with `*.` allowed before the host. */
export function isOrigin(value: string): boolean {
  const wildcard = /^[a-z]+:\/\/\*\./.test(value);
  let url: URL;
  try {
    url = new URL(wildcard ? value.replace("*.", "wildcard.") : value);
  } catch {
    return false;
  }
  if (!ORIGIN_SCHEMES.has(url.protocol) || url.username !== "" || url.password !== "") return false;
  // The origin as written must be the whole value: no path, query, fragment or trailing slash.
  const origin = wildcard ? url.origin.replace("wildcard.", "*.") : url.origin;
  return origin === value;
}

/** Checks a `ui://` URI; returns the problem or undefined. */
export function uiUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== "string") return `must be a string such as "ui://weather/forecast.html"`;
  if (!uri.startsWith("ui://")) return `"${uri}" must start with ui:// (e.g. "ui://weather/forecast.html")`;
  if (uri.length > MAX_URI || !UI_URI.test(uri)) {
    return `"${uri}" is not a ui:// URI: ui:// then a name of letters, digits, ".", "_", "~" or "-", then an optional /path, with no spaces, query or fragment`;
  }
  return undefined;
}

/** Throws a DefinitionError naming the app and what is wrong with it. */
export function checkApp(app: AppDefinition, where: string): void {
  if (!isObject(app)) throw new DefinitionError(`${where} must be an app from defineApp({ uri, name, html })`);
  const label = typeof app.uri === "string" ? `${where} (${app.uri})` : where;
  const fail = (path: string, problem: string): never => {
    throw new DefinitionError(`${label}: ${path} ${problem}`);
  };
  for (const key of Object.keys(app)) if (!APP_KEYS.has(key)) fail(key, `is not a field of an app (${[...APP_KEYS].join(", ")})`);
  const uriProblem = uiUriProblem(app.uri);
  if (uriProblem) fail("uri", uriProblem);
  if (typeof app.name !== "string" || app.name === "") fail("name", "must be a non-empty string");
  const html = app.html as unknown;
  if (isObject(html)) {
    if (typeof html["asset"] !== "string" || !html["asset"].startsWith("/"))
      fail("html.asset", `must be the path of a static asset, starting with "/" (e.g. "/apps/forecast.html")`);
  } else if (typeof html !== "string" && typeof html !== "function") {
    fail("html", `must be the HTML as a string, { asset: "/path.html" } (a static asset), or a function returning the HTML`);
  }
  if (app.csp !== undefined) {
    if (!isObject(app.csp)) fail("csp", `must be an object of origin lists (${CSP_KEYS.join(", ")})`);
    for (const key of Object.keys(app.csp)) {
      if (!(CSP_KEYS as readonly string[]).includes(key)) fail(`csp.${key}`, `is not a CSP field (${CSP_KEYS.join(", ")})`);
      const list = (app.csp as Record<string, unknown>)[key];
      if (!Array.isArray(list)) fail(`csp.${key}`, `must be an array of origins such as "https://api.example.com"`);
      (list as unknown[]).forEach((value, i) => {
        if (typeof value !== "string" || !isOrigin(value)) {
          fail(
            `csp.${key}[${i}]`,
            `${JSON.stringify(value)} is not an origin: write scheme://host[:port] (https, http, wss or ws; "https://*.example.com" for subdomains), with no path`,
          );
        }
      });
    }
  }
  if (app.permissions !== undefined) {
    if (!isObject(app.permissions)) fail("permissions", `must be an object such as { "clipboardWrite": {} }`);
    for (const [key, value] of Object.entries(app.permissions)) {
      if (!PERMISSIONS.has(key)) fail(`permissions.${key}`, `is not a permission (${[...PERMISSIONS].join(", ")})`);
      if (!isObject(value) || Object.keys(value).length > 0) fail(`permissions.${key}`, "must be {}");
    }
  }
  if (app.domain !== undefined && (typeof app.domain !== "string" || app.domain === "" || /\s/.test(app.domain)))
    fail("domain", "must be a host name without spaces");
  if (app.prefersBorder !== undefined && typeof app.prefersBorder !== "boolean") fail("prefersBorder", "must be true or false");
  for (const key of ["tools", "appTools"] as const) {
    if (app[key] !== undefined && !Array.isArray(app[key])) fail(key, "must be an array of tools from defineTool");
  }
}

/** The visibility a tool declares in `_meta.ui.visibility`, checked; undefined when it declares none. */
function declaredVisibility(tool: ToolDefinition, where: string): AppVisibility[] | undefined {
  const ui = tool._meta?.["ui"];
  if (ui === undefined) return undefined;
  if (!isObject(ui)) throw new DefinitionError(`${where}: _meta.ui must be an object`);
  const visibility = ui["visibility"];
  if (visibility === undefined) return undefined;
  if (
    !Array.isArray(visibility) ||
    visibility.length === 0 ||
    visibility.some((v) => v !== "model" && v !== "app") ||
    new Set(visibility).size !== visibility.length
  ) {
    throw new DefinitionError(`${where}: _meta.ui.visibility must be a non-empty list of "model" and "app" (got ${JSON.stringify(visibility)})`);
  }
  return visibility as AppVisibility[];
}

/**
 * A tool linked to its app: `_meta.ui.resourceUri` and the flat `_meta["ui/resourceUri"]` older
 * hosts read, with its visibility. A `_meta.ui.resourceUri` already there must name the same app.
 */
export function linkTool(tool: ToolDefinition, resourceUri: string, appOnly: boolean, where: string): ToolDefinition {
  if (!isObject(tool) || typeof tool.name !== "string") throw new DefinitionError(`${where} must be a tool from defineTool`);
  const label = `${where} (tool ${tool.name})`;
  const declared = declaredVisibility(tool, label);
  const ui: JsonObject = isObject(tool._meta?.["ui"]) ? { ...tool._meta["ui"] } : {};
  if (ui["resourceUri"] !== undefined && ui["resourceUri"] !== resourceUri) {
    throw new DefinitionError(`${label}: _meta.ui.resourceUri is ${JSON.stringify(ui["resourceUri"])} but the tool is declared in the app ${resourceUri}`);
  }
  ui["resourceUri"] = resourceUri;
  if (appOnly) {
    if (declared && declared.includes("model")) throw new DefinitionError(`${label}: an app tool (appTools) cannot have "model" in _meta.ui.visibility`);
    ui["visibility"] = ["app"];
  }
  return { ...tool, _meta: { ...tool._meta, ui, [FLAT_RESOURCE_URI_KEY]: resourceUri } };
}

/**
 * Checks a tool declared outside an app that links to one by hand (`_meta.ui.resourceUri`, as
 * with the official SDK): the resource must be one of `uris`. Adds the flat key.
 */
export function checkLinkedTool(tool: ToolDefinition, uris: ReadonlySet<string>, where: string): ToolDefinition {
  if (!isObject(tool) || typeof tool.name !== "string") throw new DefinitionError(`${where} must be a tool from defineTool`);
  const label = `${where} (tool ${tool.name})`;
  declaredVisibility(tool, label);
  const ui = tool._meta?.["ui"];
  const uri = isObject(ui) ? ui["resourceUri"] : tool._meta?.[FLAT_RESOURCE_URI_KEY];
  if (uri === undefined) return tool;
  const problem = uiUriProblem(uri);
  if (problem) throw new DefinitionError(`${label}: _meta.ui.resourceUri ${problem}`);
  if (!uris.has(uri as string)) {
    throw new DefinitionError(
      `${label}: _meta.ui.resourceUri names ${uri as string}, which is not an app of this server (declare it with defineApp and pass it to apps([...]))`,
    );
  }
  return { ...tool, _meta: { ...tool._meta, ui: { ...(isObject(ui) ? ui : {}), resourceUri: uri as string }, [FLAT_RESOURCE_URI_KEY]: uri } };
}
