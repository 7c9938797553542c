import { describe, expect, it } from "vitest";
import { redact, redactHeaders } from "../../../src/http/debug-log.ts";

describe("redact", () => {
  it("replaces credential-like keys at any depth and keeps the rest", () => {
    const message = { params: { arguments: { apiKey: "k", password: "p", nested: [{ access_token: "t" }], city: "Paris" }, _meta: { progressToken: 1 } } };
    expect(redact(message)).toEqual({
      params: {
        arguments: { apiKey: "[redacted]", password: "[redacted]", nested: [{ access_token: "[redacted]" }], city: "Paris" },
        _meta: { progressToken: 1 },
      },
    });
  });

  it("keeps __proto__ keys as data without touching prototypes", () => {
    const copy = redact(JSON.parse('{"__proto__":{"secret":"s"}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ secret: "[redacted]" });
  });

  it("redacts authorization and cookie headers", () => {
    const headers = new Headers({ authorization: "Bearer abc", cookie: "a=b", "x-api-key": "k", accept: "application/json" });
    expect(redactHeaders(headers)).toEqual({ authorization: "[redacted]", cookie: "[redacted]", "x-api-key": "[redacted]", accept: "application/json" });
  });
});
