// Agent Skills end to end: the official v2 client's skills support (list, read SKILL.md, read a supporting file,
// verify digests) against `wrangler dev`, a 2025-era SDK v1 client seeing the files as ordinary resources, and a
// tenant whose skill comes from a tool service over RPC.
import { createHash } from "node:crypto";
import { SkillsClient, SkillVerificationError } from "@modelcontextprotocol/client/ext/skills";
import { describe, expect, inject, it } from "vitest";
import { connectLegacyClient, connectModernClient } from "./clients.ts";

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

describe("the demo skill with the v2 client (2026-07-28)", () => {
  it("lists the skill, reads SKILL.md and a supporting file, and every digest matches", async () => {
    const client = await connectModernClient(`${inject("baseUrlAuto")}/mcp`);
    try {
      const skills = new SkillsClient(client);
      expect([skills.supported, skills.directoryRead]).toEqual([true, true]);
      const listing = await skills.list();
      expect(listing).toMatchObject({ invalid: [], ttlMs: 300000, cacheScope: "public" });
      const [entry] = listing.skills;
      expect(entry?.uri).toBe("skill://notebook-workflow/SKILL.md");
      if (!entry || entry.resources === "dynamic") throw new Error("the demo skill lists its files");
      const listedFiles = entry.resources;

      // SKILL.md: size, digest and frontmatter checked by the client against the entry.
      const manifest = await skills.read(entry);
      expect(manifest).toMatchObject({ uri: entry.uri, mimeType: "text/markdown", verified: true, frontmatter: entry.frontmatter });
      expect(manifest.body).toMatch(/^# Notebook workflow/);

      // A supporting file, by the relative link SKILL.md uses.
      const handles = await skills.read(entry, "references/handles.md");
      expect(handles).toMatchObject({ uri: "skill://notebook-workflow/references/handles.md", verified: true });
      expect(handles.text).toMatch(/^# Handles/);

      // Our own check of the same bytes, for every listed file.
      for (const [file, listed] of [manifest, handles].map((read, index) => [read, listedFiles[index]] as const)) {
        expect({ size: file.bytes.byteLength, digest: sha256(file.bytes) }).toEqual({ size: listed?.size, digest: listed?.digest });
      }
      // A file the entry does not list is refused before any request.
      await expect(skills.read(entry, "references/missing.md")).rejects.toBeInstanceOf(SkillVerificationError);

      expect((await skills.readDirectory("skill://notebook-workflow")).resources.map((child) => [child.name, child.mimeType])).toEqual([
        ["notebook-workflow", "text/markdown"],
        ["references", "inode/directory"],
      ]);
      expect((await skills.get(entry.uri)).skill).toEqual(entry);
    } finally {
      await client.close();
    }
  });
});

describe("the demo skill with the SDK v1 client (2025-11-25)", () => {
  it("sees the skill's files as ordinary resources, and the extension in the capabilities", async () => {
    const client = await connectLegacyClient(`${inject("baseUrlAuto")}/mcp`);
    try {
      expect(client.getServerCapabilities()?.extensions).toMatchObject({ "io.modelcontextprotocol/skills": { directoryRead: true } });
      const { resources } = await client.listResources();
      // The demo's other resource is its MCP App (ui://tally/app.html).
      expect(resources.map((resource) => resource.uri).filter((uri) => uri.startsWith("skill://"))).toEqual([
        "skill://notebook-workflow/SKILL.md",
        "skill://notebook-workflow/references/handles.md",
      ]);
      expect(resources.find((resource) => resource.uri.startsWith("skill://"))).toMatchObject({
        name: "notebook-workflow",
        mimeType: "text/markdown",
        description: expect.stringMatching(/^Keep notes across tool calls/),
      });
      const read = await client.readResource({ uri: "skill://notebook-workflow/SKILL.md" });
      expect(read.contents[0]).toMatchObject({ uri: "skill://notebook-workflow/SKILL.md", text: expect.stringMatching(/^---\nname: notebook-workflow\n/) });
    } finally {
      await client.close();
    }
  });
});

describe("a tool service's skill in a tenant (multi-tenant example)", () => {
  it("lists it under the module prefix and reads its supporting file over RPC, verified", async () => {
    const client = await connectModernClient(`${inject("baseUrlMultiTenant")}/t/globex/mcp`);
    try {
      const skills = new SkillsClient(client);
      const { skills: entries } = await skills.list();
      expect(entries.map((entry) => entry.uri)).toEqual(["skill://weather/forecast-guide/SKILL.md"]);
      const entry = entries[0];
      if (!entry) throw new Error("no skill");
      expect((await skills.read(entry)).frontmatter).toEqual({
        name: "forecast-guide",
        description: "Answer weather questions with the forecast tool, and say when a city is not covered.",
      });
      const cities = await skills.read(entry, "cities.md");
      expect(cities).toMatchObject({ verified: true, text: "# Cities\n\n- Paris\n- Oslo\n- Lima\n" });
    } finally {
      await client.close();
    }
  });
});
