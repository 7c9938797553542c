// What every write of a tenant (the CLI, the admin API) is checked against first: each problem names the tenant and the field.
import { describe, expect, it } from "vitest";
import { checkTenants } from "../../../src/tenancy/tenant-check.ts";

const good = { id: "acme", hosts: ["mcp.acme.test"], modules: [{ name: "greetings" }] };

describe("the checks before a tenant is written", () => {
  it("passes a good tenant, with its config key and its route keys", () => {
    const { tenants, problems } = checkTenants({ tenants: [good] });
    expect(problems).toEqual([]);
    expect(tenants[0]?.entries.map((e) => e.key)).toEqual(["tenant:acme", "host:mcp.acme.test"]);
  });

  it("names the tenant and the field of an unknown field, a duplicate host, an id that is not a slug", () => {
    const problems = (tenants: unknown[]) => checkTenants({ tenants }).problems.join("\n");
    expect(problems([{ ...good, limit: {} }])).toMatch(/^tenant acme: limit is not a known field/);
    expect(problems([good, { id: "globex", hosts: ["mcp.acme.test"], modules: [{ name: "greetings" }] }])).toMatch(/mcp\.acme\.test/);
    expect(problems([{ id: "Not A Slug", modules: [{ name: "greetings" }] }])).toMatch(/id/);
  });

  it("refuses a config larger than a KV value holds (30 MiB), naming the tenant", () => {
    const { tenants, problems } = checkTenants({ tenants: [{ ...good, server: { instructions: "x".repeat(30 * 1024 * 1024) } }] });
    expect(tenants).toEqual([]);
    expect(problems.join("\n")).toMatch(/tenant acme: its config is larger than 25 MiB/);
  });
});
