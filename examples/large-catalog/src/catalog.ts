/**
 * A generated catalogue of 10,000 tools, the size a platform team reaches by putting whole internal
 * APIs behind one endpoint: 20 departments × 25 kinds of record × 20 actions, named
 * `<department>_<record>_<action>` (`crm_contact_update`). Every tool has its own schemas.
 */

import { defineTool, type ToolDefinition } from "edge-mcp";

export const DEPARTMENTS = [
  ["billing", "Billing"],
  ["crm", "the CRM"],
  ["inventory", "Inventory"],
  ["hr", "HR"],
  ["support", "Support"],
  ["marketing", "Marketing"],
  ["sales", "Sales"],
  ["shipping", "Shipping"],
  ["finance", "Finance"],
  ["analytics", "Analytics"],
  ["security", "Security"],
  ["devops", "DevOps"],
  ["legal", "Legal"],
  ["procurement", "Procurement"],
  ["payroll", "Payroll"],
  ["calendar", "the calendar"],
  ["docs", "the document store"],
  ["chat", "team chat"],
  ["storage", "file storage"],
  ["identity", "the identity service"],
] as const;

const RECORDS = [
  "account",
  "contact",
  "invoice",
  "order",
  "ticket",
  "report",
  "user",
  "team",
  "project",
  "task",
  "document",
  "payment",
  "subscription",
  "product",
  "shipment",
  "campaign",
  "lead",
  "vendor",
  "contract",
  "asset",
  "incident",
  "event",
  "policy",
  "budget",
  "note",
] as const;

/** Each action: its verb for descriptions, and what it takes besides the record's id. */
const ACTIONS = [
  ["get", "Reads one", "id"],
  ["list", "Lists", "page"],
  ["create", "Creates", "fields"],
  ["update", "Updates", "id+fields"],
  ["delete", "Deletes", "id"],
  ["search", "Searches", "query"],
  ["export", "Exports", "page"],
  ["import", "Imports", "fields"],
  ["archive", "Archives", "id"],
  ["restore", "Restores an archived", "id"],
  ["approve", "Approves", "id+comment"],
  ["reject", "Rejects", "id+comment"],
  ["assign", "Assigns an owner to", "id+owner"],
  ["close", "Closes", "id+comment"],
  ["reopen", "Reopens", "id+comment"],
  ["merge", "Merges two records of", "id+other"],
  ["duplicate", "Duplicates", "id"],
  ["share", "Shares", "id+owner"],
  ["comment", "Adds a comment to", "id+comment"],
  ["audit", "Shows the change history of", "id"],
] as const;

export const TOOL_COUNT = DEPARTMENTS.length * RECORDS.length * ACTIONS.length;

function inputSchema(record: string, takes: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const part of takes.split("+")) {
    if (part === "id") {
      properties["id"] = { type: "string", description: `The ${record}'s id.` };
      required.push("id");
    } else if (part === "page") {
      properties["cursor"] = { type: "string", description: "Where to continue, from the previous answer." };
      properties["limit"] = { type: "integer", minimum: 1, maximum: 100, description: "How many to return." };
    } else if (part === "fields") {
      properties["fields"] = { type: "object", description: `The ${record}'s fields, by name.` };
      required.push("fields");
    } else if (part === "query") {
      properties["query"] = { type: "string", description: "Words to look for." };
      required.push("query");
    } else if (part === "comment") {
      properties["comment"] = { type: "string", description: "Why, in a sentence." };
    } else if (part === "owner") {
      properties["owner"] = { type: "string", description: "The user or team to give it to." };
      required.push("owner");
    } else if (part === "other") {
      properties["other"] = { type: "string", description: `The id of the ${record} to merge into this one.` };
      required.push("other");
    }
  }
  return { type: "object", properties, required, additionalProperties: false };
}

/** Every tool, in name order of departments, then records, then actions; the last is `identity_note_audit`. */
export function catalogTools(): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  for (const [department, where] of DEPARTMENTS) {
    for (const record of RECORDS) {
      for (const [action, verb, takes] of ACTIONS) {
        const name = `${department}_${record}_${action}`;
        const plural = takes === "page" || action === "search" || action === "import";
        tools.push(
          defineTool({
            name,
            title: `${action[0]?.toUpperCase()}${action.slice(1)} ${record} (${department})`,
            description: `${verb} ${plural ? `${record}s` : `a ${record}`} in ${where}.`,
            inputSchema: inputSchema(record, takes),
            annotations: { readOnlyHint: ["get", "list", "search", "export", "audit"].includes(action), openWorldHint: false },
            handler: (args) => ({
              content: [{ type: "text", text: `${name}: done${typeof args["id"] === "string" ? ` for ${args["id"]}` : ""}` }],
            }),
          }),
        );
      }
    }
  }
  return tools;
}

/** Departments whose tools need a scope of their own (`hr:read`, …): other callers neither see nor call them. */
export const RESTRICTED = ["hr", "payroll", "legal", "security"] as const;

/** `toolScopes` of the auth config: each restricted department's tools need `<department>:read`. */
export function restrictedScopes(tools: readonly ToolDefinition[]): Record<string, string[]> {
  const scopes: Record<string, string[]> = {};
  for (const tool of tools) {
    const department = tool.name.slice(0, tool.name.indexOf("_"));
    if ((RESTRICTED as readonly string[]).includes(department)) scopes[tool.name] = [`${department}:read`];
  }
  return scopes;
}
