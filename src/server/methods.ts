/** The method tables of both eras, built from the lifecycle methods and what each feature brings through the seam. */

import { unsupportedVersion } from "../core/era.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { invalidParams } from "../core/errors.ts";
import { own } from "../core/json.ts";
import type { InboundRequest } from "../core/jsonrpc.ts";
import { loggingLevelRank, type Implementation, type JsonObject } from "../core/types.ts";
import { LEGACY_VERSIONS, SUPPORTED_VERSIONS, isLegacyVersion } from "../core/versions.ts";
import type { FeatureParts, Method, MethodEntry } from "./feature.ts";
import { RawResult } from "./raw-result.ts";

export interface MethodTables {
  legacy: ReadonlyMap<string, Method>;
  modern: ReadonlyMap<string, Method>;
}

export interface LifecycleParts {
  info: Implementation;
  instructions: string | undefined;
  cacheHints: { ttlMs: number; cacheScope: string };
  serverInfoMeta: JsonObject;
}

const param = (request: InboundRequest, key: string): unknown => (request.params ? own(request.params, key) : undefined);

/** The capabilities every feature declares; `declared` says which conditional declarations hold. */
function capabilitiesOf<P extends FeatureParts>(installed: readonly P[], streams: boolean, declared: (parts: P) => boolean): JsonObject {
  const caps: JsonObject = { logging: {} };
  let extensions: JsonObject | undefined;
  for (const parts of installed) {
    parts.capabilities?.(caps, streams);
    if (parts.extensions && declared(parts)) extensions = { ...extensions, ...parts.extensions };
  }
  if (extensions) caps["extensions"] = extensions;
  return caps;
}

/**
 * Builds both tables. A method two features declare is a definition error; a feature with nothing
 * declared brings no methods (and no capability).
 */
export function createMethods(lifecycle: LifecycleParts, installed: readonly (FeatureParts & { name: string })[]): MethodTables {
  const always = (parts: FeatureParts) => parts.declaredFor === undefined;
  const statelessCapabilities = capabilitiesOf(installed, false, always);
  const sessionCapabilities = capabilitiesOf(installed, true, always);
  const conditional = installed.filter((parts) => parts.extensions && parts.declaredFor);
  const discoverResult = (capabilities: JsonObject): RawResult =>
    new RawResult(
      JSON.stringify({
        resultType: "complete",
        supportedVersions: SUPPORTED_VERSIONS,
        capabilities,
        ...(lifecycle.instructions === undefined ? {} : { instructions: lifecycle.instructions }),
        ...lifecycle.cacheHints,
        _meta: lifecycle.serverInfoMeta,
      }),
    );
  // server/discover answers are built once per combination of conditional declarations (tasks: one bit).
  const discoverCache = new Map<number, RawResult>();
  const discover: Method = (_request, ctx) => {
    let mask = 0;
    conditional.forEach((parts, bit) => {
      if (parts.declaredFor?.(ctx)) mask |= 1 << bit;
    });
    let result = discoverCache.get(mask);
    if (!result) {
      const holds = (parts: FeatureParts & { name: string }) => parts.declaredFor === undefined || (mask & (1 << conditional.indexOf(parts))) !== 0;
      result = discoverResult(capabilitiesOf(installed, true, holds));
      discoverCache.set(mask, result);
    }
    return result;
  };

  const initialize: Method = (request, ctx) => {
    const requested = param(request, "protocolVersion");
    if (typeof requested !== "string")
      throw invalidParams(`initialize needs params.protocolVersion (a string such as "2025-11-25")`, { status: 400, requestId: request.id });
    // Answer with the requested version when we speak it, else our newest legacy one (2025-11-25 lifecycle).
    const served = ctx.endpoint.revisions;
    const allowed = served === undefined ? LEGACY_VERSIONS : LEGACY_VERSIONS.filter((v) => served.has(v));
    const newest = allowed[0];
    if (newest === undefined) throw unsupportedVersion(requested, request.id, [...(served ?? [])]);
    const protocolVersion = isLegacyVersion(requested) && allowed.includes(requested) ? requested : newest;
    const result: JsonObject = { protocolVersion, capabilities: ctx.sessionful ? sessionCapabilities : statelessCapabilities, serverInfo: lifecycle.info };
    if (lifecycle.instructions !== undefined) result["instructions"] = lifecycle.instructions;
    return result;
  };
  const setLevel: Method = (request) => {
    // A session keeps the level; without one it cannot outlive this request (info and above are sent).
    if (loggingLevelRank(param(request, "level")) === undefined) {
      throw invalidParams(`logging/setLevel needs params.level, one of debug, info, notice, warning, error, critical, alert, emergency`);
    }
    return {};
  };

  const legacy = new Map<string, Method>([
    ["initialize", initialize],
    ["ping", () => ({})],
    ["logging/setLevel", setLevel],
  ]);
  const modern = new Map<string, Method>([
    ["server/discover", discover],
    // Served by the transport (a long-lived stream), listed here so the method exists.
    [
      "subscriptions/listen",
      () => {
        throw new Error("subscriptions/listen is answered by the HTTP transport");
      },
    ],
  ]);
  const add = (table: Map<string, Method>, entries: readonly MethodEntry[] | undefined, feature: string): void => {
    for (const [name, method] of entries ?? []) {
      if (table.has(name)) throw new DefinitionError(`feature ${feature} declares the method ${name}, which another feature already has`);
      table.set(name, method);
    }
  };
  for (const parts of installed) {
    add(legacy, parts.methods, parts.name);
    add(modern, parts.methods, parts.name);
    add(legacy, parts.legacyMethods, parts.name);
    add(modern, parts.modernMethods, parts.name);
  }
  return { legacy, modern };
}
