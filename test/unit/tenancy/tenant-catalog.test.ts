// Tool search in tenant configs, and a tenant's catalogue read again: kept when unchanged, rebuilt and announced when changed.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../../src/core/definition-error.ts";
import type { CallToolResult } from "../../../src/core/types.ts";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import type { ServiceTool, ToolService } from "../../../src/modules/service-contract.ts";
import { createScopeFilters } from "../../../src/auth/scope-filter.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { parseTenantConfig, parseTenantsDocument, type TenantConfig } from "../../../src/tenancy/tenant-config.ts";
import { TenantDirectory } from "../../../src/tenancy/tenant-directory.ts";
import { modern } from "../app-client.ts";

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: () => "hi" });
const base = { id: "acme", hosts: ["acme.example.com"], modules: [{ name: "greetings" }] };

describe("toolSearch in a tenant config", () => {
  it("accepts exposure and pinned tool names", () => {
    expect(parseTenantConfig({ ...base, toolSearch: {} }).toolSearch).toEqual({});
    expect(parseTenantConfig({ ...base, toolSearch: { exposure: "pinned", pinned: ["hello", "weather_forecast"] } }).toolSearch).toEqual({
      exposure: "pinned",
      pinned: ["hello", "weather_forecast"],
    });
  });

  it.each([
    [[], /tenant acme: toolSearch must be an object/],
    [{ exposure: "some" }, /tenant acme: toolSearch.exposure must be "all" or "pinned"/],
    [{ pinned: "hello" }, /tenant acme: toolSearch.pinned must be an array of strings/],
    [{ pinned: ["has space"] }, /tenant acme: toolSearch.pinned must be an array of strings matching/],
    [{ limit: 5 }, /tenant acme: toolSearch.limit is not a known field/],
  ])("refuses toolSearch %j, naming tenant and field", (toolSearch, message) => {
    expect(() => parseTenantConfig({ ...base, toolSearch })).toThrow(DefinitionError);
    expect(() => parseTenantConfig({ ...base, toolSearch })).toThrow(message);
  });
});

/** A tool service whose catalogue the test changes. */
function changingService(initial: ServiceTool[]): ToolService & { tools: ServiceTool[] } {
  const service = {
    tools: initial,
    describe: async () => ({ tools: service.tools }),
    callTool: async (name: string): Promise<CallToolResult> => ({ content: [{ type: "text", text: `ran ${name}` }] }),
  };
  return service;
}

const forecast: ServiceTool = { name: "forecast", description: "Weather forecast for a city.", inputSchema: { type: "object" } };
const alerts: ServiceTool = { name: "alerts", description: "Storm alerts for a region.", inputSchema: { type: "object" } };

describe("a tenant's catalogue, read again after its TTL", () => {
  const config = { ...base, modules: [{ name: "greetings" }, { name: "weather", service: "WEATHER" }], toolSearch: {} };
  let now = 0;
  const setup = (onToolsChanged?: (tenant: TenantConfig) => void) => {
    const service = changingService([forecast]);
    const make = (previous?: TenantDirectory, document = config) =>
      new TenantDirectory(
        parseTenantsDocument({ tenants: [document] }),
        {
          modules: { greetings: { tools: [hello] } },
          service: () => service,
          info: { name: "t", version: "1" },
          catalogTtlMs: 100,
          now: () => now,
          ...(onToolsChanged ? { onToolsChanged } : {}),
        },
        previous,
      );
    return { service, make, tenant: parseTenantConfig(config) };
  };

  it("keeps the same server (pages, index) while the catalogue is unchanged", async () => {
    now = 0;
    const { make, tenant } = setup();
    const directory = make();
    const first = await directory.server(tenant);
    now = 500;
    expect(await directory.server(tenant)).toBe(first);
  });

  it("builds a new server whose list and search show the change, and announces tools/list_changed on the old one", async () => {
    now = 0;
    const { service, make, tenant } = setup();
    const directory = make();
    const first = await directory.server(tenant);
    const heard: string[] = [];
    first.changes.subscribe({ toolsListChanged: true }, { send: (method) => void heard.push(method) });
    service.tools = [forecast, alerts];
    now = 500;
    const second = await directory.server(tenant);
    expect(second).not.toBe(first);
    expect(heard).toEqual(["notifications/tools/list_changed"]);
    const app = createMcpApp({ server: second, tenant: "acme", allow: { hosts: ["acme.example.com"] } });
    const names = ((await modern(app, "tools/list")).body["result"] as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain("weather_alerts");
    const found = (await modern(app, "tools/call", { name: "search_tools", arguments: { query: "storm", detail: "names" } })).body["result"] as {
      structuredContent: unknown;
    };
    expect(found.structuredContent).toMatchObject({ matched: 1, tools: [{ name: "weather_alerts" }] });
  });

  it("announces through the hook when there is one, once per change", async () => {
    now = 0;
    const seen: string[] = [];
    const { service, make, tenant } = setup((changed) => seen.push(changed.id));
    const directory = make();
    await directory.server(tenant);
    now = 500;
    await directory.server(tenant);
    expect(seen).toEqual([]);
    service.tools = [alerts];
    now = 1000;
    await directory.server(tenant);
    expect(seen).toEqual(["acme"]);
  });

  it("keeps a tenant's server across a new tenants document that leaves it unchanged, and rebuilds one whose config changed", async () => {
    now = 0;
    const { make, tenant } = setup();
    const directory = make();
    const first = await directory.server(tenant);
    const heard: string[] = [];
    first.changes.subscribe({ toolsListChanged: true }, { send: (method) => void heard.push(method) });
    expect(await make(directory).server(tenant)).toBe(first);
    const pinned = { ...config, toolSearch: { exposure: "pinned" as const } };
    const next = await make(directory, pinned).server(parseTenantConfig(pinned));
    expect(next).not.toBe(first);
    expect(heard).toEqual(["notifications/tools/list_changed"]);
  });
});

describe("createScopeFilters", () => {
  const filters = createScopeFilters({ toolScopes: { invoice_total: ["invoices:read"], public_tool: [], "*": ["base"] }, scopeHierarchy: "none" });

  it("allows a tool whose scopes the principal holds, its own entry winning over *", () => {
    const reader = filters({ scopes: ["invoices:read"] });
    expect([reader?.allows("invoice_total"), reader?.allows("public_tool"), reader?.allows("other")]).toEqual([true, true, false]);
    const based = filters({ scopes: ["base"] });
    expect([based?.allows("invoice_total"), based?.allows("public_tool"), based?.allows("other")]).toEqual([false, true, true]);
  });

  it("gives principals the same key exactly when they satisfy the same entries, whatever their other scopes", () => {
    expect(filters({ scopes: ["invoices:read", "x"] })?.key).toBe(filters({ scopes: ["invoices:read", "y", "z"] })?.key);
    expect(filters({ scopes: ["invoices:read"] })?.key).not.toBe(filters({ scopes: ["base"] })?.key);
  });

  it("filters nothing when no tool needs a scope", () => {
    expect(createScopeFilters({ toolScopes: { a: [] }, scopeHierarchy: "none" })({ scopes: [] })).toBeUndefined();
  });

  it("honours the colon hierarchy", () => {
    const colon = createScopeFilters({ toolScopes: { invoice_total: ["invoices:read"] }, scopeHierarchy: "colon" });
    expect(colon({ scopes: ["invoices"] })?.allows("invoice_total")).toBe(true);
    expect(colon({ scopes: ["invoice"] })?.allows("invoice_total")).toBe(false);
  });
});
