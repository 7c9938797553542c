// The layer table of DESIGN.md §4: each folder of src/ imports only the layers below it, never in a loop.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

/** What each layer may import (besides itself); `workers` alone may import cloudflare:*. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  core: [],
  server: ["core"],
  auth: ["core"],
  modules: ["core", "server"],
  http: ["core", "server", "auth", "modules"],
  session: ["core", "server", "http"],
  tasks: ["core", "server", "http"],
  tenancy: ["core", "server", "auth", "modules"],
  observe: ["core", "http"],
  workers: ["core", "server", "auth", "modules", "http", "session", "tasks", "tenancy", "observe"],
  // edge-mcp/hono: the endpoint as a Hono handler, made by createWorker; no layer imports it.
  hono: ["core", "server", "auth", "http", "workers"],
  // edge-mcp/oauth: the authorization server in front of a Worker (workers-oauth-provider, hono), and per tenant of the multi-tenant Worker; no layer imports it.
  oauth: ["core", "server", "auth", "http", "tenancy", "workers"],
};
// Packages a layer may use: jose only in auth, the JSON Schema validator only in server (no router: the endpoint routes itself);
// @opentelemetry/api only in observe, which only `observability()` brings into a bundle; acorn (code mode's loop guard) only in server/code-mode;
// hono only in src/hono and src/oauth (an optional peer dependency: the edge-mcp/hono and edge-mcp/oauth entries alone bring it);
// @cloudflare/workers-oauth-provider (an optional peer dependency) only in src/oauth, with jose for upstream ID tokens.
const PACKAGES: Readonly<Record<string, readonly string[]>> = {
  auth: ["jose"],
  server: ["@cfworker/json-schema", "acorn"],
  observe: ["@opentelemetry/api"],
  hono: ["hono"],
  oauth: ["@cloudflare/workers-oauth-provider", "hono", "jose"],
};

/**
 * Which other feature folders a feature may use: the tools everything calls, and the folders that own
 * the service keys a feature provides to (resources: the resources others add; completions: the
 * completion sources prompts and resources offer). Never both ways.
 */
const FEATURE_NEIGHBOURS = new Map<string, readonly string[]>([
  ["search", ["tools"]],
  ["code-mode", ["tools"]],
  ["json-schema", ["tools"]],
  ["apps", ["tools", "resources"]],
  ["tasks", ["tools"]],
  ["skills", ["resources"]],
  ["prompts", ["completions"]],
  ["resources", ["completions"]],
]);

/** Folders of src/server that every feature shares (the handler context, inputs, lists, notifications, state, JSON Schema checks). */
const SHARED = new Set(["context", "inputs", "lists", "notifications", "state", "schema"]);

/**
 * The imports inside src/server that run from a lower layer (the core files, the shared folders)
 * back up into a feature folder, as `file → folder`: each is justified by a comment on the line above
 * its first import. At most two.
 */
const BACK_UP = ["feature.ts → tools", "server.ts → tools"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

// The sandbox's text modules (npm run build:sandbox) hold the sandbox's own imports in a string: they import nothing.
const SANDBOX_TEXT = "// Written by `npm run build:sandbox`";
const imports = (path: string) => {
  const text = readFileSync(path, "utf8");
  return text.startsWith(SANDBOX_TEXT) ? [] : [...text.matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1] as string);
};
const layerOf = (path: string): string => relative(SRC, path).split("/")[0] as string;

describe("layers", () => {
  const sources = files(SRC).filter((path) => relative(SRC, path).includes("/"));

  it("puts every source folder in the layer table", () => {
    expect([...new Set(sources.map(layerOf))].filter((layer) => !Object.hasOwn(ALLOWED, layer))).toEqual([]);
  });

  it("lets each layer import only the layers DESIGN.md §4 allows", () => {
    const offenders: string[] = [];
    for (const path of sources) {
      const layer = layerOf(path);
      for (const spec of imports(path)) {
        if (spec.startsWith(".")) {
          const target = layerOf(resolve(dirname(path), spec));
          if (target !== layer && !ALLOWED[layer]?.includes(target)) offenders.push(`${relative(SRC, path)} → ${target}`);
        } else if (spec.startsWith("cloudflare:")) {
          if (layer !== "workers") offenders.push(`${relative(SRC, path)} → ${spec}`);
        } else if (!(PACKAGES[layer] ?? []).some((name) => spec === name || spec.startsWith(`${name}/`))) {
          offenders.push(`${relative(SRC, path)} → package ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("has no import loops between files, type imports included (a loop of types is a loop of design)", () => {
    const graph = new Map(
      files(SRC).map((path) => [
        path,
        imports(path)
          .filter((s) => s.startsWith("."))
          .map((s) => resolve(dirname(path), s)),
      ]),
    );
    const loops: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (path: string, trail: string[]): void => {
      if (state.get(path) === "done") return;
      if (state.get(path) === "open") {
        loops.push([...trail.slice(trail.indexOf(path)), path].map((p) => relative(SRC, p)).join(" → "));
        return;
      }
      state.set(path, "open");
      for (const next of graph.get(path) ?? []) visit(next, [...trail, path]);
      state.set(path, "done");
    };
    for (const path of graph.keys()) visit(path, []);
    expect(loops).toEqual([]);
  });
});

describe("the server's house", () => {
  it("keeps src/server a small core (at most 8 files) with one folder per feature", () => {
    const top = readdirSync(join(SRC, "server")).filter((name) => statSync(join(SRC, "server", name)).isFile());
    expect(top.length).toBeLessThanOrEqual(8);
  });

  it("lets a feature folder import only core, the server's core files and the shared folders, never another feature's internals", () => {
    const shared = SHARED;
    const offenders: string[] = [];
    for (const path of files(join(SRC, "server"))) {
      const parts = relative(join(SRC, "server"), path).split("/");
      if (parts.length < 2 || shared.has(parts[0] as string)) continue;
      const folder = parts[0] as string;
      for (const spec of imports(path).filter((s) => s.startsWith("."))) {
        const target = relative(join(SRC, "server"), resolve(dirname(path), spec)).split("/");
        if (target[0] === ".." || target.length < 2 || target[0] === folder || shared.has(target[0] as string)) continue;
        if (!FEATURE_NEIGHBOURS.get(folder)?.includes(target[0] as string)) offenders.push(`${parts.join("/")} → ${target.join("/")}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("runs at most two imports from a lower layer (core files, shared folders) back up into a feature folder, each justified", () => {
    const server = join(SRC, "server");
    const found = new Set<string>();
    const unjustified: string[] = [];
    for (const path of files(server)) {
      const parts = relative(server, path).split("/");
      if (parts.length > 1 && !SHARED.has(parts[0] as string)) continue;
      const lines = readFileSync(path, "utf8").split("\n");
      lines.forEach((line, i) => {
        const spec = /^(?:import|export)[^;]*?from\s+"(\.[^"]+)"/.exec(line)?.[1];
        if (!spec) return;
        const target = relative(server, resolve(dirname(path), spec)).split("/");
        if (target[0] === ".." || target.length < 2 || SHARED.has(target[0] as string)) return;
        const edge = `${parts.join("/")} → ${target[0]}`;
        if (!found.has(edge) && !lines.slice(0, i).some((above) => above.startsWith("//") && above.includes(`(${target[0]}/)`))) unjustified.push(edge);
        found.add(edge);
      });
    }
    expect([...found].sort()).toEqual(BACK_UP);
    expect(unjustified).toEqual([]);
  });

  it("orders features by the services they use, never by a rank table", () => {
    const offenders = files(join(SRC, "server")).filter((path) => /^\s*(readonly\s+)?rank\??:/m.test(readFileSync(path, "utf8")));
    expect(offenders.map((path) => relative(SRC, path))).toEqual([]);
  });
});

describe("wiring by value", () => {
  it("leaves no registry filled as a side effect of an import: the gateways hand their routes and features to the endpoint", () => {
    const registries = /\b(taskWiring|taskListening|sessionWiring|wiredSessionRoutes|wireSessions|durableWiring)\b/;
    expect(
      files(SRC)
        .filter((path) => registries.test(readFileSync(path, "utf8")))
        .map((path) => relative(SRC, path)),
    ).toEqual([]);
  });

  it("exports no module-level object or variable that another module assigns into", () => {
    // An exported `const x: T = {}` / `= []` / `new Map()`, or an exported `let`: state a module could fill for another.
    const declared = /^export\s+(?:let\s+(\w+)|const\s+(\w+)(?:\s*:[^=]+)?=\s*(?:\{\s*\}|\[\s*\]|new\s+(?:Map|Set|WeakMap)\b))/gm;
    const names = new Map<string, string>();
    for (const path of files(SRC)) for (const m of readFileSync(path, "utf8").matchAll(declared)) names.set((m[1] ?? m[2]) as string, relative(SRC, path));
    const offenders: string[] = [];
    for (const path of files(SRC)) {
      const text = readFileSync(path, "utf8");
      for (const [name, home] of names) {
        if (home === relative(SRC, path)) continue;
        const written = new RegExp(`\\b${name}(?:\\.\\w+|\\[[^\\]]+\\])?\\s*=[^=>]|\\b${name}\\.(?:set|add|push)\\(|Object\\.assign\\(\\s*${name}\\b`);
        if (written.test(text)) offenders.push(`${relative(SRC, path)} writes ${name} (${home})`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("opt-in code stays out of Workers that do not use it", () => {
  /** Every file `entry` reaches through value imports. */
  function reach(entry: string): Set<string> {
    const seen = new Set<string>();
    const visit = (path: string): void => {
      if (seen.has(path)) return;
      seen.add(path);
      const text = readFileSync(path, "utf8");
      if (text.startsWith(SANDBOX_TEXT)) return;
      for (const m of text.matchAll(/^(?:import|export)(?!\s+type\s)[^;]*?from\s+"(\.[^"]+)"/gm)) visit(resolve(dirname(path), m[1] as string));
    };
    visit(entry);
    return seen;
  }

  it("keeps tool search out of createServer: toolSearch() brings in exactly its folder, the tools' catalogue (which code mode reads too) and the search tools' names", () => {
    const core = new Set([...reach(join(SRC, "server/server.ts"))].map((path) => relative(SRC, path)));
    // The catalogue, and the search tools' names and _meta keys (tool-search.ts; createServer reads only its types).
    const catalogue = "server/tools/tool-catalog.ts";
    const names = "server/tools/tool-search.ts";
    // ctx.tools, through which the search tools read the model's view (code mode calls tools through it too).
    const handlerTools = "server/tools/handler-tools.ts";
    expect([...core].filter((path) => path.startsWith("server/search/") || path === catalogue || path === names || path === handlerTools)).toEqual([]);
    const added = [...reach(join(SRC, "server/search/tool-search-engine.ts"))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
    expect(added).toContain("server/search/search-index.ts");
    expect(added.filter((path) => !path.startsWith("server/search/")).sort()).toEqual([handlerTools, catalogue, names]);
    expect([...reach(join(SRC, "server/code-mode/code-mode-feature.ts"))].map((path) => relative(SRC, path))).toContain(catalogue);
  });

  it("keeps code mode out of createServer, createWorker and createMultiTenantWorker: codeMode() brings in exactly its folder, the runner itself and the sandbox's allocation budget", () => {
    const entries = ["server/server.ts", "workers/create-worker.ts", "workers/create-multi-tenant-worker.ts"];
    const core = new Set(entries.flatMap((entry) => [...reach(join(SRC, entry))].map((path) => relative(SRC, path))));
    // The tenants document's "codeMode" field (its limits) is read by every multi-tenant Worker, so its parser is there.
    const parsedEverywhere = "server/code-mode/code-mode-options.ts";
    expect(
      [...core].filter((path) => (path.startsWith("server/code-mode/") && path !== parsedEverywhere) || path === "workers/code-mode/worker-loader-runner.ts"),
    ).toEqual([]);
    const added = [...reach(join(SRC, "server/code-mode/code-mode-feature.ts"))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
    expect(added).toContain("server/code-mode/declarations.ts");
    expect(added.filter((path) => !path.startsWith("server/code-mode/"))).toEqual([]);
    // Its parser (acorn, for the loop guard) is imported by code mode alone.
    const parserUsers = files(SRC).filter((path) => imports(path).includes("acorn"));
    expect(parserUsers.map((path) => relative(SRC, path))).toEqual(["server/code-mode/loop-guard.ts"]);
    const runner = [...reach(join(SRC, "workers/code-mode/worker-loader-runner.ts"))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
    expect(runner.sort()).toEqual([
      "server/code-mode/allocation-budget.ts",
      "workers/code-mode/harness-module.ts",
      "workers/code-mode/worker-loader-runner.ts",
    ]);
  });

  it("keeps the full JSON Schema validator out of every Worker builder: fullJsonSchema() brings exactly its folder and @cfworker/json-schema", () => {
    const entries = [
      "server/server.ts",
      "workers/create-worker.ts",
      "workers/create-multi-tenant-worker.ts",
      "workers/create-tool-service.ts",
      "workers/tool-services.ts",
    ];
    const core = new Set(entries.flatMap((entry) => [...reach(join(SRC, entry))].map((path) => relative(SRC, path))));
    expect([...core].filter((path) => path.startsWith("server/json-schema/"))).toEqual([]);
    const added = [...reach(join(SRC, "json-schema.ts"))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
    expect(added.sort()).toEqual(["json-schema.ts", "server/json-schema/full-validator.ts", "server/json-schema/json-schema-feature.ts"]);
    const validatorUsers = files(SRC).filter((path) => imports(path).includes("@cfworker/json-schema"));
    expect(validatorUsers.map((path) => relative(SRC, path))).toEqual(["server/json-schema/full-validator.ts"]);
  });

  it("keeps MCP Apps out of createServer and createWorker: apps() brings in its folder and the resources feature it requires", () => {
    const core = new Set([...reach(join(SRC, "server/server.ts")), ...reach(join(SRC, "workers/create-worker.ts"))].map((path) => relative(SRC, path)));
    expect([...core].filter((path) => path.startsWith("server/apps/"))).toEqual([]);
    const added = [...reach(join(SRC, "server/apps/apps-feature.ts"))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
    expect(added).toEqual(expect.arrayContaining(["server/apps/app-resource.ts", "server/apps/check-app.ts"]));
    expect(added.filter((path) => !path.startsWith("server/apps/") && !path.startsWith("server/resources/"))).toEqual([]);
    // The Workers loader of static assets reaches nothing of the feature but its types.
    expect([...reach(join(SRC, "workers/static-assets.ts"))].map((path) => relative(SRC, path)).filter((path) => path.startsWith("server/apps/"))).toEqual([]);
  });

  it("keeps connected accounts out of every Worker builder: connectedAccounts() brings exactly its folder", () => {
    const entries = [
      "server/server.ts",
      "workers/create-worker.ts",
      "workers/create-multi-tenant-worker.ts",
      "workers/create-tool-service.ts",
      "oauth/index.ts",
    ];
    const core = new Set(entries.flatMap((entry) => [...reach(join(SRC, entry))].map((path) => relative(SRC, path))));
    expect([...core].filter((path) => path.startsWith("workers/accounts/"))).toEqual([]);
    const added = [...reach(join(SRC, "workers/accounts/connected-accounts.ts"))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
    // Besides its folder, only the parser of a tenant config's `accounts` section (its providers from the tenants document).
    expect(added.filter((path) => !path.startsWith("workers/accounts/"))).toEqual(["tenancy/accounts-section.ts"]);
    expect(added).toContain("workers/accounts/connect-routes.ts");
    expect([...core].filter((path) => path === "tenancy/accounts-section.ts")).toEqual([]);
  });

  it("keeps tool services out of createWorker: toolServices() and createToolService() bring in the service modules", () => {
    const core = new Set([...reach(join(SRC, "workers/create-worker.ts"))].map((path) => relative(SRC, path)));
    expect([...core].filter((path) => path.startsWith("modules/service-") || path === "workers/tool-services.ts")).toEqual([]);
    const added = [...reach(join(SRC, "workers/tool-services.ts"))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
    expect(added).toEqual(expect.arrayContaining(["modules/service-parts.ts", "modules/service-module.ts", "modules/service-skills.ts"]));
    // MCP Apps of a service are the multi-tenant Worker's: toolServices() does not bring the apps feature in.
    expect(added.filter((path) => path.startsWith("server/apps/apps-feature") || path === "modules/service-apps.ts")).toEqual([]);
  });

  it("keeps what a one-tool Worker does not declare out of createServer and createWorker: the other features, the engines, auth, tenancy", () => {
    const core = [...reach(join(SRC, "server/server.ts")), ...reach(join(SRC, "workers/create-worker.ts"))].map((path) => relative(SRC, path));
    // Skills, resources, prompts and completions come in through their define* declarations; the
    // session and task engines through createSessionObject and createTaskObject; auth through
    // createAuthorizer (of auth, only the metadata path's name is on the core path).
    const optional =
      /^(server\/(skills|resources|prompts|completions|search|apps|code-mode)\/|session\/|tasks\/|tenancy\/|modules\/|observe\/|auth\/(?!protected-resource\.ts$))/;
    expect(core.filter((path) => optional.test(path))).toEqual([]);
    expect(core.filter((path) => imports(join(SRC, path)).includes("jose"))).toEqual([]);
  });

  it("keeps token sources out of createAuthorizer and the Worker builders: tokenSources() and the verifiers bring exactly src/auth/tokens", () => {
    const entries = ["http/admission/authorizer.ts", "workers/create-worker.ts", "workers/create-multi-tenant-worker.ts", "tenancy/tenant-directory.ts"];
    const core = new Set(entries.flatMap((entry) => [...reach(join(SRC, entry))].map((path) => relative(SRC, path))));
    expect([...core].filter((path) => path.startsWith("auth/tokens/"))).toEqual([]);
    const added = [...reach(join(SRC, "auth/tokens/token-sources.ts"))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
    expect(added).toEqual(
      expect.arrayContaining(["auth/tokens/introspection-verifier.ts", "auth/tokens/authorization-server-verifier.ts", "auth/tokens/issuer-templates.ts"]),
    );
    expect(added.filter((path) => !path.startsWith("auth/tokens/"))).toEqual([]);
  });

  it("keeps the per-tenant authorization server out of createMultiTenantWorker: the signIn section's parser comes with keyedTenants() (its admin API) or tenantSignIn() only", () => {
    const multiTenant = new Set([...reach(join(SRC, "workers/create-multi-tenant-worker.ts"))].map((path) => relative(SRC, path)));
    expect([...multiTenant].filter((path) => path === "tenancy/sign-in-section.ts" || path.startsWith("oauth/"))).toEqual([]);
    expect(multiTenant.has("workers/tenant-sign-in-hook.ts")).toBe(false);
    const optIn = [...reach(join(SRC, "oauth/tenant-sign-in.ts"))].map((path) => relative(SRC, path));
    expect(optIn).toEqual(expect.arrayContaining(["tenancy/sign-in-section.ts", "oauth/prefixed-kv.ts"]));
    expect(optIn.filter((path) => path.startsWith("workers/"))).toEqual([]);
  });

  it("keeps the remote-module client out of every Worker builder: remoteModules() and remoteServers() bring exactly src/modules/remote and their own files", () => {
    const entries = ["workers/create-worker.ts", "workers/create-multi-tenant-worker.ts", "workers/tool-services.ts", "tenancy/tenant-directory.ts"];
    const core = new Set(entries.flatMap((entry) => [...reach(join(SRC, entry))].map((path) => relative(SRC, path))));
    // The parser of a tenant's `remote` field too: the tenants document only checks that it is an object.
    // And the reader of tenant secrets, which a tenant's remote credentials may name.
    const own = new Set([
      "workers/remote-modules.ts",
      "workers/remote-servers.ts",
      "workers/remote-module-of.ts",
      "tenancy/remote-section.ts",
      "tenancy/tenant-secret-reader.ts",
      "tenancy/tenant-secrets.ts",
      "tenancy/secret-box.ts",
    ]);
    expect([...core].filter((path) => path.startsWith("modules/remote/") || own.has(path))).toEqual([]);
    for (const entry of ["workers/remote-modules.ts", "workers/remote-servers.ts"]) {
      const added = [...reach(join(SRC, entry))].map((path) => relative(SRC, path)).filter((path) => !core.has(path));
      expect(added).toEqual(expect.arrayContaining(["modules/remote/remote-connection.ts", "modules/remote/circuit-breaker.ts", entry]));
      // remoteServers() also brings the tool-services type only, and the relay createWorker's services use;
      // both bring the features that serve an upstream's resources and prompts (what defineResource and definePrompt bring).
      const features = ["workers/notifications/", "server/notifications/", "server/resources/", "server/prompts/", "server/completions/"];
      expect(added.filter((path) => !path.startsWith("modules/remote/") && !own.has(path) && !features.some((folder) => path.startsWith(folder)))).toEqual([]);
    }
  });

  it("keeps the Durable Object wiring out of createWorker: createTaskObject, createSessionObject and createNotificationHub bring theirs", () => {
    const core = new Set([...reach(join(SRC, "workers/create-worker.ts"))].map((path) => relative(SRC, path)));
    const wiring = [
      "workers/tasks/task-gateway.ts",
      "workers/sessions/session-gateway.ts",
      "http/sessions/session-routes.ts",
      "workers/notifications/durable-change-relay.ts",
      "server/notifications/shared-subscription.ts",
    ];
    expect(wiring.filter((path) => core.has(path))).toEqual([]);
    const brought = (entry: string) => [...reach(join(SRC, entry))].map((path) => relative(SRC, path));
    expect(brought("workers/tasks/task-object.ts")).toContain("workers/tasks/task-gateway.ts");
    expect(brought("workers/sessions/session-object.ts")).toEqual(
      expect.arrayContaining(["workers/sessions/session-gateway.ts", "http/sessions/session-routes.ts"]),
    );
    expect(brought("workers/notifications/create-notification-hub.ts")).toEqual(
      expect.arrayContaining(["workers/notifications/durable-change-relay.ts", "server/notifications/shared-subscription.ts"]),
    );
  });

  it("keeps the tasks methods out of createServer and createWorker: a task gateway's module (createTaskObject's, the memory one) brings them", () => {
    const core = new Set([...reach(join(SRC, "server/server.ts")), ...reach(join(SRC, "workers/create-worker.ts"))].map((path) => relative(SRC, path)));
    const methods = ["server/tasks/tasks-feature.ts", "server/tasks/task-methods.ts"];
    expect(methods.filter((path) => core.has(path))).toEqual([]);
    for (const gateway of ["workers/tasks/task-gateway.ts", "workers/tasks/task-object.ts", "tasks/memory-task-gateway.ts"]) {
      expect([...reach(join(SRC, gateway))].map((path) => relative(SRC, path))).toEqual(expect.arrayContaining(methods));
    }
  });

  it("keeps hono out of every entry but edge-mcp/hono: the root, edge-mcp/workers, edge-mcp/host and edge-mcp/json-schema reach no file that imports it", () => {
    const entries = ["index.ts", "workers/index.ts", "host.ts", "json-schema.ts"];
    const reached = new Set(entries.flatMap((entry) => [...reach(join(SRC, entry))]));
    const usesHono = (path: string) => imports(path).some((spec) => spec === "hono" || spec.startsWith("hono/"));
    expect([...reached].filter((path) => relative(SRC, path).startsWith("hono/") || usesHono(path)).map((path) => relative(SRC, path))).toEqual([]);
    expect(
      files(SRC)
        .filter(usesHono)
        .map((path) => relative(SRC, path))
        .every((path) => path.startsWith("hono/") || path.startsWith("oauth/")),
    ).toBe(true);
    // The adapter brings only its own folder on top of createWorker.
    const base = new Set([...reach(join(SRC, "workers/create-worker.ts"))].map((path) => relative(SRC, path)));
    const added = [...reach(join(SRC, "hono/index.ts"))].map((path) => relative(SRC, path)).filter((path) => !base.has(path));
    expect(added.filter((path) => !path.startsWith("hono/") && !path.startsWith("auth/"))).toEqual([]);
  });

  it("keeps the authorization server out of every other entry: only edge-mcp/oauth reaches src/oauth and workers-oauth-provider", () => {
    const entries = ["index.ts", "workers/index.ts", "host.ts", "json-schema.ts", "hono/index.ts"];
    const reached = new Set(entries.flatMap((entry) => [...reach(join(SRC, entry))]));
    const usesProvider = (path: string) => imports(path).includes("@cloudflare/workers-oauth-provider");
    expect([...reached].filter((path) => relative(SRC, path).startsWith("oauth/") || usesProvider(path)).map((path) => relative(SRC, path))).toEqual([]);
    // The entry brings its own folder, what the authorizer reuses of auth/, the body reader of admission and the
    // parser of a tenant's signIn section (tenantSignIn()); nothing of the Worker builders.
    const added = [...reach(join(SRC, "oauth/index.ts"))].map((path) => relative(SRC, path));
    const sectionParser = new Set(["http/admission/read-body.ts", "tenancy/sign-in-section.ts", "tenancy/config-fields.ts"]);
    const shared = (path: string) => path.startsWith("oauth/") || path.startsWith("auth/") || path.startsWith("core/") || sectionParser.has(path);
    expect(added.filter((path) => !shared(path))).toEqual([]);
  });

  it("keeps observability out of createWorker and createMultiTenantWorker: observability() brings in src/observe and the usage object", () => {
    const entries = ["workers/create-worker.ts", "workers/create-multi-tenant-worker.ts", "index.ts"];
    const base = new Set(entries.flatMap((entry) => [...reach(join(SRC, entry))].map((path) => relative(SRC, path))));
    expect([...base].filter((path) => path.startsWith("observe/") || path === "workers/observe/usage-object.ts")).toEqual([]);
    const added = [...reach(join(SRC, "workers/observe/observability.ts"))].map((path) => relative(SRC, path)).filter((path) => !base.has(path));
    expect(added).toContain("observe/mcp-observer.ts");
    expect(added.filter((path) => !path.startsWith("observe/") && !path.startsWith("workers/"))).toEqual([]);
  });
});
