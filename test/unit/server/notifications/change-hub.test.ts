import { describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../../../src/core/errors.ts";
import { ChangeHub } from "../../../../src/server/notifications/change-hub.ts";
import { parseSubscriptionFilter, wants } from "../../../../src/server/notifications/subscription-filter.ts";

describe("parseSubscriptionFilter", () => {
  it("keeps the kinds asked for and leaves out unknown kinds and false flags", () => {
    expect(parseSubscriptionFilter({ toolsListChanged: true, promptsListChanged: false, fooChanged: true, resourceSubscriptions: ["a://x", "a://x"] })).toEqual(
      {
        toolsListChanged: true,
        resourceSubscriptions: ["a://x"],
      },
    );
  });

  it.each([undefined, [], { toolsListChanged: "yes" }, { resourceSubscriptions: "a://x" }, { resourceSubscriptions: [1] }])(
    "refuses the filter %j with -32602",
    (value) => {
      try {
        parseSubscriptionFilter(value);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ProtocolError);
        expect((error as ProtocolError).code).toBe(ErrorCode.InvalidParams);
      }
    },
  );
});

describe("ChangeHub", () => {
  it("delivers each change only to listeners whose filter asks for it, until they unsubscribe", () => {
    const hub = new ChangeHub();
    const tools: string[] = [];
    const resources: unknown[] = [];
    const stopTools = hub.subscribe({ toolsListChanged: true }, { send: (method) => tools.push(method) });
    hub.subscribe({ resourceSubscriptions: ["file:///dir"] }, { send: (method, params) => resources.push([method, params]) });
    hub.toolsListChanged();
    hub.promptsListChanged();
    hub.resourceUpdated("file:///dir/a.txt");
    hub.resourceUpdated("file:///directory");
    stopTools();
    hub.toolsListChanged();
    expect(tools).toEqual(["notifications/tools/list_changed"]);
    expect(resources).toEqual([["notifications/resources/updated", { uri: "file:///dir/a.txt" }]]);
    expect(hub.listenerCount).toBe(1);
  });

  it("keeps delivering to other listeners when one throws", () => {
    const hub = new ChangeHub();
    const seen: string[] = [];
    hub.subscribe(
      { toolsListChanged: true },
      {
        send: () => {
          throw new Error("broken");
        },
      },
    );
    hub.subscribe({ toolsListChanged: true }, { send: (method) => seen.push(method) });
    const original = console.error;
    console.error = () => {};
    try {
      hub.toolsListChanged();
    } finally {
      console.error = original;
    }
    expect(seen).toHaveLength(1);
  });
});

describe("wants", () => {
  it("matches a resource update to a subscribed URI or a sub-resource of it, never a sibling with the same prefix", () => {
    const filter = { resourceSubscriptions: ["file:///dir", "db://t/"] };
    expect(wants(filter, "notifications/resources/updated", { uri: "file:///dir" })).toBe(true);
    expect(wants(filter, "notifications/resources/updated", { uri: "file:///dir/a" })).toBe(true);
    expect(wants(filter, "notifications/resources/updated", { uri: "db://t/rows" })).toBe(true);
    expect(wants(filter, "notifications/resources/updated", { uri: "file:///dirt" })).toBe(false);
    expect(wants(filter, "notifications/resources/updated", {})).toBe(false);
  });

  it("refuses methods that are not notification kinds, including prototype names", () => {
    const all = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["a://"] };
    for (const method of ["constructor", "__proto__", "toString", "notifications/message", "notifications/progress"])
      expect(wants(all, method, {})).toBe(false);
  });
});

describe("ChangeHub.endAll", () => {
  it("ends every subscription once and forgets it", () => {
    const hub = new ChangeHub();
    const ended: string[] = [];
    hub.subscribe({ toolsListChanged: true }, { send: () => {}, end: (reason) => ended.push(reason) });
    hub.subscribe({ toolsListChanged: true }, { send: () => {}, end: (reason) => ended.push(reason) });
    hub.endAll("bye");
    hub.endAll("again");
    expect(ended).toEqual(["bye", "bye"]);
    expect(hub.listenerCount).toBe(0);
  });
});
