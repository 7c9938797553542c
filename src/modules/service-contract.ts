/**
 * The RPC contract of a tool service: a Worker that provides tools (and optionally Agent Skills)
 * to edge-mcp tenants through a `WorkerEntrypoint` bound with `[[services]]`. The runtime reads
 * `describe()` once per isolate (re-read on a TTL), calls `callTool()` for each `tools/call` and
 * `readSkillFile()` for each read of a skill's supporting file, each with a timeout.
 *
 * @example
 * export class WeatherTools extends WorkerEntrypoint implements ToolService {
 *   async describe() { return { tools: [{ name: "forecast", description: "…", inputSchema: { type: "object" } }] }; }
 *   async callTool(name, args, context) { return { content: [{ type: "text", text: "Sunny" }] }; }
 * }
 */

import type { AppCsp, AppPermissions } from "../server/apps/app.ts";
import type { CallToolResult, JsonObject, ToolAnnotations } from "../core/types.ts";
import type { TaskSupport } from "../server/tools/tool.ts";

/** A tool as a service lists it: the `Tool` shape of `tools/list`, without prefix. */
export interface ServiceTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  /**
   * Whether a call may run as a task (tasks extension; default `never`). A task's call to the
   * service has no module timeout: it is bounded by the task's TTL and by cancellation.
   */
  task?: TaskSupport;
}

/**
 * A skill as a service lists it (SEP-2640), served at `skill://<prefix>/<path>/<name>/SKILL.md`.
 * SKILL.md travels in full (the runtime reads its frontmatter and computes its digest); the other
 * files are listed by size and digest and read on demand. `createSkillCatalog` builds these.
 */
export interface ServiceSkill {
  name: string;
  /** Organisational path before the name (`"team"`), without the module prefix. */
  path?: string;
  /** The full text of SKILL.md. */
  skillMd: string;
  /** The other files: read with `readSkillFile()`, and each read is checked against size and digest. */
  files?: ServiceSkillFile[];
}

/** A supporting file of a service's skill, as `describe()` lists it (its bytes come from `readSkillFile()`). */
export interface ServiceSkillFile {
  /** Path in the skill's folder: `references/guide.md`. */
  path: string;
  /** Length in bytes (UTF-8 bytes for text). */
  size: number;
  /** `sha256:` and 64 lowercase hex digits. */
  digest: string;
  mimeType?: string;
}

export interface ServiceCatalog {
  tools: ServiceTool[];
  /** Agent Skills of this service (optional). */
  skills?: ServiceSkill[];
  /** MCP Apps of this service (optional): their HTML is read with `readApp()`. */
  apps?: ServiceApp[];
}

/**
 * An MCP App of a service, served as `ui://<prefix>/<rest of uri>`; its tools are the service's
 * tools named here (as listed), linked to it under their prefixed names.
 */
export interface ServiceApp {
  /** `ui://…` as the service knows it; the runtime puts the module prefix in front. */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
  domain?: string;
  prefersBorder?: boolean;
  /** Names of the service's tools that show this app. */
  tools?: string[];
  /** Names of the service's tools only the app calls (visibility `["app"]`). */
  appTools?: string[];
}

/** Verified identity passed to a service: never a token. */
export interface ServiceCallContext {
  tenant: string;
  /** The authenticated subject, when the tenant requires auth. */
  subject?: string;
  /** Who vouches for the subject: the token's issuer, or "api-key". Key per-user data by issuer and subject. */
  issuer?: string;
  scopes: readonly string[];
  protocolVersion: string;
  /**
   * W3C trace context of the calling span, when the request is traced: a service that starts its
   * spans under `traceparent` (and `tracestate`, `baggage`) joins the client's trace.
   */
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

export interface ToolService {
  describe(): Promise<ServiceCatalog>;
  callTool(name: string, args: Record<string, unknown>, context: ServiceCallContext): Promise<CallToolResult>;
  /**
   * Reads one file of a listed skill: `skill` is its path and name as listed (`"team/forecast-guide"`),
   * `path` the file's path in the skill's folder. Needed when a listed skill has files besides SKILL.md.
   */
  readSkillFile?(skill: string, path: string, context: ServiceCallContext): Promise<string | Uint8Array>;
  /** Reads the HTML of a listed app, by its `uri` as listed. Needed when the catalogue lists apps. */
  readApp?(uri: string, context: ServiceCallContext): Promise<string | Uint8Array>;
}
