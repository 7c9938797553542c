// The skills extension (SEP-2640) through whole requests in both eras, and the official v2 client's verification of what we serve.
import { createHash } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { describe, expect, it } from "vitest";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import { defineResource } from "../../../../src/server/resources/define-resource.ts";
import { createServer } from "../../../../src/server/server.ts";
import { defineSkill } from "../../../../src/server/skills/compile-skill.ts";
import type { SkillDefinition } from "../../../../src/server/skills/skill.ts";
import { schemaErrors } from "../../../schema.ts";
import { legacy, modern } from "../../app-client.ts";
import { request } from "../../app-client.ts";

const GUIDE: SkillDefinition = {
  name: "pdf-processing",
  files: {
    "SKILL.md":
      "---\nname: pdf-processing\ndescription: Extract, fill and assemble PDF documents — vite.\n" +
      'metadata:\n  version: "2.1"\n---\n# PDF\nSee references/FORMS.md.\n',
    "references/FORMS.md": "# Formulaires\nÉcrire en capitales.\n",
    "templates/regional/eu.md": "# EU\n",
    "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]),
    "notes.custom": { content: "custom", mimeType: "text/x-custom" },
  },
};
const REFUNDS_MD = "---\nname: refunds\ndescription: Refunds.\nlicense: Apache-2.0\n---\nBody\n";
const guide = defineSkill(GUIDE);
const refunds = defineSkill({ name: "refunds", path: "acme/billing", files: { "SKILL.md": REFUNDS_MD } });

const server = createServer({
  info: { name: "skills", version: "1" },
  skills: [guide, refunds],
  resources: [defineResource({ uri: "test://x", name: "x", read: () => "x" })],
});
const app = createMcpApp({ server });
const paged = createMcpApp({ server: createServer({ info: { name: "paged", version: "1" }, skills: [guide, refunds], pageSize: 1 }) });

const sha256 = (bytes: Uint8Array | string): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const result = (reply: { body: Record<string, unknown> }): Record<string, unknown> => reply.body["result"] as Record<string, unknown>;
const error = (reply: { body: Record<string, unknown> }): Record<string, unknown> => reply.body["error"] as Record<string, unknown>;

describe("capability and methods", () => {
  it("declares the extension with directoryRead in server/discover and initialize, next to resources", async () => {
    const discover = result(await modern(app, "server/discover"));
    expect(discover["capabilities"]).toMatchObject({ resources: {}, extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } } });
    const init = result(await legacy(app, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }));
    expect(init["capabilities"]).toMatchObject({ resources: {}, extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } } });
    expect(schemaErrors("2025-11-25", "InitializeResult", init)).toEqual([]);
  });

  it("has no extension and no skills methods on a server without skills (404 -32601 in 2026-07-28)", async () => {
    const plain = createMcpApp({
      server: createServer({ info: { name: "plain", version: "1" }, resources: [defineResource({ uri: "test://x", name: "x", read: () => "x" })] }),
    });
    expect((result(await modern(plain, "server/discover"))["capabilities"] as Record<string, unknown>)["extensions"]).toBeUndefined();
    for (const method of ["skills/list", "skills/get", "resources/directory/read"]) {
      const reply = await modern(plain, method, { uri: "skill://a/SKILL.md" });
      expect([reply.status, error(reply)["code"]]).toEqual([404, -32601]);
      expect(error(await legacy(plain, method, { uri: "skill://a/SKILL.md" }))["code"]).toBe(-32601);
    }
  });
});

describe("skills/list", () => {
  it("lists each skill with its frontmatter and every file's digest and size (UTF-8 bytes), in declaration order", async () => {
    const skills = result(await legacy(app, "skills/list"))["skills"] as {
      uri: string;
      frontmatter: unknown;
      resources: { uri: string; digest: string; size: number }[];
    }[];
    expect(skills.map((skill) => skill.uri)).toEqual(["skill://pdf-processing/SKILL.md", "skill://acme/billing/refunds/SKILL.md"]);
    expect(skills[0]?.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract, fill and assemble PDF documents — vite.",
      metadata: { version: "2.1" },
    });
    const files = GUIDE.files as Record<string, string | Uint8Array | { content: string }>;
    const bytesOf = (path: string) => {
      const file = files[path] as string | Uint8Array | { content: string };
      return typeof file === "string" || file instanceof Uint8Array ? file : file.content;
    };
    expect(skills[0]?.resources).toEqual(
      ["SKILL.md", "logo.png", "notes.custom", "references/FORMS.md", "templates/regional/eu.md"].map((path) => ({
        uri: `skill://pdf-processing/${path}`,
        digest: sha256(bytesOf(path)),
        size: Buffer.byteLength(bytesOf(path)),
      })),
    );
  });

  it("carries ttlMs and cacheScope in 2026-07-28 only", async () => {
    expect(result(await modern(app, "skills/list"))).toMatchObject({ resultType: "complete", ttlMs: 300000, cacheScope: "public" });
    expect(result(await legacy(app, "skills/list"))["ttlMs"]).toBeUndefined();
  });

  it("pages whole entries and refuses a cursor it did not mint", async () => {
    const first = result(await modern(paged, "skills/list"));
    expect((first["skills"] as unknown[]).length).toBe(1);
    const second = result(await modern(paged, "skills/list", { cursor: first["nextCursor"] }));
    expect((second["skills"] as { uri: string }[])[0]?.uri).toBe("skill://acme/billing/refunds/SKILL.md");
    expect(second["nextCursor"]).toBeUndefined();
    expect(error(await modern(paged, "skills/list", { cursor: "bogus" }))["code"]).toBe(-32602);
  });
});

describe("skills/get", () => {
  it("returns the listed entry, with caching fields in 2026-07-28 and no cursor", async () => {
    const listed = (result(await legacy(app, "skills/list"))["skills"] as unknown[])[1];
    expect(result(await legacy(app, "skills/get", { uri: "skill://acme/billing/refunds/SKILL.md" }))).toEqual({ skill: listed });
    expect(result(await modern(app, "skills/get", { uri: "skill://acme/billing/refunds/SKILL.md" }))).toMatchObject({
      skill: listed,
      ttlMs: 300000,
      cacheScope: "public",
    });
  });

  it("answers a URI that is not a served skill, or no URI, with -32602", async () => {
    for (const uri of ["skill://nope/SKILL.md", "skill://pdf-processing/references/FORMS.md", "skill://pdf-processing"]) {
      expect(error(await modern(app, "skills/get", { uri }))).toMatchObject({ code: -32602, data: { uri } });
    }
    expect(error(await legacy(app, "skills/get", {}))["code"]).toBe(-32602);
  });
});

describe("resources/directory/read", () => {
  it("lists a folder's direct children: files with their metadata, subfolders as inode/directory", async () => {
    const root = result(await modern(app, "resources/directory/read", { uri: "skill://pdf-processing" }));
    expect(root["resources"]).toEqual([
      {
        uri: "skill://pdf-processing/SKILL.md",
        name: "pdf-processing",
        description: "Extract, fill and assemble PDF documents — vite.",
        mimeType: "text/markdown",
        size: Buffer.byteLength(GUIDE.files["SKILL.md"] as string),
      },
      { uri: "skill://pdf-processing/logo.png", name: "logo.png", mimeType: "image/png", size: 6 },
      { uri: "skill://pdf-processing/notes.custom", name: "notes.custom", mimeType: "text/x-custom", size: 6 },
      { uri: "skill://pdf-processing/references", name: "references", mimeType: "inode/directory" },
      { uri: "skill://pdf-processing/templates", name: "templates", mimeType: "inode/directory" },
    ]);
    expect(root).toMatchObject({ ttlMs: 300000, cacheScope: "public" });
    expect(result(await legacy(app, "resources/directory/read", { uri: "skill://pdf-processing/templates" }))).toEqual({
      resources: [{ uri: "skill://pdf-processing/templates/regional", name: "regional", mimeType: "inode/directory" }],
    });
  });

  it("answers a file, an unknown URI or a folder above the skills with -32602", async () => {
    for (const uri of ["skill://pdf-processing/SKILL.md", "skill://nope", "skill://acme/billing"]) {
      expect(error(await modern(app, "resources/directory/read", { uri }))).toMatchObject({ code: -32602, data: { uri } });
    }
  });

  it("pages a folder with cursors that belong to that folder", async () => {
    const first = result(await modern(paged, "resources/directory/read", { uri: "skill://pdf-processing" }));
    expect(first["nextCursor"]).toEqual(expect.any(String));
    expect(
      (
        result(await modern(paged, "resources/directory/read", { uri: "skill://pdf-processing", cursor: first["nextCursor"] }))["resources"] as {
          name: string;
        }[]
      )[0]?.name,
    ).toBe("logo.png");
    expect(error(await modern(paged, "resources/directory/read", { uri: "skill://pdf-processing/templates", cursor: first["nextCursor"] }))["code"]).toBe(
      -32602,
    );
  });
});

describe("skill files as ordinary resources", () => {
  it("lists every skill file after the declared resources, SKILL.md named and described by its frontmatter", async () => {
    const listed = result(await legacy(app, "resources/list"))["resources"] as { uri: string; name: string; description?: string }[];
    expect(listed.map((resource) => resource.uri)).toEqual([
      "test://x",
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/logo.png",
      "skill://pdf-processing/notes.custom",
      "skill://pdf-processing/references/FORMS.md",
      "skill://pdf-processing/templates/regional/eu.md",
      "skill://acme/billing/refunds/SKILL.md",
    ]);
    expect(listed[6]).toEqual({
      uri: "skill://acme/billing/refunds/SKILL.md",
      name: "refunds",
      description: "Refunds.",
      mimeType: "text/markdown",
      size: Buffer.byteLength(REFUNDS_MD),
    });
  });

  it("reads text as text and bytes as a base64 blob; a folder is not a readable resource", async () => {
    expect(result(await modern(app, "resources/read", { uri: "skill://pdf-processing/references/FORMS.md" }))).toMatchObject({
      contents: [{ uri: "skill://pdf-processing/references/FORMS.md", mimeType: "text/markdown", text: "# Formulaires\nÉcrire en capitales.\n" }],
      ttlMs: 300000,
    });
    expect(result(await legacy(app, "resources/read", { uri: "skill://pdf-processing/logo.png" }))).toEqual({
      contents: [{ uri: "skill://pdf-processing/logo.png", mimeType: "image/png", blob: "iVBORwD/" }],
    });
    expect(error(await legacy(app, "resources/read", { uri: "skill://pdf-processing/references" }))["code"]).toBe(-32002);
  });
});

// Every construct of the frontmatter subset, served and then checked by the official client's own
// YAML reader: SkillsClient.read() refuses a SKILL.md whose frontmatter differs from the entry.
const FRONTMATTERS = [
  "description: plain text, with commas",
  'description: "double \\"quoted\\" \\u00e9\\ttab"',
  "description: 'single ''quoted'''",
  "description: >-\n  folded over\n  two lines\n\n  and a paragraph",
  "description: |\n  literal\n    indented\n  block\n\n",
  "description: |+\n  kept\n\n",
  "description: continued\n  on the next line\nlicense: MIT # a comment",
  'description: d\nmetadata:\n  version: "1.0"\n  owner: team-a\ncompatibility: Needs Python 3.11',
  "description: d\nallowed-tools: [Bash, Read, 'Write']\nflags: {a: 1, b: [true, null]}",
  "description: d\nsteps:\n- one\n- two: 2\n  three: 3\n- - nested\nnumbers: [0x1F, 0o17, 1.5e3, -2]",
  "description: d\nempty:\nnull-ish: ~\nbooleans: [true, False, TRUE]\ndate: 2026-07-28",
];

describe.each(["legacy", { pin: "2026-07-28" }] as const)("the official v2 SkillsClient (%o)", (mode) => {
  const skills = FRONTMATTERS.map((yaml, index) =>
    defineSkill({ name: `case-${index}`, files: { "SKILL.md": `---\nname: case-${index}\n${yaml}\n---\n# Case ${index}\n`, "ref/a.md": `a${index}` } }),
  );
  const served = createMcpApp({ server: createServer({ info: { name: "corpus", version: "1" }, skills: [...skills, guide] }) });

  it("accepts every entry and verifies every file: size, digest and frontmatter", async () => {
    const client = new Client({ name: "unit", version: "1" }, { versionNegotiation: { mode } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch: async (url, init) => request(served, String(url), init) }),
    );
    try {
      const skillsClient = new SkillsClient(client);
      expect([skillsClient.supported, skillsClient.directoryRead]).toEqual([true, true]);
      const listing = await skillsClient.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.length).toBe(FRONTMATTERS.length + 1);
      for (const entry of listing.skills) {
        for (const resource of entry.resources === "dynamic" ? [] : entry.resources) {
          const file = await skillsClient.read(entry, resource.uri);
          expect(file.verified).toBe(true);
          expect(sha256(file.bytes)).toBe(resource.digest);
        }
      }
      expect((await skillsClient.readDirectory("skill://pdf-processing/templates/regional")).resources.map((child) => child.name)).toEqual(["eu.md"]);
      expect((await skillsClient.get("skill://case-3/SKILL.md")).skill.frontmatter).toEqual({
        name: "case-3",
        description: "folded over two lines\nand a paragraph",
      });
    } finally {
      await client.close();
    }
  });
});
