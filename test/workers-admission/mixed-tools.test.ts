// Mixed public and protected tools (tenants "mixed" and "mixed-hidden"): what an anonymous caller is shown in
// tools/list, tool search and code mode's catalogue, and the 401 challenge of a protected tool it calls.
import { describe, expect, it } from "vitest";
import { bearer, initialize, inSession, modern, resultOf } from "./fixture.ts";

type Reply = Awaited<ReturnType<typeof resultOf>>;

const call = (tenant: string, name: string, args: Record<string, unknown>, authorization?: string) =>
  modern(tenant, "tools/call", { name, arguments: args }, authorization);

async function listed(tenant: string, authorization?: string): Promise<Map<string, Record<string, unknown>>> {
  const reply = await resultOf(await modern(tenant, "tools/list", {}, authorization));
  const tools = (reply.result?.["tools"] ?? []) as Record<string, unknown>[];
  return new Map(tools.map((tool) => [tool["name"] as string, tool]));
}

const textOf = (reply: Reply): string => (reply.result?.content ?? []).map((block) => block.text).join("\n");
const CHALLENGE = /^Bearer resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/t\/mixed\/mcp", scope="invoices:read"$/;

describe("an anonymous caller of a tenant with public tools (the default: protected tools listed)", () => {
  it("lists protected tools beside public ones, each with its securitySchemes", async () => {
    const tools = await listed("mixed");
    expect([...tools.keys()]).toEqual(expect.arrayContaining(["whoami", "invoice_total", "invoice_total_zod", "search_tools", "execute"]));
    expect(tools.get("whoami")?.["securitySchemes"]).toEqual([{ type: "noauth" }]);
    expect(tools.get("invoice_total")?.["securitySchemes"]).toEqual([{ type: "oauth2", scopes: ["invoices:read"] }]);
    expect((tools.get("invoice_total")?.["_meta"] as Record<string, unknown>)["securitySchemes"]).toEqual([{ type: "oauth2", scopes: ["invoices:read"] }]);
    expect(tools.get("invoice_total_zod")?.["securitySchemes"]).toEqual([{ type: "oauth2" }]);
  });

  it("answers a call of a protected tool with 401, the challenge in WWW-Authenticate and in error.data._meta", async () => {
    const response = await call("mixed", "invoice_total", { lines: [1, 2] });
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(CHALLENGE);
    const reply = await resultOf(response);
    expect(reply.error?.data).toEqual({ _meta: { "mcp/www_authenticate": [challenge] } });
    // The public tool runs without a token, and a token opens the protected one.
    expect(JSON.parse(textOf(await resultOf(await call("mixed", "whoami", {}))))).toMatchObject({ tenant: "mixed", subject: null });
    const ok = await resultOf(await call("mixed", "invoice_total", { lines: [1, 2] }, await bearer({ tenant: "mixed", scope: "invoices:read" })));
    expect(textOf(ok)).toBe("Total: 3");
  });

  it("answers the same 401 in a 2025 session opened anonymously", async () => {
    const { sessionId } = await initialize("mixed");
    const refused = await inSession("mixed", sessionId as string, "tools/call", { name: "invoice_total", arguments: { lines: [1] } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(CHALLENGE);
    await refused.text();
  });

  it("finds protected tools through tool search, and call_tool refuses them with the same 401", async () => {
    const found = await resultOf(await call("mixed", "search_tools", { query: "invoice lines" }));
    const names = (found.result?.["structuredContent"] as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toContain("invoice_total");
    const refused = await call("mixed", "call_tool", { name: "invoice_total", arguments: { lines: [1] } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(CHALLENGE);
    await refused.text();
    expect(textOf(await resultOf(await call("mixed", "call_tool", { name: "whoami", arguments: {} })))).toContain('"tenant":"mixed"');
  });

  it("declares protected tools to code mode, and a program's call of one is refused as the direct call is", async () => {
    const declared = textOf(await resultOf(await call("mixed", "tool_declarations", {})));
    expect(declared).toMatch(/\binvoice_total\(/);
    const direct = await resultOf(await call("mixed", "invoice_total", { lines: [1] }));
    const reply = await resultOf(
      await call("mixed", "execute", { code: `try { await tools.invoice_total({ lines: [1] }); return "ran"; } catch (e) { return { message: e.message }; }` }),
    );
    expect(JSON.parse(textOf(reply))).toEqual({ message: direct.error?.message });
    expect(direct.error?.message).toMatch(/^Unauthorized/);
  });
});

describe('anonymousList: "public-only"', () => {
  it("lists the public tools only to an anonymous caller, and every tool to a caller with a token", async () => {
    const anonymous = await listed("mixed-hidden");
    expect([...anonymous.keys()].sort()).toEqual(["call_tool", "describe_tools", "execute", "search_tools", "tool_declarations", "whoami"]);
    const signedIn = await listed("mixed-hidden", await bearer({ tenant: "mixed-hidden", scope: "invoices:read" }));
    expect([...signedIn.keys()]).toContain("invoice_total");
  });

  it("keeps hidden tools hidden from tool search and code mode's catalogue, and still refuses them with 401", async () => {
    const found = await resultOf(await call("mixed-hidden", "search_tools", { query: "invoice lines" }));
    expect((found.result?.["structuredContent"] as { tools: { name: string }[] }).tools.map((tool) => tool.name)).not.toContain("invoice_total");
    const described = await resultOf(await call("mixed-hidden", "describe_tools", { names: ["invoice_total"] }));
    expect(JSON.stringify(described.result ?? described.error)).not.toContain("Adds up invoice lines");
    expect(textOf(await resultOf(await call("mixed-hidden", "tool_declarations", {})))).not.toMatch(/\binvoice_total\(/);
    const refused = await call("mixed-hidden", "call_tool", { name: "invoice_total", arguments: { lines: [1] } });
    expect(refused.status).toBe(401);
    await refused.text();
    const direct = await call("mixed-hidden", "invoice_total", { lines: [1] });
    expect(direct.status).toBe(401);
    await direct.text();
  });
});
