// Remote modules in the tenants document: the `remote` field's checks, the Worker's opt-in, and what the directory
// refuses a module to call (the Worker itself, a tenant's host).
import { describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../../src/core/definition-error.ts";
import { parseTenantConfig, parseTenantsDocument } from "../../../src/tenancy/tenant-config.ts";
import { TenantDirectory } from "../../../src/tenancy/tenant-directory.ts";
import type { TenantRemotes } from "../../../src/tenancy/tenant-parts.ts";
import { parseRemote } from "../../../src/tenancy/remote-section.ts";
import { remoteModules } from "../../../src/workers/remote-modules.ts";

const tenant = (remote: unknown, more: Record<string, unknown> = {}) => ({
  id: "acme",
  pathPrefix: "/t/acme",
  modules: [{ name: "up", remote, ...more }],
});

const info = { name: "t", version: "1" };

/** Parses a tenant as a Worker with remoteModules() does: the tenants document, then the directory's checks. */
function parsed(config: unknown) {
  const directory = new TenantDirectory(parseTenantsDocument({ tenants: [config] }), {
    modules: {},
    service: () => undefined,
    info,
    remotes: remoteModules().of({}),
  });
  return directory;
}

function failure(config: unknown): string {
  let problem: string | undefined;
  try {
    problem = parsed(config).broken[0]?.problem;
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as Error).message;
  }
  if (problem === undefined) throw new Error("expected the tenant to be set aside");
  return problem;
}

describe("the remote field of a tenant's module", () => {
  it("takes the URL or the var holding it, the revision, headers and a bearer credential by binding name, and tool patterns", () => {
    const directory = parsed(
      tenant({
        urlVar: "UP_URL",
        protocol: "2025-11-25",
        headers: { "X-Api-Key": "UP_KEY" },
        auth: { secret: "UP_TOKEN" },
        allow: ["get-*"],
        deny: ["get-env"],
      }),
    );
    expect(directory.broken).toEqual([]);
    expect(directory.tenants[0]?.modules[0]?.remote).toEqual({
      urlVar: "UP_URL",
      protocol: "2025-11-25",
      headers: { "X-Api-Key": "UP_KEY" },
      auth: { secret: "UP_TOKEN" },
      allow: ["get-*"],
      deny: ["get-env"],
    });
  });

  it.each([
    ["https://a.example/mcp", /modules\[0\]\.remote must be an object such as/],
    [{}, /tenant acme: modules\[0\]\.remote needs exactly one of url and urlVar/],
    [{ url: "https://a.example/mcp", urlVar: "X" }, /needs exactly one of url and urlVar/],
    [{ url: "/relative" }, /remote\.url must be an absolute URL/],
    [{ url: "https://a.example/mcp", protocol: "2024-11-05" }, /remote\.protocol must be "2025-11-25", "2026-07-28" or "auto"/],
    [{ url: "https://a.example/mcp", headers: { "X-Api-Key": "sk-live 1234" } }, /headers\.X-Api-Key must be the name of the secret binding holding the value/],
    [{ url: "https://a.example/mcp", headers: { "Mcp-Session-Id": "SID" } }, /"Mcp-Session-Id" is not a header name a module may set/],
    [{ url: "https://a.example/mcp", auth: { token: "abc" } }, /remote\.auth must be "none", \{"secret": "NAME"\}/],
    [{ url: "https://a.example/mcp", deny: ["get env"] }, /remote\.deny must be an array of strings matching/],
    [{ url: "https://a.example/mcp", breaker: { failures: 0 } }, /remote\.breaker\.failures must be a positive integer/],
    [{ url: "https://a.example/mcp", alow: ["x"] }, /remote\.alow is not a known field; did you mean modules\[0\]\.remote\.allow\?/],
  ])("refuses %j", (remote, message) => {
    expect(failure(tenant(remote))).toMatch(message);
  });

  it("refuses a module that is both a service and a remote", () => {
    expect(() => parseTenantConfig(tenant({ url: "https://a.example/mcp" }, { service: "UP" }))).toThrow(/names both service and remote/);
  });
});

describe("remote modules in the tenant directory", () => {
  it("sets a tenant with a remote module aside, saying how to opt in, when the Worker has no remoteModules()", () => {
    const directory = new TenantDirectory(parseTenantsDocument({ tenants: [tenant({ url: "https://a.example/mcp" })] }), {
      modules: {},
      service: () => undefined,
      info,
    });
    expect(directory.broken[0]?.problem).toMatch(
      /module up is remote, which needs the Worker to opt in: createMultiTenantWorker\(\{ \.\.\., remotes: remoteModules\(\) \}\)/,
    );
  });

  it("refuses a module's URL that is a host the Worker was reached at or a tenant's host", async () => {
    let refuse: ((url: URL) => string | undefined) | undefined;
    const remotes: TenantRemotes = {
      parse: parseRemote,
      collect: (_tenant, _ref, settings) => {
        refuse = settings.refuse;
        return Promise.resolve({ tools: [], unavailable: undefined, catalog: null, stale: () => false });
      },
    };
    const tenants = parseTenantsDocument({
      tenants: [
        tenant({ url: "https://a.example/mcp" }),
        { id: "globex", hosts: ["globex.example"], modules: [{ name: "x", remote: { url: "https://b.example/mcp" } }] },
      ],
    });
    const directory = new TenantDirectory(tenants, { modules: {}, service: () => undefined, info, remotes });
    const request = new Request("https://worker.example:8443/t/acme/mcp");
    const resolved = directory.resolve(request, "/t/acme/mcp");
    vi.spyOn(console, "error").mockImplementation(() => {});
    await directory.server(resolved!.tenant);
    vi.restoreAllMocks();
    expect(refuse?.(new URL("https://worker.example:8443/t/globex/mcp"))).toMatch(/points at this Worker itself/);
    expect(refuse?.(new URL("https://globex.example/mcp"))).toMatch(/points at a tenant's endpoint on this Worker/);
    expect(refuse?.(new URL("https://worker.example:9000/mcp"))).toBeUndefined();
    expect(refuse?.(new URL("https://a.example/mcp"))).toBeUndefined();
    // Hosts a client sends cannot grow what is remembered: the most recent 16 are kept.
    for (let i = 0; i < 40; i++) directory.resolve(new Request(`https://h${i}.example/t/acme/mcp`), "/t/acme/mcp");
    expect(refuse?.(new URL("https://worker.example:8443/mcp"))).toBeUndefined();
    expect(refuse?.(new URL("https://h39.example/mcp"))).toMatch(/itself/);
    expect(refuse?.(new URL("https://h23.example/mcp"))).toBeUndefined();
  });
});

describe("a remote module's credentials from the tenant's own secrets", () => {
  const key = `k1:${btoa(String.fromCharCode(...new Uint8Array(32).fill(9)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "")}`;

  /** A KV namespace in memory holding acme's sealed secrets. */
  async function namespace(): Promise<KVNamespace> {
    const entries = new Map<string, string>();
    const kv = {
      get: async (k: string) => entries.get(k) ?? null,
      put: async (k: string, v: string) => void entries.set(k, v),
      delete: async (k: string) => void entries.delete(k),
      list: async () => ({ keys: [], list_complete: true }),
    } as unknown as KVNamespace;
    const { putSecret } = await import("../../../src/tenancy/tenant-secrets.ts");
    const { parseSecretKeys } = await import("../../../src/tenancy/secret-box.ts");
    const keys = await parseSecretKeys(key);
    await putSecret(kv, keys, "acme", "api-key", "acme-api-key-value");
    await putSecret(kv, keys, "acme", "token", "acme-bearer-value");
    return kv;
  }

  it("takes {tenantSecret} for a header or the bearer credential, and refuses a malformed one", () => {
    const ok = parsed(tenant({ url: "https://up.example/mcp", headers: { "X-Api-Key": { tenantSecret: "api-key" } }, auth: { tenantSecret: "token" } }));
    expect(ok.broken).toEqual([]);
    expect(ok.tenants[0]?.modules[0]?.remote).toMatchObject({ headers: { "X-Api-Key": { tenantSecret: "api-key" } }, auth: { tenantSecret: "token" } });
    expect(failure(tenant({ url: "https://up.example/mcp", headers: { "X-Api-Key": { tenantSecret: "bad name" } } }))).toMatch(/headers\.X-Api-Key/);
    expect(failure(tenant({ url: "https://up.example/mcp", auth: { tenantSecret: "token", secret: "B" } }))).toMatch(/\.auth must be "none"/);
  });

  it("sends the tenant's values upstream, and another tenant's module naming the same secret gets none of them", async () => {
    const sent: Headers[] = [];
    const upstream = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(new Headers(init?.headers));
      return Response.json({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } });
    }) as typeof fetch;
    const env = { MCP_TENANTS_KV: await namespace(), MCP_SECRETS_KEY: key };
    const remotes = remoteModules({ fetch: upstream }).of(env);
    const remote = {
      url: "https://up.example/mcp",
      protocol: "2026-07-28" as const,
      headers: { "X-Api-Key": { tenantSecret: "api-key" } },
      auth: { tenantSecret: "token" },
    };
    const settings = { prefix: "up", timeoutMs: 1000, refuse: () => undefined };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await remotes.collect(
      parseTenantConfig({ id: "acme", pathPrefix: "/t/acme", modules: [{ name: "up", remote }] }),
      { name: "up", remote },
      settings,
      new Set(),
    );
    expect(sent[0]?.get("x-api-key")).toBe("acme-api-key-value");
    expect(sent[0]?.get("authorization")).toBe("Bearer acme-bearer-value");

    const count = sent.length;
    const globex = await remotes.collect(
      parseTenantConfig({ id: "globex", pathPrefix: "/t/globex", modules: [{ name: "up", remote }] }),
      { name: "up", remote },
      settings,
      new Set(),
    );
    expect(sent).toHaveLength(count);
    expect(globex.unavailable?.reason).toMatch(/tenant secret (api-key|token), which cannot be read/);
    const logged = errors.mock.calls.map((call) => call.join(" ")).join("\n");
    expect(logged).toContain("tenant globex has no secret");
    expect(logged).not.toMatch(/acme-(api-key|bearer)-value/);
    errors.mockRestore();
  });
});
