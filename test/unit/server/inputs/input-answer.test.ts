// Answers to input requests: what counts as an answer, and what counts as no answer (2025-11-25 "Elicitation" restricted schemas).
import { describe, expect, it } from "vitest";
import { answerProblem } from "../../../../src/server/inputs/input-answer.ts";
import type { InputRequest } from "../../../../src/server/inputs/input.ts";

const FORM: InputRequest = {
  method: "elicitation/create",
  params: {
    message: "Who?",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 20 },
        age: { type: "integer", minimum: 0, maximum: 150 },
        score: { type: "number" },
        subscribed: { type: "boolean" },
        size: { type: "string", enum: ["s", "m", "l"] },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 2 },
      },
      required: ["name"],
    },
  },
};
const URL_MODE: InputRequest = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/login" } };

describe("answerProblem", () => {
  it("accepts every action, and a form accept whose content matches requestedSchema", () => {
    expect(answerProblem(FORM, { action: "accept", content: { name: "Ada", age: 36, score: 1.5, subscribed: true, size: "m", tags: ["a"] } })).toBeUndefined();
    expect(answerProblem(FORM, { action: "accept", content: { name: "Ada" } })).toBeUndefined();
    expect(answerProblem(FORM, { action: "decline" })).toBeUndefined();
    expect(answerProblem(FORM, { action: "cancel" })).toBeUndefined();
    expect(answerProblem(URL_MODE, { action: "accept" })).toBeUndefined();
    // A bare accept is checked as empty content: fine for a form with nothing required, not for FORM.
    const nothingRequired: InputRequest = { method: "elicitation/create", params: { message: "OK?", requestedSchema: { type: "object", properties: {} } } };
    expect(answerProblem(nothingRequired, { action: "accept" })).toBeUndefined();
    expect(answerProblem(FORM, { action: "accept" })).toMatch(/required property "name"/);
  });

  it("refuses an answer that is not an object or has no valid action", () => {
    for (const answer of [null, "accept", 1, [], {}, { action: "maybe" }, { action: ["accept"] }]) expect(answerProblem(FORM, answer)).toBeDefined();
  });

  it("refuses a form accept whose content is not an object", () => {
    for (const content of ["x", 1, null, ["Ada"]]) expect(answerProblem(FORM, { action: "accept", content })).toBe("content must be an object");
  });

  it("refuses content that does not match requestedSchema: missing required, wrong type, out of range, outside the enum", () => {
    const bad = [
      {},
      { name: 42 },
      { name: "" },
      { name: "Ada", age: 1.5 },
      { name: "Ada", age: -1 },
      { name: "Ada", subscribed: "yes" },
      { name: "Ada", size: "xl" },
      { name: "Ada", tags: ["c"] },
      { name: "Ada", tags: ["a", "b", "a"] },
    ];
    for (const content of bad) expect(answerProblem(FORM, { action: "accept", content }), JSON.stringify(content)).toMatch(/^content/);
  });

  it("refuses content values an elicitation form cannot hold (objects, nested arrays, non-finite numbers)", () => {
    expect(answerProblem(FORM, { action: "accept", content: { name: "Ada", extra: { deep: 1 } } })).toMatch(/content\.extra must be/);
    expect(answerProblem(FORM, { action: "accept", content: { name: "Ada", extra: [1] } })).toMatch(/content\.extra must be/);
  });

  it("checks answers with the core JSON Schema validator, and names a requested schema outside it (a handler's bug)", () => {
    const form = (requestedSchema: Record<string, unknown>): InputRequest => ({ method: "elicitation/create", params: { message: "?", requestedSchema } });
    expect(
      answerProblem(form({ type: "object", properties: { when: { type: "string", format: "date" } } }), { action: "accept", content: { when: "2024-02-30" } }),
    ).toBe('content.when: String does not match format "date".');
    const conditional = form({ type: "object", properties: { a: { type: "string" } }, if: { required: ["a"] }, then: { required: ["b"] } });
    expect(answerProblem(conditional, { action: "accept", content: { a: "x" } })).toBe(
      "the requested schema is not a valid elicitation schema ((root): if, then are outside the core JSON Schema validator)",
    );
    expect(answerProblem(form({ type: "object", properties: { a: { type: "nope" } } }), { action: "accept", content: {} })).toMatch(
      /^the requested schema is not a valid elicitation schema \(properties\.a\.type: "nope" is not a JSON Schema type/,
    );
  });

  it("checks sampling and roots answers by shape", () => {
    const sampling: InputRequest = { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } };
    expect(answerProblem(sampling, { role: "assistant", content: { type: "text", text: "hi" }, model: "m" })).toBeUndefined();
    expect(answerProblem(sampling, { role: "assistant" })).toBeDefined();
    expect(answerProblem({ method: "roots/list" }, { roots: [] })).toBeUndefined();
    expect(answerProblem({ method: "roots/list" }, { roots: "/" })).toBeDefined();
  });
});
