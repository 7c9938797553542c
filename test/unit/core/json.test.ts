import { describe, expect, it } from "vitest";
import { jsonDepthExceeds, own } from "../../../src/core/json.ts";
import { decodeHeaderValue } from "../../../src/core/header-value.ts";

describe("jsonDepthExceeds", () => {
  it("accepts nesting up to the limit and refuses one level more", () => {
    expect(jsonDepthExceeds("[[[1]]]", 3)).toBe(false);
    expect(jsonDepthExceeds("[[[[1]]]]", 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
  });

  it("ignores brackets inside strings, including after escaped quotes", () => {
    expect(jsonDepthExceeds('{"a":"[[[[[[\\"{{{{{"}', 2)).toBe(false);
    expect(jsonDepthExceeds('["\\\\",[[[]]]]', 3)).toBe(true);
  });

  it("counts sibling containers without accumulating depth", () => {
    expect(jsonDepthExceeds("[[],[],[],[],[]]", 2)).toBe(false);
  });

  it("agrees with a walk of every character whether the brackets are few (counted only) or many", () => {
    const walk = (text: string, limit: number): boolean => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
          if (c === "\\") i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === "{" || c === "[") {
          if (++depth > limit) return true;
        } else if (c === "}" || c === "]") depth--;
      }
      return false;
    };
    const texts = ['{"a":[1,{"b":[]}]}', '["{[{[", {"x": "]]"}]', "[".repeat(10) + "]".repeat(10), '{"k":"\\"}', "{}", ""];
    for (const text of texts) for (let limit = 0; limit <= 12; limit++) expect(jsonDepthExceeds(text, limit), `${text} ${limit}`).toBe(walk(text, limit));
  });
});

describe("own", () => {
  it("reads own properties only, never inherited ones", () => {
    const parsed = JSON.parse('{"__proto__":{"x":1},"a":2}') as Record<string, unknown>;
    expect(own(parsed, "a")).toBe(2);
    expect(own(parsed, "__proto__")).toEqual({ x: 1 });
    expect(own({}, "toString")).toBeUndefined();
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });
});

describe("decodeHeaderValue", () => {
  it("passes plain values through, including ones that only look half-encoded", () => {
    expect(decodeHeaderValue("tools/call")).toBe("tools/call");
    expect(decodeHeaderValue("SGVsbG8=")).toBe("SGVsbG8=");
    expect(decodeHeaderValue("=?base64?SGVsbG8=")).toBe("=?base64?SGVsbG8=");
    expect(decodeHeaderValue("=?base64?SGVsbG8=?=")).toBe("Hello");
  });

  it("decodes the =?base64?…?= form as UTF-8", () => {
    expect(decodeHeaderValue(`=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode("héllo")))}?=`)).toBe("héllo");
  });

  it("returns undefined for malformed base64 or bytes that are not UTF-8", () => {
    expect(decodeHeaderValue("=?base64?***?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?SGVsbG8?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?SGVs!!!bG8=?=")).toBeUndefined();
    expect(decodeHeaderValue(`=?base64?${btoa("\xff\xfe")}?=`)).toBeUndefined();
  });
});
