/** The services the resources feature reads, under its own keys: resources other features add, and the URI template compiler. */

import { serviceKey } from "../feature.ts";
import type { ResourceDefinition } from "./resource.ts";
import type { UriTemplate } from "./uri-template.ts";

/** Resources other features add to the server (skill files, apps' `ui://` resources). */
export const ADDED_RESOURCES = serviceKey<readonly ResourceDefinition[]>("added resources");

/** Compiles a resource template's URI template (RFC 6570): what `defineResource*` bring, and skill files alone do not. */
export const URI_TEMPLATE_COMPILER = serviceKey<(template: string) => UriTemplate>("URI template compiler");
