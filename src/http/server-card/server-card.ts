/**
 * The MCP Server Card (SEP-2127, as drafted in modelcontextprotocol/experimental-ext-server-card
 * at 8924e08, 2026-07-24): `GET <mcp-url>/server-card`, `application/mcp-server-card+json`, with an
 * ETag; and the AI Catalog document that lists cards.
 */

import { sha256Hex } from "../../core/bytes.ts";
import type { JsonObject } from "../../core/types.ts";
import { SUPPORTED_VERSIONS } from "../../core/versions.ts";
import { METADATA_PATH } from "../../auth/protected-resource.ts";
import type { Endpoint, ServerCardRoute } from "../endpoint.ts";
import type { ServerCardOptions } from "./server-card-options.ts";

/** The Server Card media type. */
export const SERVER_CARD_TYPE = "application/mcp-server-card+json";
/** The `$schema` of cards built here (the draft's v1 schema URL). */
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** Where this runtime's own card members go (`_meta` keys; the draft's card has no other room). */
const META_PREFIX = "io.github.edge-mcp";
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/**
 * CORS and caching of discovery documents (the draft's "CORS Requirements" and "Caching"). A card's
 * remote URL and the catalog's identifiers come from the request's Host, so shared caches key them by it.
 */
const DISCOVERY_HEADERS = {
  vary: "Host",
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET",
  "access-control-allow-headers": "Content-Type, If-None-Match",
  "access-control-expose-headers": "ETag",
  "cache-control": "public, max-age=300",
};

/** The card of an endpoint as served at `origin` (the remote URL is the endpoint's URL there). */
export function serverCard(endpoint: Endpoint, origin: string, options: ServerCardOptions): JsonObject {
  const { info, capabilities } = endpoint.server;
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, "").replace(/[^a-zA-Z0-9.-]/g, "-");
  const fallbackName = `${host.split(".").reverse().join(".")}/${endpoint.tenant}`;
  const name = options.name ?? (NAME.test(fallbackName) ? fallbackName : `local/${endpoint.tenant}`);
  const description = (options.description ?? info.description ?? `${info.title ?? info.name}: an MCP server`).slice(0, 100);
  const icons = options.icons ?? info.icons;
  const websiteUrl = options.websiteUrl ?? info.websiteUrl;
  const authorizer = endpoint.authorizer;
  const metadata = authorizer ? (authorizer.metadata as { dpop_bound_access_tokens_required?: boolean }) : undefined;
  return {
    $schema: SERVER_CARD_SCHEMA,
    name,
    version: info.version,
    description,
    ...(info.title ? { title: info.title.slice(0, 100) } : {}),
    ...(websiteUrl ? { websiteUrl } : {}),
    ...(icons ? { icons: icons } : {}),
    remotes: [
      {
        type: "streamable-http",
        url: `${origin}${endpoint.path}`,
        supportedProtocolVersions: endpoint.revisions ? SUPPORTED_VERSIONS.filter((v) => endpoint.revisions?.has(v)) : [...SUPPORTED_VERSIONS],
      },
    ],
    _meta: {
      [`${META_PREFIX}/capabilities`]: capabilities,
      [`${META_PREFIX}/authorization`]: authorizer
        ? {
            required: true,
            resourceMetadata: `${origin}${METADATA_PATH}${authorizer.resourcePath === "/" ? "" : authorizer.resourcePath}`,
            ...(metadata?.dpop_bound_access_tokens_required ? { dpopBoundAccessTokensRequired: true } : {}),
          }
        : { required: false },
    },
  };
}

/** True when an `If-None-Match` header names this entity tag (weak comparison, RFC 9110 §13.1.2). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** Answers a discovery document: 200 with an ETag, or 304 when `If-None-Match` names it. */
export async function discoveryResponse(request: Request, body: JsonObject, contentType: string): Promise<Response> {
  const text = JSON.stringify(body);
  const etag = `"${(await sha256Hex(text)).slice(0, 32)}"`;
  const headers = { ...DISCOVERY_HEADERS, etag };
  if (matches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : text, { headers: { ...headers, "content-type": contentType } });
}

/** The route that serves an endpoint's card (pass it as the endpoint's `serverCard` option). */
export function serverCardRoute(options: ServerCardOptions): ServerCardRoute {
  return {
    serve: (request, endpoint) =>
      request.method === "OPTIONS"
        ? discoveryPreflight()
        : discoveryResponse(request, serverCard(endpoint, new URL(request.url).origin, options), SERVER_CARD_TYPE),
  };
}

/** The preflight answer of a discovery document. */
export function discoveryPreflight(): Response {
  return new Response(null, { status: 204, headers: DISCOVERY_HEADERS });
}

/** One entry of an AI Catalog (`/.well-known/ai-catalog.json`): a card by URL. */
export interface CatalogEntry {
  /** `urn:air:<host>:mcp:<name>` */
  identifier: string;
  url: string;
}

/** The AI Catalog document listing Server Cards (the draft's "Server Card Entries"). */
export function aiCatalog(entries: readonly CatalogEntry[]): JsonObject {
  return { specVersion: "1.0", entries: entries.map((entry) => ({ identifier: entry.identifier, type: SERVER_CARD_TYPE, url: entry.url })) };
}
