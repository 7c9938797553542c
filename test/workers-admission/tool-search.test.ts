// Tool search inside workerd: ranking on a fixed catalogue, detail levels, exposure modes, and call_tool
// admitted exactly as a direct call (scopes 403, rate limits 429, unknown -32602), statelessly and in sessions.
import { describe, expect, it } from "vitest";
import { API_KEY, bearer, inSession, initialize, modern, resultOf, send, clearOfMinuteEnd } from "./fixture.ts";

type Tools = { tools: { name: string; _meta?: Record<string, unknown> }[]; nextCursor?: string; cacheScope?: string };

async function listAll(tenant: string, authorization?: string): Promise<{ names: string[]; pages: Tools[] }> {
  const pages: Tools[] = [];
  let cursor: string | undefined;
  do {
    const reply = await resultOf(await modern(tenant, "tools/list", cursor === undefined ? {} : { cursor }, authorization));
    const page = reply.result as unknown as Tools;
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { names: pages.flatMap((p) => p.tools.map((t) => t.name)), pages };
}

async function search(tenant: string, args: Record<string, unknown>, authorization?: string) {
  const reply = await resultOf(await modern(tenant, "tools/call", { name: "search_tools", arguments: args }, authorization));
  return reply.result as {
    content: { text: string }[];
    structuredContent: { matched: number; total: number; tools: Record<string, unknown>[]; notFound?: string[] };
  };
}

const CATALOG = ["invoice_total", "report_export", "crm_contact_update", "crm_contact_get", "twin_b", "twin_a", "weather_now"];

describe("search_tools on a fixed catalogue", () => {
  it("ranks the tool named exactly above one whose description repeats its name", async () => {
    const found = await search("catalog", { query: "invoice_total", detail: "names" });
    expect(found.structuredContent.tools.map((t) => t["name"])).toEqual(["invoice_total", "report_export"]);
    expect(found.content[0]?.text).toMatch(/^2 of 7 tools matched "invoice_total":\n- invoice_total\n- report_export\n/);
  });

  it("breaks ties by name, the same way on every call", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await search("catalog", { query: "identical words", detail: "names" })).structuredContent.tools).toEqual([
        { name: "twin_a" },
        { name: "twin_b" },
      ]);
    }
    expect((await search("catalog", { query: "identical words", limit: 1, detail: "names" })).structuredContent).toMatchObject({
      matched: 2,
      tools: [{ name: "twin_a" }],
    });
  });

  it("finds a tool by a parameter's description and by its search hint", async () => {
    expect((await search("catalog", { query: "email address" })).structuredContent.tools[0]).toMatchObject({ name: "crm_contact_update" });
    expect((await search("catalog", { query: "will it rain" })).structuredContent.tools).toEqual([
      { name: "weather_now", description: "Current weather for a city." },
    ]);
  });

  it("answers names, summaries and full definitions, the full ones exactly as tools/list lists them", async () => {
    const query = { query: "update contact", limit: 1 };
    expect((await search("catalog", { ...query, detail: "names" })).structuredContent.tools).toEqual([{ name: "crm_contact_update" }]);
    expect((await search("catalog", query)).structuredContent.tools).toEqual([
      { name: "crm_contact_update", title: "Update contact", description: "Updates a contact in the CRM." },
    ]);
    const full = await search("catalog", { ...query, detail: "full" });
    const listed = (await listAll("catalog")).pages[0]?.tools.find((t) => t.name === "crm_contact_update");
    expect(full.structuredContent.tools).toEqual([listed]);
    expect(full.content[0]?.text).toMatch(/^2 of 7 tools matched "update contact"; the best 1:\n\{"name":"crm_contact_update","title":"Update contact",/);
  });

  it("picks by exact name with select: and describes tools by name", async () => {
    expect((await search("catalog", { query: "select:twin_b,nope", detail: "names" })).structuredContent).toMatchObject({
      matched: 1,
      tools: [{ name: "twin_b" }],
      notFound: ["nope"],
    });
    const described = await resultOf(await modern("catalog", "tools/call", { name: "describe_tools", arguments: { names: ["weather_now"] } }));
    expect(described.result?.["structuredContent"]).toEqual({
      tools: [
        {
          name: "weather_now",
          description: "Current weather for a city.",
          inputSchema: { type: "object" },
          _meta: { "anthropic/searchHint": "rain temperature", "anthropic/alwaysLoad": true },
        },
      ],
    });
  });
});

describe("exposure modes", () => {
  it("lists every tool after the search tools, the pinned one marked for hosts to keep loaded", async () => {
    const { names, pages } = await listAll("catalog");
    expect(names).toEqual(["search_tools", "describe_tools", "call_tool", ...CATALOG]);
    const loaded = pages.flatMap((p) => p.tools).filter((t) => t._meta?.["anthropic/alwaysLoad"] === true);
    expect(loaded.map((t) => t.name)).toEqual(["search_tools", "describe_tools", "call_tool", "weather_now"]);
    expect(pages[0]?.cacheScope).toBe("public");
  });

  it("lists only the pinned and search tools in pinned mode; the others stay callable by name, found by search", async () => {
    expect((await listAll("pinned")).names).toEqual(["search_tools", "describe_tools", "call_tool", "crm_contact_get"]);
    expect((await resultOf(await modern("pinned", "tools/call", { name: "twin_a", arguments: {} }))).result?.content[0]?.text).toBe("a");
    expect((await search("pinned", { query: "twin", detail: "names" })).structuredContent).toMatchObject({ matched: 2, total: 7 });
    const called = await resultOf(
      await modern("pinned", "tools/call", { name: "call_tool", arguments: { name: "crm_contact_update", arguments: { email: "a@b.c" } } }),
    );
    expect(called.result?.content[0]?.text).toBe("updated a@b.c");
  });

  it("gives 2025 clients in a session the same list and the same call_tool", async () => {
    const { sessionId } = await initialize("pinned");
    const list = await resultOf(await inSession("pinned", sessionId as string, "tools/list"));
    expect((list.result as unknown as Tools).tools.map((t) => t.name)).toEqual(["search_tools", "describe_tools", "call_tool", "crm_contact_get"]);
    const called = await resultOf(await inSession("pinned", sessionId as string, "tools/call", { name: "call_tool", arguments: { name: "twin_b" } }));
    expect(called.result?.content[0]?.text).toBe("b");
  });
});

describe("lists and search by authorization", () => {
  it("lists and finds only the tools the caller's scopes allow, privately", async () => {
    const reader = await bearer({ scope: "profile:read" });
    const accountant = await bearer({ scope: "profile:read invoices:read" });
    const readerList = await listAll("secure", reader);
    expect(readerList.names).not.toContain("invoice_total");
    expect(readerList.names).toContain("invoice_total_zod");
    expect(readerList.pages[0]?.cacheScope).toBe("private");
    expect((await listAll("secure", accountant)).names).toContain("invoice_total");
    const readerFinds = await search("secure", { query: "invoice", detail: "names" }, reader);
    expect(readerFinds.structuredContent.tools).toEqual([{ name: "invoice_total_zod" }]);
    const accountantFinds = await search("secure", { query: "invoice", detail: "names" }, accountant);
    expect(accountantFinds.structuredContent.tools.map((t) => t["name"]).sort()).toEqual(["invoice_total", "invoice_total_zod"]);
    expect(accountantFinds.structuredContent.total).toBe(readerFinds.structuredContent.total + 1);
  });
});

describe("call_tool gets the admission of a direct call", () => {
  const direct = (authorization: string) => modern("secure", "tools/call", { name: "invoice_total", arguments: { lines: [1, 2] } }, authorization);
  const through = (authorization: string) =>
    modern("secure", "tools/call", { name: "call_tool", arguments: { name: "invoice_total", arguments: { lines: [1, 2] } } }, authorization);

  it("refuses a caller without the target's scope with the same 403 challenge as a direct call", async () => {
    const reader = await bearer({ scope: "profile:read" });
    const [a, b] = [await direct(reader), await through(reader)];
    expect(b.status).toBe(403);
    expect(b.status).toBe(a.status);
    expect(b.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="invoices:read"/);
    expect(b.headers.get("www-authenticate")).toBe(a.headers.get("www-authenticate"));
    const [bodyA, bodyB] = [await a.json<{ error: unknown }>(), await b.json<{ error: unknown }>()];
    expect(bodyB.error).toEqual(bodyA.error);
    expect((await resultOf(await through(`Bearer ${API_KEY}`))).result?.content[0]?.text).toBe("Total: 3");
  });

  it("refuses it in a 2025 session too, with the challenge of a direct call (the public metadata URL)", async () => {
    const reader = await bearer({ scope: "profile:read" });
    const { sessionId } = await initialize("secure", reader);
    const refused = await inSession(
      "secure",
      sessionId as string,
      "tools/call",
      { name: "call_tool", arguments: { name: "invoice_total", arguments: { lines: [1] } } },
      reader,
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="invoices:read"/);
    // Step-up authorization reads resource_metadata: it names the URL the client used, never the session object's.
    expect(refused.headers.get("www-authenticate")).toContain('resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/t/secure/mcp"');
    const direct = await inSession("secure", sessionId as string, "tools/call", { name: "invoice_total", arguments: { lines: [1] } }, reader);
    expect(direct.status).toBe(403);
    await direct.text();
    expect(refused.headers.get("www-authenticate")).toBe(direct.headers.get("www-authenticate"));
    expect(await refused.json()).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/invoices:read/) } });
  });

  it("answers an unknown tool with -32602 after the scope check, as a direct call does", async () => {
    const token = `Bearer ${API_KEY}`;
    const [a, b] = [
      await resultOf(await modern("secure", "tools/call", { name: "ghost", arguments: {} }, token)),
      await resultOf(await modern("secure", "tools/call", { name: "call_tool", arguments: { name: "ghost" } }, token)),
    ];
    expect(b.error).toEqual(a.error);
    expect(b).toMatchObject({ status: 200, error: { code: -32602, message: "Unknown tool: ghost" } });
  });

  it("counts the target against its rate limit: past it, call_tool gets 429 with Retry-After", { timeout: 30_000 }, async () => {
    await clearOfMinuteEnd();
    // A client address of its own: the limit is counted per caller and tool, apart from other tests.
    const headers = { "cf-connecting-ip": "203.0.113.13", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" };
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    let id = 1;
    const post = (name: string, args: Record<string, unknown>) =>
      send("open", {
        body: { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args, _meta: meta } },
        headers: { ...headers, "mcp-name": name },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await post("call_tool", { name: "whoami" });
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    // call_tool itself is now at its limit too; a direct call of whoami is at its own.
    const limited = await post("whoami", {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.json()).toMatchObject({ error: { code: -31429, data: { retryAfterSeconds: 60 } } });
  });

  it("counts call_tool's target with the target's own limit when call_tool is under its own", { timeout: 30_000 }, async () => {
    await clearOfMinuteEnd();
    const headers = { "cf-connecting-ip": "203.0.113.14", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" };
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    let id = 100;
    const post = (name: string, args: Record<string, unknown>) =>
      send("open", {
        body: { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args, _meta: meta } },
        headers: { ...headers, "mcp-name": name },
      });
    for (let i = 0; i < 5; i++) expect((await post("invoice_total", { lines: [i] })).status).toBe(200);
    const limited = await post("call_tool", { name: "invoice_total", arguments: { lines: [1] } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
  });
});
