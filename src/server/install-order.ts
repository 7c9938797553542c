/** The order a server installs its features in: each after the features whose services it uses. */

import { DefinitionError } from "../core/definition-error.ts";
import type { Feature } from "./feature.ts";

/**
 * Sorts features so that a feature that `uses` a service installs after every feature that
 * `provides` it; otherwise in the order given. Throws a `DefinitionError` naming a loop.
 */
export function installOrder(features: readonly Feature[]): Feature[] {
  const ordered: Feature[] = [];
  const state = new Map<Feature, "open" | "done">();
  const visit = (feature: Feature, trail: readonly string[]): void => {
    const seen = state.get(feature);
    if (seen === "done") return;
    if (seen === "open") throw new DefinitionError(`features use each other's services in a loop: ${[...trail, feature.name].join(" → ")}`);
    state.set(feature, "open");
    for (const key of feature.uses ?? []) {
      for (const provider of features) if (provider !== feature && provider.provides?.includes(key)) visit(provider, [...trail, feature.name]);
    }
    state.set(feature, "done");
    ordered.push(feature);
  };
  for (const feature of features) visit(feature, []);
  return ordered;
}
