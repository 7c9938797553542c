/** MCP data types shared by both revisions (2025-11-25 and 2026-07-28 schemas). */

export type JsonObject = Record<string, unknown>;

/** The names JSON Schema's `type` keyword takes (2020-12 and draft-07 alike). */
export type JsonSchemaTypeName = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

/**
 * A JSON Schema document (2020-12 by default; the draft-07 shapes clients send are accepted).
 * The keywords whose mistakes break clients are typed, so `tsc` catches `type: "integr"` or
 * `required: "n"` in a literal; every other keyword is open. Startup checks the same, and more.
 */
export interface JsonSchema {
  type?: JsonSchemaTypeName | readonly JsonSchemaTypeName[];
  properties?: { readonly [name: string]: JsonSchema | boolean };
  required?: readonly string[];
  items?: JsonSchema | boolean | readonly (JsonSchema | boolean)[];
  prefixItems?: readonly (JsonSchema | boolean)[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: readonly (JsonSchema | boolean)[];
  oneOf?: readonly (JsonSchema | boolean)[];
  allOf?: readonly (JsonSchema | boolean)[];
  enum?: readonly unknown[];
  [keyword: string]: unknown;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** Name and version of a client or server (`Implementation` in the schema). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  websiteUrl?: string;
}

export interface Annotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ImageContent {
  type: "image";
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface AudioContent {
  type: "audio";
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: JsonObject;
}

export type ResourceContents =
  { uri: string; mimeType?: string; text: string; _meta?: JsonObject } | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };

export interface EmbeddedResource {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** The result of `tools/call`. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Syslog severities (RFC 5424), lowest first. */
export const LOGGING_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

const LEVEL_RANK: ReadonlyMap<string, number> = new Map(LOGGING_LEVELS.map((level, rank) => [level, rank]));

/** The rank of a level (debug = 0), or undefined for a string that is not a level. */
export function loggingLevelRank(level: unknown): number | undefined {
  return typeof level === "string" ? LEVEL_RANK.get(level) : undefined;
}
