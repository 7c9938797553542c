import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { compileUriTemplate } from "../../../../src/server/resources/uri-template.ts";

describe("compileUriTemplate", () => {
  it("matches simple variables within one segment and decodes them", () => {
    const t = compileUriTemplate("test://template/{id}/data");
    expect(t.variables).toEqual(["id"]);
    expect(t.match("test://template/123/data")).toEqual({ id: "123" });
    expect(t.match("test://template/a%20b/data")).toEqual({ id: "a b" });
    expect(t.match("test://template/1/2/data")).toBeUndefined();
    expect(t.match("test://template//data")).toBeUndefined();
    expect(t.match("test://template/%E0%A4%A/data")).toBeUndefined();
  });

  it("lets reserved expansion span segments", () => {
    expect(compileUriTemplate("file:///{+path}").match("file:///a/b/c.txt")).toEqual({ path: "a/b/c.txt" });
  });

  it("matches path-segment and query expansions", () => {
    expect(compileUriTemplate("db://users{/id}").match("db://users/42")).toEqual({ id: "42" });
    const q = compileUriTemplate("search://items{?q,limit}");
    expect(q.match("search://items?limit=5&q=cats")).toEqual({ q: "cats", limit: "5" });
    expect(q.match("search://items")).toEqual({});
  });

  it("treats regex characters in the literal parts literally", () => {
    expect(compileUriTemplate("a.b://x+y/{v}").match("aXb://x+y/1")).toBeUndefined();
    expect(compileUriTemplate("a.b://x+y/{v}").match("a.b://x+y/1")).toEqual({ v: "1" });
  });

  it("refuses unbalanced braces", () => {
    expect(() => compileUriTemplate("x://{a")).toThrow(DefinitionError);
  });
});
