/**
 * Bench session Worker: the demo's `add` tool, with 2025-era clients kept in sessions (Durable
 * Objects), so the same call can be measured stateless and inside a session on one Worker.
 * See ../../README.md, "Session run".
 */

import { add } from "../../../../examples/hello/src/tools.ts";
import { createServer } from "../../../../src/index.ts";
import { createSessionObject, createWorker } from "../../../../src/workers/index.ts";

const server = createServer({ info: { name: "edge-mcp-bench-session", version: "0.0.0" }, tools: [add] });

// The bench opens batches of sessions before deleting them; the quota is still counted, only
// not reached (the default allows 50 live sessions per caller).
const worker = createWorker(server, { quotas: { sessions: { perPrincipal: 10_000, perTenant: 10_000 } } });
export default worker;
export const McpSessionObject = createSessionObject(worker);
export { McpQuotaObject } from "../../../../src/workers/index.ts";
