/** The services of the resources feature, under its own keys: resources other features add, the URI template compiler, its registry. */

import { serviceKey } from "../feature.ts";
import type { ResourceDefinition } from "./resource.ts";
import type { ResourceRegistry } from "./resource-registry.ts";
import type { UriTemplate } from "./uri-template.ts";

/** Resources other features add to the server (skill files, apps' `ui://` resources). */
export const ADDED_RESOURCES = serviceKey<readonly ResourceDefinition[]>("added resources");

/** The server's compiled resources, provided by the resources feature (its template completions read them). */
export const RESOURCE_REGISTRY = serviceKey<ResourceRegistry>("resource registry");

/** Compiles a resource template's URI template (RFC 6570): what `defineResource*` bring, and skill files alone do not. */
export const URI_TEMPLATE_COMPILER = serviceKey<(template: string) => UriTemplate>("URI template compiler");
