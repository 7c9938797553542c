/** How resources and resource templates are declared. */

import type { Annotations, Icon, JsonObject, ResourceContents } from "../../core/types.ts";
import type { HandlerContext } from "../context/handler-context.ts";
import type { Completer } from "../completions/completion-source.ts";

/**
 * What a read may return: a string (text with the resource's mime type), bytes (sent as a
 * base64 blob), one contents object, or several. `undefined` from a template means not found.
 */
export type ResourceReadReturn = string | Uint8Array | ResourceContents | ResourceContents[];

interface ResourceMetadata {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface ResourceDefinition extends ResourceMetadata {
  uri: string;
  /** Size in bytes, if known. */
  size?: number;
  read: (request: { uri: string }, ctx: HandlerContext) => ResourceReadReturn | Promise<ResourceReadReturn>;
}

export interface ResourceTemplateDefinition extends ResourceMetadata {
  /** An RFC 6570 template such as `file:///logs/{date}`. */
  uriTemplate: string;
  read: (
    request: { uri: string; variables: Record<string, string> },
    ctx: HandlerContext,
  ) => ResourceReadReturn | undefined | Promise<ResourceReadReturn | undefined>;
  /** Completions for template variables, by variable name. */
  complete?: Record<string, Completer>;
  /**
   * The resources this template serves now, for `resources/list` (which lists them after the fixed
   * resources, in pages like every list). Called on each `resources/list`; return them all, each with
   * its `uri` and `name` (the template's `mimeType` is the default). Without it, the template's
   * resources are read but not listed.
   */
  list?: (ctx: HandlerContext) => ListedResource[] | Promise<ListedResource[]>;
}

/** A resource as `resources/list` shows it: what a template's `list` returns for each. */
export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

declare module "../feature.ts" {
  interface ServerDeclarations {
    /** Resources (from `defineResource`): listed by `resources/list`, read by `resources/read`. */
    resources?: readonly ResourceDefinition[];
    /** Resource templates (from `defineResourceTemplate`): RFC 6570 URI templates, read with their variables. */
    resourceTemplates?: readonly ResourceTemplateDefinition[];
  }
}
