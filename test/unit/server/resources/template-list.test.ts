// A resource template's `list`: its resources in resources/list after the fixed ones, paged like
// every list, read through ctx (ctx.env), with cursors that hold while the listing does.
import { describe, expect, it } from "vitest";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { defineResource, defineResourceTemplate } from "../../../../src/server/resources/define-resource.ts";
import type { ResourceTemplateDefinition } from "../../../../src/server/resources/resource.ts";
import { createServer } from "../../../../src/server/server.ts";
import { legacy, modern } from "../../app-client.ts";

const notes = new Map<string, string>([
  ["1", "bread"],
  ["2", "milk"],
  ["3", "eggs"],
]);
const note = defineResourceTemplate({
  uriTemplate: "note://{id}",
  name: "note",
  mimeType: "text/plain",
  list: (ctx) => [...notes].map(([id, text]) => ({ uri: `note://${id}`, name: text, description: `for ${ctx.tenant}` })),
  read: ({ variables }) => notes.get(variables["id"] ?? ""),
});
const motto = defineResource({ uri: "note://motto", name: "motto", read: () => "keep notes" });

function app(pageSize?: number) {
  return createMcpApp({
    server: createServer({ info: { name: "notes", version: "1.0.0" }, resources: [motto], resourceTemplates: [note], ...(pageSize ? { pageSize } : {}) }),
  });
}

type Listed = { uri: string; name: string; mimeType?: string; description?: string };

describe("a resource template's list", () => {
  it("lists the template's resources after the fixed ones, with the template's mime type and the handler context", async () => {
    for (const ask of [legacy, modern]) {
      const { body } = await ask(app(), "resources/list", {});
      const result = body["result"] as { resources: Listed[]; nextCursor?: string };
      expect(result.resources.map((r) => r.uri)).toEqual(["note://motto", "note://1", "note://2", "note://3"]);
      expect(result.resources[1]).toEqual({ uri: "note://1", name: "bread", mimeType: "text/plain", description: "for default" });
      expect(result.nextCursor).toBeUndefined();
    }
  });

  it("keeps its own member out of resources/templates/list", async () => {
    const { body } = await legacy(app(), "resources/templates/list", {});
    expect((body["result"] as { resourceTemplates: object[] }).resourceTemplates).toEqual([
      { uriTemplate: "note://{id}", name: "note", mimeType: "text/plain" },
    ]);
  });

  it("is paged like every list: cursors follow to the end, and a cursor of a listing that changed is refused", async () => {
    const paged = app(2);
    const first = (await legacy(paged, "resources/list", {})).body["result"] as { resources: Listed[]; nextCursor: string };
    expect(first.resources.map((r) => r.uri)).toEqual(["note://motto", "note://1"]);
    const second = (await legacy(paged, "resources/list", { cursor: first.nextCursor })).body["result"] as { resources: Listed[]; nextCursor?: string };
    expect(second.resources.map((r) => r.uri)).toEqual(["note://2", "note://3"]);
    expect(second.nextCursor).toBeUndefined();
    notes.set("4", "tea");
    try {
      const stale = await legacy(paged, "resources/list", { cursor: first.nextCursor });
      expect(stale.body["error"]).toMatchObject({ code: -32602, message: expect.stringMatching(/Invalid cursor/) });
    } finally {
      notes.delete("4");
    }
  });

  it("answers an entry without a uri or a name as the server's bug, and refuses a list that is not a function at startup", async () => {
    const broken = defineResourceTemplate({ uriTemplate: "x://{id}", name: "x", list: () => [{ name: "no uri" } as never], read: () => undefined });
    const reply = await legacy(
      createMcpApp({ server: createServer({ info: { name: "b", version: "1" }, resourceTemplates: [broken] }) }),
      "resources/list",
      {},
    );
    expect(reply.body["error"]).toMatchObject({ code: -32603 });
    const notFunction = { ...note, list: "all" } as unknown as ResourceTemplateDefinition;
    expect(() => createServer({ info: { name: "b", version: "1" }, resourceTemplates: [notFunction] })).toThrow(DefinitionError);
  });
});
