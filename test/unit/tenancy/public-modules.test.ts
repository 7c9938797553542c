// A module marked public on an auth tenant: its tools join publicTools (by name, or by prefix pattern).
import { describe, expect, it } from "vitest";
import { defineModule, defineTool } from "../../../src/index.ts";
import { parseTenantsDocument } from "../../../src/tenancy/tenant-config.ts";
import { TenantDirectory } from "../../../src/tenancy/tenant-directory.ts";

const tool = (name: string) => defineTool({ name, description: name, inputSchema: { type: "object" }, handler: () => name });
const MODULES = { docs: defineModule({ tools: [tool("docs_search"), tool("docs_read")] }), billing: defineModule({ tools: [tool("invoice_total")] }) };
const auth = { resource: "https://mcp.example.com/mcp", apiKeys: [{ id: "ci", sha256: "0".repeat(64) }] };

function publicToolsOf(modules: unknown[]): readonly string[] | undefined {
  const document = parseTenantsDocument({ tenants: [{ id: "t", hosts: ["t.example"], modules, auth }] });
  const directory = new TenantDirectory(document, { modules: MODULES, service: () => undefined, info: { name: "t", version: "1" } });
  return directory.auth(document[0] as never)?.publicTools;
}

describe("public modules", () => {
  it("adds a bundled module's tool names, a prefixed or service module's prefix_* pattern", () => {
    expect(publicToolsOf([{ name: "docs", public: true }, { name: "billing" }])).toEqual(["docs_search", "docs_read"]);
    expect(publicToolsOf([{ name: "docs", prefix: "kb", public: true }])).toEqual(["kb_*"]);
    expect(publicToolsOf([{ name: "weather", service: "WEATHER", public: true }, { name: "billing" }])).toEqual(["weather_*"]);
    expect(publicToolsOf([{ name: "docs" }])).toEqual([]);
  });

  it("refuses a public flag that is not a boolean", () => {
    expect(() => publicToolsOf([{ name: "docs", public: "yes" }])).toThrow(/modules\[0\]\.public must be true or false/);
  });
});
