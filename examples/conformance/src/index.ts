/**
 * The conformance fixture: one Worker exposing everything the official MCP conformance suites
 * call, for both revisions (2025-11-25 through 0.1.16, 2026-07-28 through 0.2.0-alpha), and the
 * skills the skills-extension scenarios (sep-2640-*) discover.
 * `npm run dev:conformance -- --port N` serves it at http://127.0.0.1:N/mcp;
 * `npm run test:conformance` runs both suites against it (test/conformance/run.sh).
 */

import { createServer } from "edge-mcp";
import { fullJsonSchema } from "edge-mcp/json-schema";
import { createNotificationHub, createSessionObject, createTaskObject, createWorker } from "edge-mcp/workers";
import { diagnosticTools } from "./diagnostic-tools.ts";
import { mrtrTools } from "./mrtr-tools.ts";
import { prompts } from "./prompts.ts";
import { resourceTemplates, resources } from "./resources.ts";
import { skills } from "./skills.ts";
import { taskTools } from "./task-tools.ts";
import { sharedTools } from "./tools.ts";

const server = createServer({
  info: { name: "mcp-conformance-test-server", version: "1.0.0" },
  instructions: "Conformance test fixture: every tool, resource and prompt the MCP conformance suites exercise.",
  tools: [...sharedTools, ...diagnosticTools, ...mrtrTools, ...taskTools],
  resources,
  resourceTemplates,
  prompts,
  // The skills extension (SEP-2640): skills/list, skills/get, resources/directory/read.
  skills,
  // json_schema_2020_12_tool uses $anchor and if/then/else, outside the core validator.
  features: [fullJsonSchema()],
});

// 2025-era clients get sessions (MCP_LEGACY_SESSIONS in wrangler.toml): sampling and elicitation
// travel as server→client requests; 2026-07-28 traffic stays stateless and never reaches it.
// The suites open a few hundred sessions and tasks per run and never end them: a test fixture's quota.
// The suite opens many sessions, tasks and listen streams from one anonymous caller, some at once.
const big = { perPrincipal: 10_000, perTenant: 10_000, anonymous: 10_000 };
const worker = createWorker(server, { quotas: { sessions: big, tasks: big, streams: big } });
export default worker;
// The Durable Object classes run on the Worker's server and options.
export const McpSessionObject = createSessionObject(worker);
// Tool calls of task tools run as tasks, each in its own Durable Object (MCP_TASKS).
export const McpTaskObject = createTaskObject(worker);
export const McpNotificationHub = createNotificationHub(worker);
export { McpQuotaObject } from "edge-mcp/workers";
