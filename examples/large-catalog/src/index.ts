/**
 * The large-catalogue example: 10,000 tools behind one endpoint, with tool search and lists that
 * show each caller only the tools its scopes allow. `npm run dev:large-catalog -- --port N`.
 *
 * API keys (published for the example, never secret): the admin key may call every tool; the
 * support key lacks the hr, payroll, legal and security scopes, so it neither sees nor calls them.
 */

import { createAuthorizer, parseAuthConfig, toolSearch } from "edge-mcp";
import { createWorker } from "edge-mcp/workers";
import { RESTRICTED, catalogTools, restrictedScopes } from "./catalog.ts";

const tools = catalogTools();

export default createWorker(
  {
    info: { name: "edge-mcp-large-catalog", title: "edge-mcp large catalogue", version: "0.1.0" },
    instructions: "10,000 tools named <department>_<record>_<action>. Find the one you need with search_tools, then call it by name or through call_tool.",
    tools,
    // Every tool is listed (pages every client can follow to the end); a few are pinned for hosts that defer the rest.
    toolSearch: toolSearch({ pinned: ["crm_contact_get", "crm_contact_search", "support_ticket_create"] }),
  },
  {
    authorizer: createAuthorizer(
      parseAuthConfig(
        {
          resource: "http://127.0.0.1:8787/mcp",
          scopesSupported: RESTRICTED.map((department) => `${department}:read`),
          toolScopes: restrictedScopes(tools),
          apiKeys: [
            // emk_dev_large_catalog_admin_published_example_key
            {
              id: "admin",
              sha256: "9cf629dedc94345d1a36209acc49fcb42cda0ee22e2cdaee73b89d34a8746c9a",
              scopes: RESTRICTED.map((department) => `${department}:read`),
            },
            // emk_dev_large_catalog_support_published_example_key
            { id: "support", sha256: "3fbf2a4b194112ed3cfe7bb5149964b9805f6fa943d6e7b05e362f744ea9c259", scopes: [] },
          ],
        },
        "default",
      ),
    ),
  },
);
