// Usage metering: one record per admitted request rolled up per tenant in McpUsageObject, and the
// operator's usage view (/admin/usage): off without the token, 401 for a wrong one, one tenant per query.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { callerKey } from "../../src/core/principal.ts";
import { sha256Hex } from "../../src/core/bytes.ts";
import type { McpUsageObject } from "../../src/workers/index.ts";
import { bearer, resultOf, send } from "../workers-admission/fixture.ts";

const TOKEN = "observe-test-admin-token";
const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const ISSUER = "https://issuer-one.test";

let nextId = 1;
const unique = () => `u${crypto.randomUUID().slice(0, 8)}`;

function call(tenant: string, name: string, args: object, authorization: string) {
  return send(tenant, {
    body: { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args, _meta: MODERN } },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name, authorization },
  });
}

/** The caller id usage records carry for a subject of a tenant. */
async function callerIdOf(tenant: string, subject: string): Promise<string> {
  return (await sha256Hex(`edge-mcp caller\n${callerKey(tenant, { issuer: ISSUER, subject })}`)).slice(0, 16);
}

function usage(query: string, init: { token?: string | null; accept?: string } = {}): Promise<Response> {
  const token = init.token === undefined ? TOKEN : init.token;
  return exports.default.fetch(`http://127.0.0.1/admin/usage?${query}`, {
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(init.accept ? { accept: init.accept } : {}) },
  });
}

interface Row {
  key: string;
  calls: number;
  errors: number;
}
const rowsOf = async (query: string): Promise<Row[]> => (await (await usage(query)).json<{ rows: Row[] }>()).rows;

describe("usage roll-ups and the usage view", () => {
  it("counts a batched send once when it is sent again under the same id (a retry of a send that arrived)", async () => {
    const tenant = unique();
    const namespace = (env as unknown as { MCP_USAGE_ROLLUPS: DurableObjectNamespace<McpUsageObject> }).MCP_USAGE_ROLLUPS;
    const stub = namespace.get(namespace.idFromName(tenant));
    const at = Date.now();
    const record = {
      tenant,
      caller: "c1",
      method: "tools/call",
      tool: "add",
      outcome: "ok",
      errorCode: 0,
      durationMs: 2,
      bytesIn: 3,
      bytesOut: 4,
      era: "modern",
      session: false,
      at,
    };
    await stub.record([record, record], "send-1");
    await stub.record([record, record], "send-1");
    await stub.record([record], "send-2");
    // Without an id (a caller of the object's own), every call counts.
    await stub.record([record]);
    const report = await stub.report(tenant, { from: at - 1, to: at + 1, by: "tool" });
    expect(report.rows).toEqual([expect.objectContaining({ key: "add", calls: 4, errors: 0, durationMs: 8 })]);
  });

  it("counts each admitted call by tool and by caller, and shows a tenant only its own calls", async () => {
    const [ann, bob, cyd] = [unique(), unique(), unique()];
    const annToken = await bearer({ tenant: "acme", sub: ann });
    const bobToken = await bearer({ tenant: "acme", sub: bob });
    const cydToken = await bearer({ tenant: "globex", sub: cyd });
    expect((await resultOf(await call("acme", "add", { a: 1, b: 2 }, annToken))).result?.content[0]?.text).toBe("3");
    await (await call("acme", "add", { a: 1, b: 2 }, annToken)).text();
    await (await call("acme", "add", { a: "x" }, bobToken)).text(); // a tool error
    await (await call("globex", "add", { a: 1, b: 2 }, cydToken)).text();
    // Refused at admission: not metered (no admitted request).
    expect((await call("acme", "invoice_total", {}, bobToken)).status).toBe(403);

    const [annId, bobId, cydId] = await Promise.all([callerIdOf("acme", ann), callerIdOf("acme", bob), callerIdOf("globex", cyd)]);
    const acme = await vi.waitFor(
      async () => {
        const rows = await rowsOf("tenant=acme&by=caller");
        const mine = rows.filter((row) => row.key === annId || row.key === bobId);
        if (mine.reduce((n, row) => n + row.calls, 0) < 3) throw new Error("records still arriving");
        return rows;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(acme.find((row) => row.key === annId)).toMatchObject({ calls: 2, errors: 0 });
    expect(acme.find((row) => row.key === bobId)).toMatchObject({ calls: 1, errors: 1 });
    expect(acme.find((row) => row.key === cydId)).toBeUndefined();
    const globex = await vi.waitFor(async () => {
      const rows = await rowsOf("tenant=globex&by=caller");
      if (!rows.some((row) => row.key === cydId)) throw new Error("records still arriving");
      return rows;
    });
    expect(globex.find((row) => row.key === cydId)).toMatchObject({ calls: 1, errors: 0 });
    expect(globex.some((row) => row.key === annId || row.key === bobId)).toBe(false);

    const report = await (await usage("tenant=acme&by=tool")).json<{ tenant: string; rows: Row[]; hours: { calls: number }[]; total: { calls: number } }>();
    expect(report.tenant).toBe("acme");
    expect(report.rows.find((row) => row.key === "add")?.calls).toBeGreaterThanOrEqual(3);
    expect(report.rows.some((row) => row.key === "invoice_total")).toBe(false);
    expect(report.hours.reduce((n, hour) => n + hour.calls, 0)).toBe(report.total.calls);
  });

  it("answers 401 with nothing else to a missing or wrong token", async () => {
    for (const token of [null, "wrong", `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const response = await usage("tenant=acme", { token });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe("");
    }
    const basic = await exports.default.fetch("http://127.0.0.1/admin/usage?tenant=acme", { headers: { authorization: `Basic ${btoa(`admin:${TOKEN}`)}` } });
    expect(basic.status).toBe(401);
  });

  it("refuses a query without a tenant, with a bad dimension or a bad range (400)", async () => {
    for (const query of ["", "tenant=", "tenant=../x", "tenant=acme&by=subject", "tenant=acme&from=yesterday", "tenant=acme&from=2026-01-02&to=2026-01-01"]) {
      const response = await usage(query);
      expect(response.status, query).toBe(400);
      expect((await response.json<{ error: string }>()).error).toBeTruthy();
    }
  });

  it("answers an HTML page with the charts for Accept: text/html", async () => {
    const response = await usage("tenant=acme", { accept: "text/html" });
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toContain('<span id="tenant">acme</span>');
    expect(html).toContain('aria-label="calls and errors per hour"');
    expect(html).not.toContain("<script");
  });

  it("serves the view at exactly /admin/usage (a longer path is not the view)", async () => {
    const response = await exports.default.fetch("http://127.0.0.1/admin/usage-other", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
  });
});
