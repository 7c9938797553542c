/**
 * The operator's usage view, `GET /admin/usage?tenant=ID&from&to&by=tool|caller`: off unless an
 * admin token is set, then `Authorization: Bearer <token>` (compared in constant time). JSON, or
 * for `Accept: text/html` a page with charts.
 */

import { constantTimeEqual } from "../../core/bytes.ts";
import { renderUsagePage } from "./usage-page.ts";
import { HOUR_MS, type UsageReader } from "./usage-report.ts";

/** The path of the usage view. */
export const USAGE_PATH = "/admin/usage";
/** The default range: the last 24 hours. */
const DEFAULT_RANGE_MS = 24 * HOUR_MS;
/** The longest range one request may ask for (the object keeps 90 days). */
const MAX_RANGE_MS = 92 * 24 * HOUR_MS;
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}

function problem(status: number, message: string, headers?: Record<string, string>): Response {
  return json({ error: message }, status, headers);
}

/** A time from the query: ISO 8601 or ms since the epoch. */
function timeOf(value: string | null, fallback: number): number | undefined {
  if (value === null || value === "") return fallback;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Answers a request to the usage view. `token` undefined: the view is off (404). A missing or
 * wrong token gets 401 with nothing else; a tenant's data needs that tenant in the query.
 */
export async function handleUsageView(request: Request, token: string | undefined, reader: UsageReader | undefined): Promise<Response> {
  if (!token) return problem(404, `Not Found: the usage view is off (set the MCP_ADMIN_TOKEN secret to turn it on)`);
  const auth = request.headers.get("authorization") ?? "";
  const given = /^Bearer +(\S+)\s*$/i.exec(auth)?.[1];
  if (given === undefined || !constantTimeEqual(given, token))
    return new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer realm="edge-mcp admin"' } });
  if (request.method !== "GET") return problem(405, `Method Not Allowed: ${USAGE_PATH} answers GET`, { allow: "GET" });
  if (!reader) return problem(501, "No usage roll-ups: bind the McpUsageObject Durable Object as MCP_USAGE_ROLLUPS in wrangler.toml");
  const query = new URL(request.url).searchParams;
  const tenant = query.get("tenant");
  if (tenant === null || !TENANT_ID.test(tenant)) return problem(400, "tenant is required: ?tenant=<tenant id> (letters, digits, _ . -)");
  const by = query.get("by") ?? "tool";
  if (by !== "tool" && by !== "caller") return problem(400, `by must be "tool" or "caller"; got "${by.slice(0, 32)}"`);
  const now = Date.now();
  const to = timeOf(query.get("to"), now);
  const from = to === undefined ? undefined : timeOf(query.get("from"), to - DEFAULT_RANGE_MS);
  if (from === undefined || to === undefined) return problem(400, "from and to must be ISO 8601 times or ms since the epoch");
  if (from >= to || to - from > MAX_RANGE_MS) return problem(400, "from must be before to, and the range at most 92 days");
  const report = await reader.report(tenant, { from, to, by });
  if ((request.headers.get("accept") ?? "").includes("text/html")) {
    const other = await reader.report(tenant, { from, to, by: by === "tool" ? "caller" : "tool" });
    const [tools, callers] = by === "tool" ? [report, other] : [other, report];
    return new Response(renderUsagePage(tools, callers), {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      },
    });
  }
  return json(report);
}
