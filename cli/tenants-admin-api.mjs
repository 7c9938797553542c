// `edge-mcp tenants --url URL`: the same commands through a running Worker's tenants admin API (`/admin/tenants`),
// which also writes each tenant's record, so that a change reaches every isolate within the Worker's recheckMs.

import { UsageError } from "./usage-error.mjs";

/**
 * @typedef {{ key: string, value: string }} Entry
 * @typedef {{ config: { id: string }, entries: Entry[] }} CheckedTenant
 * @typedef {object} TenantBackend
 * @property {(tenants: CheckedTenant[]) => Promise<void>} put
 * @property {(id: string) => Promise<string | undefined>} get
 * @property {() => Promise<string[]>} list
 * @property {(id: string) => Promise<void>} disable
 * @property {(id: string) => Promise<void>} remove
 */

/**
 * The backend of a Worker's admin API at `base` (its origin), with the token from MCP_ADMIN_TOKEN.
 * @param {string} base
 * @param {string | undefined} token
 * @returns {TenantBackend}
 */
export function adminApiBackend(base, token) {
  if (!token) throw new UsageError("--url needs the admin token in the MCP_ADMIN_TOKEN environment variable");
  let origin;
  try {
    origin = new URL(base).origin;
  } catch {
    throw new UsageError(`--url must be the Worker's URL, such as https://mcp.example.com; got ${base}`);
  }
  /**
   * @param {string} path
   * @param {RequestInit} [init]
   */
  const send = async (path, init = {}) => {
    const response = await fetch(`${origin}/admin/tenants${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      redirect: "error",
    });
    return response;
  };
  /**
   * @param {Response} response
   * @param {string} what
   */
  const ok = async (response, what) => {
    if (response.ok) return response;
    const body = await response.text();
    if (response.status === 401) throw new Error(`${what}: 401, the admin token was refused (MCP_ADMIN_TOKEN)`);
    let detail = body;
    try {
      const parsed = JSON.parse(body);
      detail = [parsed.error, ...(parsed.problems ?? [])].filter(Boolean).join("\n");
    } catch {
      // not JSON: shown as it is
    }
    throw new Error(`${what}: ${response.status} ${detail}`.trim());
  };
  return {
    async put(tenants) {
      const document = { tenants: tenants.map((t) => JSON.parse(/** @type {Entry} */ (t.entries[0]).value)) };
      await ok(await send("", { method: "POST", body: JSON.stringify(document) }), "import");
    },
    async get(id) {
      const response = await send(`/${id}`);
      if (response.status === 404) return undefined;
      return (await ok(response, `get ${id}`)).text();
    },
    async list() {
      /** @type {string[]} */
      const ids = [];
      let cursor = "";
      do {
        const page = await (await ok(await send(cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""), "list")).json();
        ids.push(...page.tenants);
        cursor = page.cursor ?? "";
      } while (cursor);
      return ids;
    },
    async disable(id) {
      await ok(await send(`/${id}/disable`, { method: "POST" }), `disable ${id}`);
    },
    async remove(id) {
      await ok(await send(`/${id}`, { method: "DELETE" }), `delete ${id}`);
    },
  };
}
