// Skills per tenant: bundled modules under their prefix, tool services' skills read over the contract, and fault isolation.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../../src/core/definition-error.ts";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import type { ServiceCallContext, ServiceSkill, ToolService } from "../../../src/modules/service-contract.ts";
import { createSkillCatalog } from "../../../src/modules/skill-catalog.ts";
import { defineSkill } from "../../../src/server/skills/compile-skill.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { parseTenantConfig, parseTenantsDocument } from "../../../src/tenancy/tenant-config.ts";
import { TenantDirectory } from "../../../src/tenancy/tenant-directory.ts";
import { modern } from "../app-client.ts";

const skillMd = (name: string, description = "A guide.") => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const guide = defineSkill({ name: "guide", files: { "SKILL.md": skillMd("guide"), "references/more.md": "more" } });
const forecastGuide = defineSkill({
  name: "forecast-guide",
  path: "team",
  files: { "SKILL.md": skillMd("forecast-guide", "How to read forecasts."), "cities.txt": "Paris\nOslo\n", "icon.bin": new Uint8Array([1, 2, 3]) },
});
const catalog = createSkillCatalog([forecastGuide]);

const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: () => "hi" });
const MODULES = { docs: { tools: [hello], skills: [guide] } };
const sha256 = (bytes: Uint8Array | string): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

function weather(impl: Partial<ToolService> = {}, skills?: () => Promise<ServiceSkill[]>): ToolService {
  return {
    describe: async () => ({
      tools: [{ name: "forecast", description: "Forecast.", inputSchema: { type: "object" } }],
      skills: await (skills ?? (() => catalog.describe()))(),
    }),
    callTool: async () => ({ content: [{ type: "text", text: "sunny" }] }),
    readSkillFile: async (skill, path) => catalog.read(skill, path),
    ...impl,
  };
}

async function tenantApp(modules: unknown[], services: Record<string, ToolService>) {
  const config = { id: "acme", hosts: ["acme.example.com"], modules };
  const directory = new TenantDirectory(parseTenantsDocument({ tenants: [config] }), {
    modules: MODULES,
    service: (name) => services[name],
    info: { name: "t", version: "1" },
  });
  return createMcpApp({ server: await directory.server(parseTenantConfig(config)), tenant: "acme", allow: { hosts: ["acme.example.com"] } });
}

const listedUris = async (app: Awaited<ReturnType<typeof tenantApp>>) =>
  ((await modern(app, "skills/list")).body["result"] as { skills: { uri: string }[] }).skills.map((skill) => skill.uri);
const readError = async (app: Awaited<ReturnType<typeof tenantApp>>, uri: string) =>
  (await modern(app, "resources/read", { uri })).body["error"] as { code: number; message: string };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createSkillCatalog (the service side)", () => {
  it("describes SKILL.md in full and the other files by size and digest, and reads them back", async () => {
    expect(await catalog.describe()).toEqual([
      {
        name: "forecast-guide",
        path: "team",
        skillMd: skillMd("forecast-guide", "How to read forecasts."),
        files: [
          { path: "cities.txt", size: 11, digest: sha256("Paris\nOslo\n"), mimeType: "text/plain" },
          { path: "icon.bin", size: 3, digest: sha256(new Uint8Array([1, 2, 3])), mimeType: "application/octet-stream" },
        ],
      },
    ]);
    expect(catalog.read("team/forecast-guide", "cities.txt")).toBe("Paris\nOslo\n");
    expect(() => catalog.read("team/forecast-guide", "nope.txt")).toThrow(/no file nope.txt in skill team\/forecast-guide/);
  });

  it("refuses external files and bad skills like createServer does", () => {
    const external = { size: 1, digest: sha256("x"), read: async () => "x" };
    expect(() => createSkillCatalog([defineSkill({ name: "x", files: { "SKILL.md": skillMd("x"), "a.txt": external } })])).toThrow(DefinitionError);
    expect(() => createSkillCatalog([defineSkill({ name: "x", files: { "SKILL.md": skillMd("y") } })])).toThrow(
      /skill x: file SKILL.md: the frontmatter names the skill "y"/,
    );
  });
});

describe("skills of a tenant", () => {
  it("serves bundled skills under the module prefix and service skills under the service prefix", async () => {
    const app = await tenantApp(
      [
        { name: "docs", prefix: "docs" },
        { name: "weather", service: "WEATHER" },
      ],
      { WEATHER: weather() },
    );
    expect(await listedUris(app)).toEqual(["skill://docs/guide/SKILL.md", "skill://weather/team/forecast-guide/SKILL.md"]);
    const entry = (await modern(app, "skills/get", { uri: "skill://weather/team/forecast-guide/SKILL.md" })).body["result"] as {
      skill: { resources: unknown[] };
    };
    expect(entry.skill.resources).toEqual([
      {
        uri: "skill://weather/team/forecast-guide/SKILL.md",
        digest: sha256(skillMd("forecast-guide", "How to read forecasts.")),
        size: Buffer.byteLength(skillMd("forecast-guide", "How to read forecasts.")),
      },
      { uri: "skill://weather/team/forecast-guide/cities.txt", digest: sha256("Paris\nOslo\n"), size: 11 },
      { uri: "skill://weather/team/forecast-guide/icon.bin", digest: sha256(new Uint8Array([1, 2, 3])), size: 3 },
    ]);
  });

  it("reads a service skill's files through readSkillFile, with the verified caller and never a token", async () => {
    const calls: [string, string, ServiceCallContext][] = [];
    const app = await tenantApp([{ name: "weather", service: "WEATHER" }], {
      WEATHER: weather({
        readSkillFile: async (skill, path, context) => {
          calls.push([skill, path, context]);
          return catalog.read(skill, path);
        },
      }),
    });
    const read = (await modern(app, "resources/read", { uri: "skill://weather/team/forecast-guide/icon.bin" })).body["result"] as { contents: unknown[] };
    expect(read.contents).toEqual([{ uri: "skill://weather/team/forecast-guide/icon.bin", mimeType: "application/octet-stream", blob: "AQID" }]);
    expect(calls).toEqual([["team/forecast-guide", "icon.bin", { tenant: "acme", scopes: [], protocolVersion: "2026-07-28" }]]);
    // SKILL.md travelled in describe(): reading it needs no call.
    expect((await modern(app, "resources/read", { uri: "skill://weather/team/forecast-guide/SKILL.md" })).body["result"]).toMatchObject({
      contents: [{ text: skillMd("forecast-guide", "How to read forecasts.") }],
    });
    expect(calls.length).toBe(1);
  });

  it("refuses to serve bytes that do not match the listed digest, failing reads and hanging reads, naming the module", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const uri = "skill://weather/team/forecast-guide/cities.txt";
    const changed = await tenantApp([{ name: "weather", service: "WEATHER" }], { WEATHER: weather({ readSkillFile: async () => "Paris\nLima\n" }) });
    expect(await readError(changed, uri)).toMatchObject({
      code: -32603,
      message: "skill forecast-guide: file cities.txt changed since the skill was listed; list the skills again",
    });
    // What the service threw (here a fake password) is logged with the module, never relayed.
    const failing = await tenantApp([{ name: "weather", service: "WEATHER" }], {
      WEATHER: weather({ readSkillFile: async () => Promise.reject(new Error("disk on fire, password=hunter2-fake")) }),
    });
    const failed = await readError(failing, uri);
    expect(failed).toEqual({ code: -32603, message: "module weather failed to read cities.txt of skill team/forecast-guide" });
    expect(JSON.stringify(failed)).not.toContain("hunter2");
    expect(errors.mock.calls.map((c) => c.join(" ")).join("\n")).toContain(
      "edge-mcp: module weather: readSkillFile(team/forecast-guide, cities.txt) failed: disk on fire, password=hunter2-fake",
    );
    const hanging = await tenantApp([{ name: "weather", service: "WEATHER", timeoutMs: 30 }], {
      WEATHER: weather({ readSkillFile: () => new Promise(() => {}) }),
    });
    expect(await readError(hanging, uri)).toMatchObject({
      code: -32603,
      message: "module weather did not answer readSkillFile(team/forecast-guide, cities.txt) within 30 ms",
    });
    const withoutReader: ToolService = { ...weather() };
    delete withoutReader.readSkillFile;
    const noReader = await tenantApp([{ name: "weather", service: "WEATHER" }], { WEATHER: withoutReader });
    expect(await readError(noReader, uri)).toMatchObject({ code: -32603, message: "module weather lists skill files but has no readSkillFile()" });
    // The rest of the tenant keeps working.
    expect((await modern(hanging, "tools/call", { name: "weather_forecast", arguments: {} })).body["result"]).toMatchObject({ content: [{ text: "sunny" }] });
  });

  it("leaves out a service skill that is malformed, invalid or colliding, with a log line, and serves the others", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const good = await catalog.describe();
    const listed = async (): Promise<ServiceSkill[]> => [
      ...good,
      { name: "wrong-name", skillMd: skillMd("other-name") },
      { name: "no-md" } as unknown as ServiceSkill,
      { name: "guide", skillMd: skillMd("guide") },
      { name: "too-big", skillMd: skillMd("too-big"), files: [{ path: "huge.bin", size: 64 * 1024 * 1024, digest: sha256("x") }] },
    ];
    const app = await tenantApp(
      [
        { name: "docs", prefix: "weather" },
        { name: "weather", service: "WEATHER" },
      ],
      { WEATHER: weather({}, listed) },
    );
    expect(await listedUris(app)).toEqual(["skill://weather/guide/SKILL.md", "skill://weather/team/forecast-guide/SKILL.md"]);
    const logged = errors.mock.calls.map((call) => String(call[0]));
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/tenant acme: module weather: skill no-md is left out: skillMd \(the text of SKILL.md\) must be a string/),
        expect.stringMatching(/tenant acme: module weather: skill wrong-name: file SKILL.md: the frontmatter names the skill "other-name".*; it is left out/),
        expect.stringMatching(/tenant acme: module weather: skill weather\/guide collides with skill weather\/guide; it is left out/),
        expect.stringMatching(
          /tenant acme: module weather: skill too-big: file huge.bin: is 67108864 bytes, over the limit of 4194304 bytes per file.*; it is left out/,
        ),
      ]),
    );
    expect((await modern(app, "tools/call", { name: "weather_hello", arguments: {} })).body["result"]).toMatchObject({ content: [{ text: "hi" }] });
  });

  it("sets aside a tenant whose bundled skills collide or nest across modules when the directory is built", () => {
    const problems = (modules: unknown[]) =>
      new TenantDirectory(parseTenantsDocument({ tenants: [{ id: "acme", hosts: ["a.example.com"], modules }] }), {
        modules: { ...MODULES, nested: { skills: [defineSkill({ name: "inner", path: "guide", files: { "SKILL.md": skillMd("inner") } })] } },
        service: () => undefined,
        info: { name: "t", version: "1" },
      }).broken.map((b) => b.problem);
    expect(problems([{ name: "docs" }, { name: "docs", prefix: "again" }])).toEqual([]);
    expect(problems([{ name: "docs" }, { name: "docs" }])).toEqual([expect.stringMatching(/tenant acme: (tool hello|skill guide) of module docs collides/)]);
    expect(problems([{ name: "docs", prefix: "a" }, { name: "docs", prefix: "b" }, { name: "nested" }])).toEqual([]);
    expect(problems([{ name: "docs" }, { name: "nested", prefix: "x" }])).toEqual([]);
    expect(
      problems([
        { name: "docs", prefix: "p" },
        { name: "nested", prefix: "p" },
      ]),
    ).toEqual([expect.stringMatching(/tenant acme: skill p\/guide\/inner of module nested collides with skill p\/guide of module docs/)]);
  });
});
