// A Worker reaches MCP_TASKS, MCP_SESSIONS and MCP_NOTIFICATIONS through code that comes with the class it
// exports (createTaskObject, createSessionObject, McpNotificationHub): bound without it, it fails at startup
// with the line to add; with it, the binding is wired as before.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { createServer } from "../../src/server/server.ts";
import { durableBindings } from "../../src/workers/create-worker.ts";
import { durableChangeRelay } from "../../src/workers/notifications/durable-change-relay.ts";
import { durableWiring, type DurableWiring } from "../../src/workers/durable-wiring.ts";
import { McpNotificationHub } from "../../src/workers/notifications/notification-hub.ts";
import { createSessionObject } from "../../src/workers/sessions/session-object.ts";
import { createTaskObject } from "../../src/workers/tasks/task-object.ts";
import type { McpEnv } from "../../src/workers/env.ts";

const server = createServer({ info: { name: "wiring", version: "1" }, tools: [] });
/** Enough of a Durable Object namespace for the gateways to accept it (nothing is called). */
const namespace = { idFromName() {}, idFromString() {}, newUniqueId() {}, get() {} } as unknown as DurableObjectNamespace;
const quotas = { MCP_QUOTAS: namespace };

let saved: DurableWiring;
beforeEach(() => {
  saved = { ...durableWiring };
  for (const key of Object.keys(durableWiring)) delete durableWiring[key as keyof DurableWiring];
});
afterEach(() => Object.assign(durableWiring, saved));

function refusal(env: object, sessionsOn = false): string {
  let thrown: unknown;
  try {
    durableBindings(env, "default", sessionsOn);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DefinitionError);
  return (thrown as Error).message;
}

describe("Durable Object bindings without the class that brings their wiring", () => {
  it("refuses MCP_TASKS at startup and names createTaskObject", () => {
    expect(refusal({ MCP_TASKS: namespace, ...quotas })).toBe(
      "MCP_TASKS is bound but this Worker does not export its class, which brings the Worker's wiring to it: export const McpTaskObject = createTaskObject(worker) (createMultiTenantTaskObject(options) with many tenants)",
    );
  });

  it("refuses MCP_SESSIONS with legacy sessions on and names createSessionObject", () => {
    expect(refusal({ MCP_SESSIONS: namespace, ...quotas }, true)).toContain(
      "MCP_SESSIONS is bound but this Worker does not export its class, which brings the Worker's wiring to it: export const McpSessionObject = createSessionObject(worker)",
    );
  });

  it("refuses MCP_NOTIFICATIONS and names the McpNotificationHub export", () => {
    expect(refusal({ MCP_NOTIFICATIONS: namespace })).toContain(
      'MCP_NOTIFICATIONS is bound but this Worker does not export its class, which brings the Worker\'s wiring to it: export { McpNotificationHub } from "edge-mcp/workers"',
    );
  });

  it("needs nothing when the binding is off: tasks turned off, sessions off, nothing bound", () => {
    expect(durableBindings({ MCP_TASKS: namespace, ...quotas } as unknown as McpEnv, "default", false, false)).not.toHaveProperty("tasks");
    expect(durableBindings({ MCP_SESSIONS: namespace, ...quotas } as unknown as McpEnv, "default", false)).not.toHaveProperty("sessions");
    expect(durableBindings({}, "default", false)).toEqual({});
  });
});

describe("the class brings the wiring", () => {
  it("createTaskObject: MCP_TASKS gets the task gateway", () => {
    createTaskObject(server);
    const bound = durableBindings({ MCP_TASKS: namespace, ...quotas } as unknown as McpEnv, "default", false);
    expect(typeof bound.tasks?.create).toBe("function");
  });

  it("createSessionObject: MCP_SESSIONS gets the session gateway", () => {
    createSessionObject(server);
    const bound = durableBindings({ MCP_SESSIONS: namespace, ...quotas } as unknown as McpEnv, "default", true);
    expect(typeof bound.sessions?.forward).toBe("function");
  });

  it("the McpNotificationHub module: MCP_NOTIFICATIONS gets the relay", () => {
    expect(McpNotificationHub).toBeTypeOf("function");
    expect(saved.relay).toBe(durableChangeRelay);
    Object.assign(durableWiring, { relay: saved.relay });
    const bound = durableBindings({ MCP_NOTIFICATIONS: namespace } as unknown as McpEnv, "default", false);
    expect(typeof bound.relay?.publish).toBe("function");
  });
});
