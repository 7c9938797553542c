/** An app of a module served under the module's prefix: `ui://<prefix>/…` and `<prefix>_<tool>`, so two modules' apps never collide. */

import type { ToolDefinition } from "../tools/tool.ts";
import type { AppDefinition } from "./app.ts";

const renamed = (tools: readonly ToolDefinition[] | undefined, prefix: string): ToolDefinition[] | undefined =>
  tools?.map((tool) => ({ ...tool, name: `${prefix}_${tool.name}` }));

/**
 * The app under a module prefix: its URI gains the prefix as first segment (`ui://tally/app.html`
 * → `ui://acme/tally/app.html`) and its tools the prefix of every tool of the module; the tools'
 * `resourceUri` follows, since apps() links each tool to its app's URI.
 */
export function appUnderPrefix(app: AppDefinition, prefix: string): AppDefinition {
  const tools = renamed(app.tools, prefix);
  const appTools = renamed(app.appTools, prefix);
  return {
    ...app,
    uri: `ui://${prefix}/${app.uri.slice("ui://".length)}`,
    ...(tools ? { tools } : {}),
    ...(appTools ? { appTools } : {}),
  };
}

/** The tools of an app served without the extension (a tenant with apps off): those the model may call, as plain tools. */
export function plainAppTools(app: AppDefinition): ToolDefinition[] {
  return (app.tools ?? []).filter((tool) => {
    const ui = tool._meta?.["ui"] as { visibility?: unknown } | undefined;
    return !Array.isArray(ui?.visibility) || ui.visibility.includes("model");
  });
}
