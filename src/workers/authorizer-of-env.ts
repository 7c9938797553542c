/** An authorizer given as a function of env, built once per env object (its key cache then lives as long as the isolate's env). */

import { DefinitionError } from "../core/definition-error.ts";
import type { Authorizer } from "../http/admission/authorizer.ts";

const built = new WeakMap<(env: never) => Authorizer, WeakMap<object, Authorizer>>();

/** The authorizer of this env: the option itself, or what the function returns for this env (cached). */
export function authorizerFor<E extends object>(option: Authorizer | ((env: E) => Authorizer) | undefined, env: E): Authorizer | undefined {
  if (typeof option !== "function") return option;
  let perEnv = built.get(option);
  if (!perEnv) {
    perEnv = new WeakMap();
    built.set(option, perEnv);
  }
  let authorizer = perEnv.get(env);
  if (!authorizer) {
    authorizer = option(env);
    if (typeof authorizer !== "object" || authorizer === null || typeof authorizer.authenticate !== "function") {
      throw new DefinitionError("createWorker option authorizer: the function of env must return an authorizer (from createAuthorizer)");
    }
    perEnv.set(env, authorizer);
  }
  return authorizer;
}
