/** `fullJsonSchema()`: the opt-in that checks tool schemas with the full JSON Schema validator. */

import type { Feature } from "../feature.ts";
import { fullValidator } from "./full-validator.ts";

/**
 * Checks every tool schema of a server with the full JSON Schema 2020-12 validator
 * (@cfworker/json-schema, about 6 KiB gzip) instead of the core one: `if`/`then`/`else`,
 * `dependentRequired`, `dependentSchemas`, `unevaluated*`, `contains`, `$anchor`, `$dynamicRef`,
 * `$id`-relative references and the rarer formats. Without it, a schema that uses one of those is
 * refused at startup, naming the tool and the keyword's path. A Worker that does not import it
 * does not bundle the full validator. See docs/json-schema.md.
 *
 * @example
 * const server = createServer({ info, tools, features: [fullJsonSchema()] });
 */
export function fullJsonSchema(): Feature {
  return { name: "json-schema", jsonSchema: fullValidator, install: () => ({}) };
}
