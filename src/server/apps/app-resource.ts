/** An app's `ui://` resource: HTML read on first use (from the bundle, static assets or a function), with its digest. */

import { DefinitionError } from "../../core/definition-error.ts";
import { sha256Hex } from "../../core/bytes.ts";
import { isObject } from "../../core/json.ts";
import type { JsonObject, ResourceContents } from "../../core/types.ts";
import type { HandlerContext } from "../context/handler-context.ts";
import type { ResourceDefinition } from "../resources/resource.ts";
import { APP_MIME_TYPE, appResourceMeta, type AppAssetLoader, type AppDefinition } from "./app.ts";

/** The `_meta` key of a read content's digest: `sha256:` and 64 hex digits of its UTF-8 bytes, stable while the bytes are. */
export const APP_DIGEST_KEY = "edge-mcp/digest";

interface Served {
  text: string;
  digest: string;
}

const decoder = new TextDecoder();

/**
 * The resource serving one app. Bundled and asset HTML is read and hashed once per isolate, on the
 * first read (a Worker's boot does not grow with its apps); HTML from a function is read each time.
 */
export function appResource(app: AppDefinition, load: AppAssetLoader | undefined): ResourceDefinition {
  const ui = appResourceMeta(app);
  const html = app.html;
  const meta: JsonObject | undefined = Object.keys(ui).length > 0 ? { ui } : undefined;
  let cached: Promise<Served> | undefined;
  const serve = async (bytes: string | Uint8Array): Promise<Served> => {
    const text = typeof bytes === "string" ? bytes : decoder.decode(bytes);
    return { text, digest: `sha256:${await sha256Hex(text)}` };
  };
  const fetchAsset = async (path: string): Promise<Served> => {
    const bytes = await (load as AppAssetLoader)(path);
    if (bytes === undefined) throw new Error(`app ${app.uri}: the static asset ${path} does not exist (check the assets directory in wrangler.toml)`);
    return serve(bytes);
  };
  const read = async (ctx: HandlerContext): Promise<Served> => {
    if (typeof html === "function") return serve(await html(ctx));
    if (cached === undefined) {
      cached = typeof html === "string" ? serve(html) : fetchAsset(html.asset);
      // A failed read (asset store unreachable) is not kept: the next read tries again.
      cached.catch(() => (cached = undefined));
    }
    return cached;
  };
  return {
    uri: app.uri,
    name: app.name,
    mimeType: APP_MIME_TYPE,
    ...(app.title === undefined ? {} : { title: app.title }),
    ...(app.description === undefined ? {} : { description: app.description }),
    ...(app.icons === undefined ? {} : { icons: app.icons }),
    ...(meta ? { _meta: meta } : {}),
    read: async ({ uri }, ctx): Promise<ResourceContents> => {
      const { text, digest } = await read(ctx);
      return { uri, mimeType: APP_MIME_TYPE, text, _meta: { ...meta, [APP_DIGEST_KEY]: digest } };
    },
  };
}

/** Refuses an app reading a static asset when no loader was given. */
export function checkLoader(app: AppDefinition, load: AppAssetLoader | undefined, where: string): void {
  if (isObject(app.html) && load === undefined) {
    throw new DefinitionError(
      `${where} (${app.uri}): html.asset needs a loader of static assets: apps([...], { assets: staticAssets() }) with staticAssets() of edge-mcp/workers and an [assets] binding in wrangler.toml`,
    );
  }
}
