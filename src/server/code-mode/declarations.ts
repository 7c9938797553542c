/** TypeScript declarations of tools, from their input and output JSON Schemas, for a model writing a program. */

import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Deeper schemas become `unknown`: declarations stay short and recursion ends. */
const MAX_DEPTH = 6;

/** A property or member name: bare when it is an identifier, quoted otherwise. */
export function memberName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A doc comment from a description (and a title), indented; empty when there is neither. */
function docComment(schema: unknown, indent: string): string {
  if (!isObject(schema)) return "";
  const parts = [schema["title"], schema["description"]].filter((part): part is string => typeof part === "string" && part.trim() !== "");
  if (parts.length === 0) return "";
  const lines = parts.join("\n").replaceAll("*/", "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

function literal(value: unknown): string {
  return value === null || ["string", "number", "boolean"].includes(typeof value) ? JSON.stringify(value) : "unknown";
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
}

function objectType(schema: JsonObject, depth: number, indent: string): string {
  const properties = isObject(schema["properties"]) ? schema["properties"] : {};
  const required = new Set(Array.isArray(schema["required"]) ? schema["required"].filter((name) => typeof name === "string") : []);
  const inner = `${indent}  `;
  const members = Object.entries(properties).map(
    ([name, property]) => `${docComment(property, inner)}${inner}${memberName(name)}${required.has(name) ? "" : "?"}: ${typeOf(property, depth + 1, inner)};`,
  );
  const extra = schema["additionalProperties"];
  if (isObject(extra)) members.push(`${inner}[key: string]: ${typeOf(extra, depth + 1, inner)};`);
  else if (extra !== false && members.length === 0) return "Record<string, unknown>";
  return members.length === 0 ? "{}" : `{\n${members.join("\n")}\n${indent}}`;
}

/** The TypeScript type of a JSON Schema (a subset: types, enum, const, objects, arrays, anyOf/oneOf, allOf). */
export function typeOf(schema: unknown, depth = 0, indent = ""): string {
  if (schema === true || schema === undefined) return "unknown";
  if (!isObject(schema) || depth > MAX_DEPTH) return "unknown";
  if (Object.hasOwn(schema, "const")) return literal(schema["const"]);
  if (Array.isArray(schema["enum"])) return union(schema["enum"].map(literal));
  const alternatives = schema["anyOf"] ?? schema["oneOf"];
  if (Array.isArray(alternatives)) return union(alternatives.map((s) => typeOf(s, depth + 1, indent)));
  if (Array.isArray(schema["allOf"])) return schema["allOf"].map((s) => typeOf(s, depth + 1, indent)).join(" & ") || "unknown";
  const type = schema["type"];
  if (Array.isArray(type)) return union(type.map((t: unknown) => typeOf({ ...schema, type: t }, depth, indent)));
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = typeOf(schema["items"], depth + 1, indent);
      return /^[A-Za-z]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case "object":
      return objectType(schema, depth, indent);
    default:
      return isObject(schema["properties"]) ? objectType(schema, depth, indent) : "unknown";
  }
}

/**
 * One member of the `tools` object for a listed tool: its description as a doc comment, its
 * arguments from `inputSchema`, its result from `outputSchema` (`structuredContent`), or the text
 * of its result when it declares none.
 */
export function toolDeclaration(listed: JsonObject): string {
  const name = String(listed["name"]);
  const doc = docComment({ description: listed["description"] ?? listed["title"] }, "  ");
  const args = typeOf(listed["inputSchema"], 1, "  ");
  const optional = !(isObject(listed["inputSchema"]) && Array.isArray(listed["inputSchema"]["required"]) && listed["inputSchema"]["required"].length > 0);
  const result = listed["outputSchema"] === undefined ? "string" : typeOf(listed["outputSchema"], 1, "  ");
  return `${doc}  ${memberName(name)}(args${optional ? "?" : ""}: ${args}): Promise<${result}>;`;
}

/** The declaration of the `tools` object a program receives, for these listed tools. */
export function toolsDeclaration(listed: readonly JsonObject[]): string {
  return `declare const tools: {\n${listed.map(toolDeclaration).join("\n")}\n};\n`;
}
