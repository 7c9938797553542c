// A Worker reaches MCP_TASKS, MCP_SESSIONS and MCP_NOTIFICATIONS through code that the classes made from
// it hand to it (createTaskObject, createSessionObject, createNotificationHub): bound without it, it
// fails at startup with the line to add; with it, the binding is wired. The wiring is the Worker's own.
import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { createServer } from "../../src/server/server.ts";
import { createWorker, durableBindings } from "../../src/workers/create-worker.ts";
import { createMultiTenantTaskObject, createMultiTenantWorker } from "../../src/workers/create-multi-tenant-worker.ts";
import { durableChangeRelay } from "../../src/workers/notifications/durable-change-relay.ts";
import { wiringOf, type DurableWiring } from "../../src/workers/durable-wiring.ts";
import { createNotificationHub } from "../../src/workers/notifications/create-notification-hub.ts";
import { McpNotificationHub } from "../../src/workers/notifications/notification-hub.ts";
import { createSessionObject } from "../../src/workers/sessions/session-object.ts";
import { createTaskObject } from "../../src/workers/tasks/task-object.ts";
import type { McpEnv, McpWorker } from "../../src/workers/env.ts";

const server = createServer({ info: { name: "wiring", version: "1" }, tools: [] });
/** Enough of a Durable Object namespace for the gateways to accept it (nothing is called). */
const namespace = { idFromName() {}, idFromString() {}, newUniqueId() {}, get() {} } as unknown as DurableObjectNamespace;
const quotas = { MCP_QUOTAS: namespace };

function refusal(env: object, sessionsOn = false): string {
  let thrown: unknown;
  try {
    durableBindings(env, "default", sessionsOn, true, 1, {});
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DefinitionError);
  return (thrown as Error).message;
}

/** The wiring a Worker holds (every Worker from createWorker holds one). */
const wiring = (worker: McpWorker<never>): DurableWiring => wiringOf(worker) as DurableWiring;

describe("Durable Object bindings without the class that brings their wiring", () => {
  it("refuses MCP_TASKS at startup and names createTaskObject", () => {
    expect(refusal({ MCP_TASKS: namespace, ...quotas })).toBe(
      "MCP_TASKS is bound but this Worker does not export its class, which brings the Worker's wiring to it: export const McpTaskObject = createTaskObject(worker) (createMultiTenantTaskObject(worker) with many tenants)",
    );
  });

  it("refuses MCP_SESSIONS with legacy sessions on and names createSessionObject", () => {
    expect(refusal({ MCP_SESSIONS: namespace, ...quotas }, true)).toContain(
      "MCP_SESSIONS is bound but this Worker does not export its class, which brings the Worker's wiring to it: export const McpSessionObject = createSessionObject(worker)",
    );
  });

  it("refuses MCP_NOTIFICATIONS and names createNotificationHub", () => {
    expect(refusal({ MCP_NOTIFICATIONS: namespace })).toContain(
      "MCP_NOTIFICATIONS is bound but this Worker does not export its class, which brings the Worker's wiring to it: export const McpNotificationHub = createNotificationHub(worker)",
    );
  });

  it("needs nothing when the binding is off: tasks turned off, sessions off, nothing bound", () => {
    expect(durableBindings({ MCP_TASKS: namespace, ...quotas } as unknown as McpEnv, "default", false, false, 1, {})).not.toHaveProperty("tasks");
    expect(durableBindings({ MCP_SESSIONS: namespace, ...quotas } as unknown as McpEnv, "default", false, true, 1, {})).not.toHaveProperty("sessions");
    expect(durableBindings({}, "default", false, true, 1, {})).toEqual({});
  });
});

describe("the class hands the wiring to its Worker", () => {
  it("createTaskObject(worker): that Worker's MCP_TASKS gets the task gateway, another Worker's does not", () => {
    const worker = createWorker(server);
    const other = createWorker(server);
    createTaskObject(worker);
    const bound = durableBindings({ MCP_TASKS: namespace, ...quotas } as unknown as McpEnv, "default", false, true, 1, wiring(worker));
    expect(typeof bound.tasks?.create).toBe("function");
    expect(wiring(other)).toEqual({});
  });

  it("createSessionObject(worker): MCP_SESSIONS gets the session gateway and the session routes", () => {
    const worker = createWorker(server);
    createSessionObject(worker);
    const bound = durableBindings({ MCP_SESSIONS: namespace, ...quotas } as unknown as McpEnv, "default", true, true, 1, wiring(worker));
    expect(typeof bound.sessions?.forward).toBe("function");
    expect(bound.sessionRoutes).toBeDefined();
  });

  it("createNotificationHub(worker): MCP_NOTIFICATIONS gets the relay, and the class is the hub", () => {
    const worker = createWorker(server);
    expect(createNotificationHub(worker)).toBe(McpNotificationHub);
    expect(wiring(worker).relay).toBe(durableChangeRelay);
    const bound = durableBindings({ MCP_NOTIFICATIONS: namespace } as unknown as McpEnv, "default", false, true, 1, wiring(worker));
    expect(typeof bound.relay?.publish).toBe("function");
  });

  it("the multi-tenant forms take the Worker, and refuse anything else", () => {
    const worker = createMultiTenantWorker({ modules: {}, tenants: { tenants: [] } });
    createMultiTenantTaskObject(worker);
    expect(typeof wiring(worker).tasks).toBe("function");
    expect(() => createMultiTenantTaskObject({ modules: {} } as unknown as McpWorker<never>)).toThrow(/takes the Worker from createMultiTenantWorker/);
    expect(() => createNotificationHub({ fetch: () => new Response() })).toThrow(DefinitionError);
  });
});
