/** Checks a client's answer to an input request: a malformed answer counts as no answer. */

import { isObject } from "../../core/json.ts";
import { compileCoreSchema } from "../schema/core-schema.ts";
import { jsonSchemaProblems } from "../schema/json-schema-check.ts";
import type { InputRequest } from "./input.ts";

const ACTIONS = new Set(["accept", "decline", "cancel"]);

// One validator per requestedSchema object (a handler asking again in a retry builds a new one).
// Elicitation schemas are flat (2025-11-25 "Elicitation"): the core validator checks them all.
const validators = new WeakMap<object, ((content: unknown) => string[]) | string>();

/** A value an elicitation form may return (2025-11-25 `ElicitResult.content`): string, number, boolean or string[]. */
function isFormValue(value: unknown): boolean {
  if (typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** Why form content does not fit `requestedSchema`, or undefined when it fits. */
function formProblem(schema: Record<string, unknown>, content: unknown): string | undefined {
  if (!isObject(content)) return "content must be an object";
  for (const [key, value] of Object.entries(content)) {
    if (!isFormValue(value)) return `content.${key} must be a string, a number, a boolean or an array of strings`;
  }
  let validator = validators.get(schema);
  if (validator === undefined) {
    // The schema is the server's own (a handler's bug): without a validator, no answer can be checked.
    const problem = jsonSchemaProblems(schema, "")[0];
    validator = problem === undefined ? compileCoreSchema(schema) : `the requested schema is not a valid elicitation schema (${problem})`;
    validators.set(schema, validator);
  }
  if (typeof validator === "string") return validator;
  const issues = validator(content);
  // The last issue is the innermost; "/a/b: message" reads as "content.a.b: message".
  const issue = issues.at(-1);
  if (issue === undefined) return undefined;
  const split = issue.indexOf(": ");
  const where = issue.slice(0, split);
  return `content${where === "(root)" ? "" : where.replaceAll("/", ".")}: ${issue.slice(split + 2)}`;
}

/**
 * Why an answer does not have the shape of the result its request expects, or undefined when it
 * has. An elicitation answer is `{action: "accept"|"decline"|"cancel"}`; a form accept also
 * carries `content` (absent counts as `{}`) that matches `requestedSchema` (the flat schema of 2025-11-25 "Elicitation":
 * string, number, integer, boolean and enum properties, `required`). Nothing else reaches a handler.
 */
export function answerProblem(request: InputRequest, answer: unknown): string | undefined {
  if (!isObject(answer)) return "the answer must be an object";
  switch (request.method) {
    case "elicitation/create": {
      const action = answer["action"];
      if (typeof action !== "string" || !ACTIONS.has(action)) return `action must be "accept", "decline" or "cancel"`;
      if (action !== "accept" || request.params.mode === "url") return undefined;
      // Some clients send a bare accept (no content) for a form with nothing to fill in: it is checked as `{}`.
      return formProblem(request.params.requestedSchema, answer["content"] === undefined ? {} : answer["content"]);
    }
    case "sampling/createMessage":
      return typeof answer["role"] === "string" && (isObject(answer["content"]) || Array.isArray(answer["content"])) ? undefined : "not a sampling result";
    case "roots/list":
      return Array.isArray(answer["roots"]) ? undefined : "roots must be an array";
  }
}

/** True when an answer has the shape of the result its request expects; a malformed answer is asked again. */
export function isValidAnswer(request: InputRequest, answer: unknown): boolean {
  return answerProblem(request, answer) === undefined;
}
