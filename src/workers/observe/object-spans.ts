/**
 * Spans of the work a Worker's own Durable Objects do for a traced request (the notification
 * hub's fan-out), when the Worker observes. `observability()` registers the span starter when the
 * Worker's module loads (the objects run the same module); a Worker without it leaves this unset
 * and its objects pay one `undefined` check.
 */

import type { TraceCarrier } from "../../core/admission.ts";

/** Attribute values an object's span carries. */
export type ObjectSpanAttributes = Record<string, string | number | boolean>;

/** A span of an object's work, started under the trace context the request handed over. */
export interface ObjectSpan {
  end(attributes?: ObjectSpanAttributes): void;
}

/** Starts an object's span under `parent` (a hop's trace context); undefined when nothing records spans. */
export type StartObjectSpan = (name: string, parent: TraceCarrier, attributes: ObjectSpanAttributes) => ObjectSpan | undefined;

let starter: ((env: object) => StartObjectSpan | undefined) | undefined;

/** Registers how objects start their spans, per env (`observability()` does, once per module load). */
export function observeObjects(startFor: (env: object) => StartObjectSpan | undefined): void {
  starter = startFor;
}

/** Starts an object's span when the Worker observes and the request was traced; else undefined. */
export function startObjectSpan(env: object, name: string, parent: TraceCarrier | undefined, attributes: ObjectSpanAttributes): ObjectSpan | undefined {
  return parent && starter ? starter(env)?.(name, parent, attributes) : undefined;
}
