/** The resources feature: lists, templates, reads and (2025) subscriptions, and the `resources` capability. */

import { invalidParams } from "../../core/errors.ts";
import { own } from "../../core/json.ts";
import type { Feature, Method } from "../feature.ts";
import { withInputs } from "../inputs/with-inputs.ts";
import { listPage } from "../lists/list-page.ts";
import type { InputChannel } from "../inputs/input.ts";
import { ResourceRegistry } from "./resource-registry.ts";
import { ADDED_RESOURCES, RESOURCE_REGISTRY, URI_TEMPLATE_COMPILER } from "./resource-services.ts";

/** Acknowledges a 2025 subscription: updates reach 2025 clients only through a session's GET stream. */
const acceptUri: Method = (request) => {
  if (typeof (request.params ? own(request.params, "uri") : undefined) !== "string") throw invalidParams(`params.uri must be a resource URI`);
  return {};
};

/** A template's `list` answers at once: it cannot ask the user anything. */
const NO_INPUTS: InputChannel = {
  request() {
    throw new Error("a resource template's list cannot ask the user for input");
  },
};

/** Resources and resource templates (skill files and apps' resources among them), when the server has any. */
export const resourcesFeature: Feature = {
  name: "resources",
  reads: ["resources", "resourceTemplates"],
  uses: [ADDED_RESOURCES, URI_TEMPLATE_COMPILER],
  provides: [RESOURCE_REGISTRY],
  install: (host) => {
    const { options, handlerContext, cacheHints } = host;
    const resources = new ResourceRegistry(
      [...(options.resources ?? []), ...host.use(ADDED_RESOURCES).flat()],
      options.resourceTemplates ?? [],
      host.lists,
      host.use(URI_TEMPLATE_COMPILER)[0],
    );
    host.provide(RESOURCE_REGISTRY, resources);
    if (resources.size === 0) return {};
    const read: Method = async (request, ctx) => {
      const uri = request.params ? own(request.params, "uri") : undefined;
      const binding = { method: "resources/read", target: typeof uri === "string" ? uri : "", args: {} };
      const result = await withInputs(request, ctx, binding, (inputs) => resources.read(uri, handlerContext(ctx, inputs)));
      // 2026-07-28 caching: a complete read is cacheable; an input_required one is not.
      return ctx.era === "modern" && result["resultType"] === undefined ? { ...result, ...cacheHints } : result;
    };
    return {
      capabilities: (caps, streams) => {
        caps["resources"] = streams ? { subscribe: true, listChanged: true } : { subscribe: true };
      },
      methods: [
        [
          "resources/list",
          (request, ctx) => listPage(request, ctx, (cursor, era) => resources.resourcesPage(cursor, era, () => handlerContext(ctx, NO_INPUTS))),
        ],
        ["resources/templates/list", (request, ctx) => listPage(request, ctx, (cursor, era) => resources.templatesPage(cursor, era))],
        ["resources/read", read],
      ],
      legacyMethods: [
        ["resources/subscribe", acceptUri],
        ["resources/unsubscribe", acceptUri],
      ],
    };
  },
};
