/**
 * Bench floor: the least a Worker can do to answer the bench's MCP traffic on POST /mcp.
 * No validation, no registry, no schemas: parse the JSON body and hand-build each answer.
 * `npm run bench` reports the demo Worker's numbers as ratios to this one.
 */
import { Hono } from "hono";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const SERVER_INFO: JsonObject = { name: "edge-mcp-bench-floor", version: "0.0.0" };
const CAPABILITIES: JsonObject = { tools: {} };
const TOOLS: Json[] = [
  {
    name: "echo",
    description: "Returns the text it is given, unchanged.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "add",
    description: "Adds two numbers and says the sum in a sentence.",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  },
];

// Set by wrangler's [define]: false in this floor, true in ../floor-checks (the same answers, plus the runtime calls that
// edge-mcp's rules make on every POST; `npm run bench:instructions -- --worker checks=test/bench/floor-checks/wrangler.toml`).
declare const FLOOR_CHECKS: boolean;

/**
 * The body as JSON, after the runtime calls edge-mcp makes for its checks: Origin and Host (DNS rebinding), Accept (406),
 * Content-Type (415), Content-Length (413), the body deadline's timer (408), and in 2026-07-28 Mcp-Method and Mcp-Name.
 * Their answers are not checked: only what reading them costs is measured.
 */
async function readChecked(request: Request, modern: boolean): Promise<unknown> {
  const h = request.headers;
  const read = [h.get("origin"), h.get("host"), h.get("accept"), h.get("content-type"), h.get("content-length")];
  const timer = setTimeout(() => undefined, 10_000);
  const text = await request.text();
  clearTimeout(timer);
  if (modern) read.push(h.get("mcp-method"), h.get("mcp-name"));
  return read.length > 0 ? JSON.parse(text) : undefined;
}

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

function callTool(params: JsonObject): JsonObject | undefined {
  const args = isObject(params["arguments"]) ? params["arguments"] : {};
  if (params["name"] === "add") {
    const a = Number(args["a"]);
    const b = Number(args["b"]);
    const sum = a + b;
    return { content: [{ type: "text", text: `The sum of ${a} and ${b} is ${sum}` }], structuredContent: { sum } };
  }
  if (params["name"] === "echo") return { content: [{ type: "text", text: typeof args["text"] === "string" ? args["text"] : JSON.stringify(args["text"]) }] };
  return undefined;
}

const app = new Hono();

app.post("/mcp", async (c) => {
  const message: unknown = FLOOR_CHECKS ? await readChecked(c.req.raw, c.req.header("mcp-protocol-version") === MODERN) : await c.req.json();
  if (!isObject(message) || typeof message["method"] !== "string")
    return c.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } }, 400);
  const id = message["id"];
  if (id === undefined) return c.body(null, 202); // a notification, e.g. notifications/initialized
  const params = isObject(message["params"]) ? message["params"] : {};
  const modern = c.req.header("mcp-protocol-version") === MODERN;

  let result: JsonObject | undefined;
  switch (message["method"]) {
    case "initialize":
      result = { protocolVersion: LEGACY, capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
      break;
    case "server/discover":
      result = { supportedVersions: [MODERN, LEGACY], capabilities: CAPABILITIES };
      break;
    case "tools/list":
      result = { tools: TOOLS };
      break;
    case "tools/call":
      result = callTool(params);
      break;
  }
  if (result === undefined) return c.json({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  if (modern) result = { ...result, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } };
  return c.json({ jsonrpc: "2.0", id, result });
});

export default app;
