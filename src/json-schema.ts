/**
 * edge-mcp/json-schema: the full JSON Schema validator as an opt-in. Tool schemas are checked by a
 * small core validator unless a server adds `fullJsonSchema()` to its features (see docs/json-schema.md).
 */

export { fullJsonSchema } from "./server/json-schema/json-schema-feature.ts";
