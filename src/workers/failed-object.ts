/** The Durable Object class made in place of a session or task class whose Worker's definitions are wrong (development only). */

import { DurableObject } from "cloudflare:workers";
import type { DefinitionError } from "../core/definition-error.ts";
import { misconfigured } from "../core/missing-bindings.ts";
import { errorResponse } from "../http/responses.ts";

/**
 * The Durable Object class exported beside a Worker whose definitions are wrong (`createSessionObject`,
 * `createTaskObject`): it loads, so wrangler dev keeps running, and answers like the Worker. The Worker
 * answers every request itself, so no request of its own reaches it.
 */
export function failedObjectClass(error: DefinitionError): new (ctx: DurableObjectState, env: never) => DurableObject {
  return class FailedDefinitionObject extends DurableObject {
    override fetch(): Response {
      return errorResponse(misconfigured(error));
    }
  };
}
