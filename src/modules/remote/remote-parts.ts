/**
 * What one remote module adds to a server: the upstream's exposed tools under the module prefix,
 * each checked on its own (a tool whose schema does not compile is left out and logged, never the
 * module), or, when the upstream cannot be listed, an unavailable module whose calls say why.
 */

import { DefinitionError } from "../../core/definition-error.ts";
import type { CallToolResult, JsonObject } from "../../core/types.ts";
import { compileTool } from "../../server/tools/compile-tool.ts";
import type { JsonSchemaValidator } from "../../server/tools/schema-validator.ts";
import type { UnavailableModule } from "../../server/tools/tool-registry.ts";
import { defineTool, type ToolDefinition } from "../../server/tools/tool.ts";
import type { PromptDefinition } from "../../server/prompts/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../../server/resources/resource.ts";
import { collectRemoteExtras } from "./remote-extras.ts";
import type { RemoteModule, UpstreamTool } from "./remote-module.ts";

export interface RemoteParts {
  tools: ToolDefinition[];
  /** The upstream's resources, templates and prompts under the prefix (see remote-extras.ts). */
  resources: ResourceDefinition[];
  templates: ResourceTemplateDefinition[];
  prompts: PromptDefinition[];
  /** Set when the upstream could not be listed: calls of `<prefix>_*` explain why. */
  unavailable: UnavailableModule | undefined;
  /** What the upstream listed (null when nothing), for the digest that tells a changed catalogue. */
  catalog: unknown;
  /** Whether these parts are out of date: the list's TTL passed, the upstream said list_changed, or a newer list was read since. */
  stale: () => boolean;
}

const NONE = { resources: [], templates: [], prompts: [] };

/** A listed field copied when present. */
function copied(tool: UpstreamTool): Partial<ToolDefinition> {
  const out: Partial<ToolDefinition> = {};
  if (typeof tool["title"] === "string") out.title = tool["title"];
  if (typeof tool["description"] === "string") out.description = tool["description"];
  if (tool["outputSchema"] !== null && typeof tool["outputSchema"] === "object") out.outputSchema = tool["outputSchema"] as JsonObject;
  if (tool["annotations"] !== null && typeof tool["annotations"] === "object") out.annotations = tool["annotations"];
  return out;
}

/** The upstream's tools as tool definitions of this server: `<prefix>_<name>`, each call forwarded. */
export function remoteTools(module: RemoteModule, listed: readonly UpstreamTool[]): ToolDefinition[] {
  return listed.map((tool) =>
    defineTool({
      name: `${module.settings.prefix}_${tool.name}`,
      ...copied(tool),
      inputSchema: tool.inputSchema,
      handler: async (args, ctx): Promise<CallToolResult> => (await module.call(tool.name, args, ctx)) as unknown as CallToolResult,
    }),
  );
}

/**
 * Lists one remote module and keeps what can be served: tools that compile and do not collide
 * with a name taken by another module. Log lines start with `where` (`tenant acme: `).
 */
export async function collectRemoteModule(module: RemoteModule, taken: Set<string>, where: string, validator?: JsonSchemaValidator): Promise<RemoteParts> {
  const { name, prefix } = module.settings;
  const log = (line: string) => console.error(`edge-mcp: ${where}module ${name}: ${line}`);
  let listed: UpstreamTool[];
  let generation = module.generation;
  // Out of date once the list's TTL passed, the upstream said list_changed, or a newer list was read since.
  const stale = () => module.stale() || module.generation !== generation;
  try {
    listed = await module.tools();
    generation = module.generation;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(`module ${name}: `, "") : String(error);
    log(`its tools cannot be listed: ${reason}`);
    return { tools: [], unavailable: { prefix, module: name, reason: `its tools cannot be listed: ${reason}` }, ...NONE, catalog: null, stale };
  }
  const tools: ToolDefinition[] = [];
  for (const tool of remoteTools(module, listed)) {
    try {
      compileTool(tool, validator);
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      log(`tool ${tool.name} is left out: ${error.message}`);
      continue;
    }
    if (taken.has(tool.name)) {
      log(`tool ${tool.name} collides with another module's tool; it is left out`);
      continue;
    }
    taken.add(tool.name);
    tools.push(tool);
  }
  const extras = await collectRemoteExtras(module, log);
  const { resources, templates, prompts } = extras;
  return { tools, resources, templates, prompts, unavailable: undefined, catalog: extras.catalog === null ? listed : [listed, extras.catalog], stale };
}
