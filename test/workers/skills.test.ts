// Skills inside workerd: bad skills are refused when the server is compiled, and the demo serves bytes matching its digests.
import { describe, expect, it } from "vitest";
import { DefinitionError, createServer, defineSkill, type SkillDefinition, type SkillLimits } from "../../src/index.ts";
import { post, postModern, rpc } from "./post.ts";

const md = (frontmatter: string, body = "# Body\n") => `---\n${frontmatter}\n---\n${body}`;
const valid = (name: string) => md(`name: ${name}\ndescription: A skill.`);

/** The DefinitionError of declaring these skills (defineSkill) and compiling a server with them. */
function refusal(definitions: SkillDefinition[], skillLimits?: SkillLimits): string {
  try {
    createServer({
      info: { name: "t", version: "1" },
      skills: definitions.map((definition) => defineSkill(definition)),
      ...(skillLimits ? { skillLimits } : {}),
    });
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error("expected a DefinitionError");
}

describe("skills refused when declared or compiled, naming skill and file", () => {
  it.each([
    ["no SKILL.md", { name: "a", files: { "README.md": "x" } }, /^skill a: files has no SKILL.md/],
    [
      "SKILL.md without frontmatter",
      { name: "a", files: { "SKILL.md": "# Just markdown\n" } },
      /^skill a: file SKILL.md: frontmatter: line 1: SKILL.md must begin with a "---" line/,
    ],
    [
      "frontmatter without a closing line",
      { name: "a", files: { "SKILL.md": "---\nname: a\n" } },
      /^skill a: file SKILL.md: frontmatter: the frontmatter has no closing "---" line/,
    ],
    ["frontmatter without a name", { name: "a", files: { "SKILL.md": md("description: d") } }, /^skill a: file SKILL.md: the frontmatter has no "name"/],
    ["frontmatter without a description", { name: "a", files: { "SKILL.md": md("name: a") } }, /^skill a: file SKILL.md: the frontmatter has no "description"/],
    [
      "a frontmatter name other than the declared one",
      { name: "a", files: { "SKILL.md": valid("b") } },
      /^skill a: file SKILL.md: the frontmatter names the skill "b", but it is declared as "a"/,
    ],
    [
      "YAML outside the subset",
      { name: "a", files: { "SKILL.md": md("name: a\ndescription: &anchor d") } },
      /^skill a: file SKILL.md: frontmatter: line 3: anchors, aliases and tags are not supported/,
    ],
    [
      "non-string metadata",
      { name: "a", files: { "SKILL.md": md("name: a\ndescription: d\nmetadata:\n  version: 2") } },
      /^skill a: file SKILL.md: the frontmatter "metadata" must map strings to strings/,
    ],
    [
      "reserved metadata keys",
      { name: "a", files: { "SKILL.md": md('name: a\ndescription: d\nmetadata:\n  "io.modelcontextprotocol/x": "1"') } },
      /reserved for MCP extensions/,
    ],
    ["SKILL.md bytes that are not UTF-8", { name: "a", files: { "SKILL.md": new Uint8Array([0xff, 0xfe]) } }, /^skill a: file SKILL.md: is not valid UTF-8/],
    [
      "an external SKILL.md",
      { name: "a", files: { "SKILL.md": { size: 1, digest: `sha256:${"0".repeat(64)}`, read: async () => "x" } } },
      /^skill a: file SKILL.md: cannot be external/,
    ],
    [
      "an invalid name",
      { name: "Bad_Name", files: { "SKILL.md": valid("Bad_Name") } },
      /^skill Bad_Name: name must be 1-64 lowercase letters, digits and single hyphens/,
    ],
    ["a path with a space", { name: "a", path: "my team", files: { "SKILL.md": valid("a") } }, /^skill a: path "my team" must be "\/"-separated segments/],
    ["a file path with ..", { name: "a", files: { "SKILL.md": valid("a"), "../escape.md": "x" } }, /^skill a: file "..\/escape.md": file path/],
    [
      "a file that is also a folder",
      { name: "a", files: { "SKILL.md": valid("a"), docs: "x", "docs/x.md": "y" } },
      /^skill a: file docs is also the folder of docs\/x.md/,
    ],
    [
      "text with a lone surrogate",
      { name: "a", files: { "SKILL.md": valid("a"), "x.md": "bad \uD800 text" } },
      /^skill a: file x.md: contains a lone UTF-16 surrogate/,
    ],
    [
      "an external file with a bad digest",
      { name: "a", files: { "SKILL.md": valid("a"), "x.bin": { size: 1, digest: "md5:00", read: async () => "x" } } },
      /^skill a: file x.bin: digest must be "sha256:"/,
    ],
  ] as [string, SkillDefinition, RegExp][])("refuses %s", (_what, skill, message) => {
    expect(refusal([skill])).toMatch(message);
  });

  it("refuses a file over the per-file limit, naming it and the option", () => {
    const skill: SkillDefinition = { name: "big", files: { "SKILL.md": valid("big"), "data/blob.bin": new Uint8Array(2049) } };
    expect(refusal([skill], { maxFileBytes: 2048 })).toBe(
      "skill big: file data/blob.bin: is 2049 bytes, over the limit of 2048 bytes per file (skillLimits.maxFileBytes)",
    );
    // The default per-file limit is 4 MiB.
    expect(refusal([{ name: "big", files: { "SKILL.md": valid("big"), "huge.txt": "x".repeat(4 * 1024 * 1024 + 1) } }])).toMatch(
      /^skill big: file huge.txt: is 4194305 bytes, over the limit of 4194304/,
    );
  });

  it("refuses a skill over the total or file-count limit, naming the file that crosses it", () => {
    const files = { "SKILL.md": valid("wide"), "a.txt": "x".repeat(600), "b.txt": "y".repeat(600) };
    expect(refusal([{ name: "wide", files }], { maxTotalBytes: 1024 })).toMatch(
      /^skill wide: file b.txt: brings the skill to \d+ bytes, over the limit of 1024 bytes per skill \(skillLimits.maxTotalBytes\)$/,
    );
    expect(refusal([{ name: "wide", files }], { maxFiles: 2 })).toBe("skill wide: file b.txt is over the limit of 2 files per skill (skillLimits.maxFiles)");
    expect(refusal([{ name: "wide", files }], { maxFiles: 0 })).toBe("createServer option skillLimits.maxFiles must be an integer from 1; got 0");
  });

  it("refuses a skill declared twice, or one inside another's folder", () => {
    const a: SkillDefinition = { name: "a", files: { "SKILL.md": valid("a") } };
    expect(refusal([a, a])).toBe("skill a: skill://a/SKILL.md is declared twice");
    expect(refusal([a, { name: "b", path: "a", files: { "SKILL.md": valid("b") } }])).toMatch(
      /^skill b: its folder skill:\/\/a\/b and the folder of skill a overlap/,
    );
    expect(refusal([{ name: "b", path: "a", files: { "SKILL.md": valid("b") } }, a])).toMatch(
      /^skill a: its folder skill:\/\/a and the folder of skill b overlap/,
    );
  });
});

async function bytesOf(contents: { text?: string; blob?: string }): Promise<Uint8Array> {
  if (typeof contents.text === "string") return new TextEncoder().encode(contents.text);
  return Uint8Array.from(atob(contents.blob ?? ""), (char) => char.charCodeAt(0));
}

async function sha256(bytes: Uint8Array): Promise<string> {
  return `sha256:${[...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

describe("the demo's skills, served by the Worker", () => {
  it.each(["legacy", "modern"] as const)("serves every file with the bytes its digest and size promise (%s)", async (era) => {
    const request = (method: string, params: Record<string, unknown>) =>
      era === "modern"
        ? postModern(method, params, typeof params["uri"] === "string" && method === "resources/read" ? { "mcp-name": params["uri"] } : {})
        : post({ jsonrpc: "2.0", id: 1, method, params }, { "mcp-protocol-version": "2025-11-25" });
    const list = await rpc(await request("skills/list", {}));
    const skills = list.result?.["skills"] as { uri: string; resources: { uri: string; digest: string; size: number }[] }[];
    expect(skills.map((skill) => skill.uri)).toEqual(["skill://notebook-workflow/SKILL.md"]);
    const files = skills.flatMap((skill) => skill.resources);
    expect(files.map((file) => file.uri)).toEqual(["skill://notebook-workflow/SKILL.md", "skill://notebook-workflow/references/handles.md"]);
    for (const file of files) {
      const read = await rpc(await request("resources/read", { uri: file.uri }));
      const contents = (read.result?.["contents"] as { uri: string; text?: string; blob?: string }[])[0];
      expect(contents?.uri).toBe(file.uri);
      const bytes = await bytesOf(contents ?? {});
      expect({ size: bytes.byteLength, digest: await sha256(bytes) }).toEqual({ size: file.size, digest: file.digest });
    }
  });
});
