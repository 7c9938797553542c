// The large-catalogue example (10,000 tools) under wrangler dev, through the official clients: every page to the
// end, the last tool called, tool search, call_tool, and a scoped key that sees only its tools.
import { describe, expect, inject, it } from "vitest";
import { connectLegacyClient, connectModernClient, type ModernClient } from "./clients.ts";

const URL_MCP = `${inject("baseUrlLargeCatalog")}/mcp`;
const ADMIN = { authorization: "Bearer emk_dev_large_catalog_admin_published_example_key" };
const SUPPORT = { authorization: "Bearer emk_dev_large_catalog_support_published_example_key" };
const SEARCH_TOOLS = ["search_tools", "describe_tools", "call_tool"];
const CATALOG_SIZE = 10_000;
const LAST = "identity_note_audit";
const RESTRICTED = /^(hr|payroll|legal|security)_/;

type SearchResult = {
  content: { type: string; text: string }[];
  structuredContent: { matched: number; total: number; tools: { name: string }[]; notFound?: string[] };
};

async function withModern<T>(headers: Record<string, string>, run: (client: ModernClient) => Promise<T>): Promise<T> {
  const client = await connectModernClient(URL_MCP, { headers });
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

describe("a 10,000-tool catalogue with the official clients", () => {
  it("SDK v1 (2025-11-25) follows every page to the end and calls the last tool", async () => {
    const client = await connectLegacyClient(URL_MCP, { headers: ADMIN });
    try {
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(names).toHaveLength(CATALOG_SIZE + SEARCH_TOOLS.length);
      expect(new Set(names).size).toBe(names.length);
      expect(names.slice(0, 3)).toEqual(SEARCH_TOOLS);
      expect(names.at(-1)).toBe(LAST);
      expect(pages).toBeLessThanOrEqual(32);
      const result = await client.callTool({ name: LAST, arguments: { id: "note-9" } });
      expect(result.content).toEqual([{ type: "text", text: `${LAST}: done for note-9` }]);
    } finally {
      await client.close();
    }
  });

  it("client v2 (2026-07-28) lists all 10,000 tools with listTools(), which follows at most 64 pages, and calls the last", async () => {
    await withModern(ADMIN, async (client) => {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(CATALOG_SIZE + SEARCH_TOOLS.length);
      expect(tools.at(-1)?.name).toBe(LAST);
      expect(tools.filter((tool) => tool._meta?.["anthropic/alwaysLoad"] === true).map((tool) => tool.name)).toEqual([
        ...SEARCH_TOOLS,
        "crm_contact_get",
        "crm_contact_search",
        "support_ticket_create",
      ]);
      const result = await client.callTool({ name: LAST, arguments: { id: "note-10" } });
      expect(result.content).toEqual([{ type: "text", text: `${LAST}: done for note-10` }]);
    });
  });

  it("client v2 finds a tool with search_tools, then calls it through call_tool and directly", async () => {
    await withModern(ADMIN, async (client) => {
      const found = (await client.callTool({ name: "search_tools", arguments: { query: "update a contact in the CRM", limit: 3 } })) as unknown as SearchResult;
      expect(found.content[0]?.text).toMatch(
        /^\d+ of 10000 tools matched "update a contact in the CRM"; the best 3:\n- crm_contact_update \(Update contact \(crm\)\): Updates a contact in the CRM\.\n/,
      );
      const best = found.structuredContent.tools[0]?.name as string;
      expect(best).toBe("crm_contact_update");
      const args = { id: "c-42", fields: { email: "ada@example.com" } };
      const through = await client.callTool({ name: "call_tool", arguments: { name: best, arguments: args } });
      const direct = await client.callTool({ name: best, arguments: args });
      expect(through.content).toEqual([{ type: "text", text: "crm_contact_update: done for c-42" }]);
      expect(direct.content).toEqual(through.content);
      // The target's own schema applies through call_tool.
      const invalid = await client.callTool({ name: "call_tool", arguments: { name: best, arguments: { id: "c-42" } } });
      expect(invalid.isError).toBe(true);
      expect((invalid.content as { text: string }[])[0]?.text).toMatch(/^Invalid arguments for tool crm_contact_update: \(root\): .*fields/);
    });
  });

  it("shows a scoped key only the tools its scopes allow, in the list and in search", async () => {
    await withModern(SUPPORT, async (client) => {
      const { tools } = await client.listTools();
      expect(tools.filter((tool) => RESTRICTED.test(tool.name))).toEqual([]);
      expect(tools).toHaveLength(CATALOG_SIZE - 4 * 500 + SEARCH_TOOLS.length);
      const search = (await client.callTool({ name: "search_tools", arguments: { query: "payroll_invoice_get", detail: "names" } })) as unknown as SearchResult;
      expect(search.structuredContent.total).toBe(CATALOG_SIZE - 4 * 500);
      expect(search.structuredContent.tools.filter((tool) => RESTRICTED.test(tool.name))).toEqual([]);
      const picked = (await client.callTool({
        name: "search_tools",
        arguments: { query: "select:payroll_invoice_get,crm_invoice_get" },
      })) as unknown as SearchResult;
      expect(picked.structuredContent).toMatchObject({ matched: 1, tools: [{ name: "crm_invoice_get" }], notFound: ["payroll_invoice_get"] });
    });
    await withModern(ADMIN, async (client) => {
      const search = (await client.callTool({
        name: "search_tools",
        arguments: { query: "payroll_invoice_get", detail: "names", limit: 1 },
      })) as unknown as SearchResult;
      expect(search.structuredContent).toMatchObject({ total: CATALOG_SIZE, tools: [{ name: "payroll_invoice_get" }] });
    });
  });
});
