/** The order a server installs its features in: each after the features whose services it uses. */

import { DefinitionError } from "../core/definition-error.ts";
import type { Feature } from "./feature.ts";

/**
 * Sorts features so that a feature that `uses` a service installs after every feature that
 * `provides` it; otherwise in the order given. Throws a `DefinitionError` naming a loop.
 */
export function installOrder(features: readonly Feature[]): Feature[] {
  const ordered: Feature[] = [];
  const visit = (feature: Feature, trail: readonly Feature[]): void => {
    if (ordered.includes(feature)) return;
    if (trail.includes(feature))
      throw new DefinitionError(`features use each other's services in a loop: ${[...trail, feature].map((f) => f.name).join(" → ")}`);
    for (const provider of features)
      if (provider !== feature && feature.uses?.some((key) => provider.provides?.includes(key))) visit(provider, [...trail, feature]);
    ordered.push(feature);
  };
  for (const feature of features) visit(feature, []);
  return ordered;
}
