// The tenants document, tenant by tenant: "did you mean" for unknown fields, and JSON syntax errors located in the text.
import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../src/core/definition-error.ts";
import { closestName } from "../../../src/core/suggest.ts";
import { parseTenantConfig } from "../../../src/tenancy/tenant-config.ts";
import { parseTenantsByTenant } from "../../../src/tenancy/tenant-document.ts";
import { parseJson } from "../../../src/tenancy/tenant-source.ts";

const base = { id: "acme", pathPrefix: "/t/acme", modules: [{ name: "greetings" }] };

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error("expected a DefinitionError");
}

describe("unknown fields of a tenant", () => {
  it.each([
    [{ ...base, limit: {} }, "tenant acme: limit is not a known field; did you mean limits?"],
    [{ ...base, limits: { maxBodyByte: 5 } }, "tenant acme: limits.maxBodyByte is not a known field; did you mean limits.maxBodyBytes?"],
    [{ ...base, modules: [{ name: "g", prefx: "p" }] }, "tenant acme: modules[0].prefx is not a known field; did you mean modules[0].prefix?"],
    [{ ...base, rateLimit: {} }, "tenant acme: rateLimit is not a known field; did you mean rateLimits?"],
    [{ ...base, rateLimits: { principle: "RL" } }, "tenant acme: rateLimits.principle is not a known field; did you mean rateLimits.principal?"],
    [{ ...base, notifications: { shard: 2 } }, "tenant acme: notifications.shard is not a known field; did you mean notifications.shards?"],
    [{ ...base, colour: "blue" }, expect.stringMatching(/^tenant acme: colour is not a known field \(id, hosts, pathPrefix, modules/)],
  ])("refuses %j suggesting the known field", (config, message) => {
    expect(failure(() => parseTenantConfig(config))).toEqual(message);
  });

  it("suggests only a name within two edits (one for short names)", () => {
    expect(closestName("limit", ["limits", "hosts"])).toBe("limits");
    expect(closestName("xyz", ["id", "hosts"])).toBeUndefined();
    expect(closestName("Hosts", ["hosts"])).toBe("hosts");
  });
});

describe("a tenants document, tenant by tenant", () => {
  it("keeps the valid tenants and sets aside each invalid one with its routes and problem", () => {
    const document = parseTenantsByTenant({
      tenants: [base, { id: "typo", hosts: ["Typo.example.com"], modules: [{ name: "g" }], limit: {} }, { ...base, id: "copy" }, 7],
    });
    expect(document.tenants.map((t) => t.id)).toEqual(["acme"]);
    expect(document.broken).toEqual([
      { label: "typo", hosts: ["typo.example.com"], pathPrefix: undefined, problem: "tenant typo: limit is not a known field; did you mean limits?" },
      // Its path belongs to acme, so it answers nowhere; its problem is still logged.
      { label: "copy", hosts: [], pathPrefix: undefined, problem: "tenant copy: path /t/acme is already used by tenant acme" },
      { label: "#3", hosts: [], pathPrefix: undefined, problem: "tenant #3: (config) must be an object" },
    ]);
  });

  it("throws only for a document that is not {tenants: [...]}", () => {
    expect(failure(() => parseTenantsByTenant({ tenant: [] }))).toMatch(/must be an object \{"tenants": \[...\]\}/);
  });
});

describe("a JSON syntax error in the tenants var", () => {
  it("names the line and column within the JSON text, with that line and a caret", () => {
    const text = '{\n  "tenants": [\n    { "id": "a" "modules": [] }\n  ]\n}';
    const message = failure(() => parseJson(text, "MCP_TENANTS"));
    expect(message).toMatch(/^MCP_TENANTS is not valid JSON: in the MCP_TENANTS JSON, line 3 column 17: /);
    expect(message.endsWith('\n    { "id": "a" "modules": [] }\n' + " ".repeat(16) + "^")).toBe(true);
  });

  it("points at the end of a document cut short", () => {
    expect(failure(() => parseJson('{"tenants": [', "MCP_TENANTS"))).toMatch(/line 1 column 14: Unexpected end of JSON input/);
  });
});
