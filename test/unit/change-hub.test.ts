import { describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../src/core/errors.ts";
import { ChangeHub, parseSubscriptionFilter } from "../../src/server/change-hub.ts";

describe("parseSubscriptionFilter", () => {
  it("keeps the kinds asked for and leaves out unknown kinds and false flags", () => {
    expect(parseSubscriptionFilter({ toolsListChanged: true, promptsListChanged: false, fooChanged: true, resourceSubscriptions: ["a://x", "a://x"] })).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ["a://x"],
    });
  });

  it.each([undefined, [], { toolsListChanged: "yes" }, { resourceSubscriptions: "a://x" }, { resourceSubscriptions: [1] }])("refuses the filter %j with -32602", (value) => {
    try {
      parseSubscriptionFilter(value);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(ErrorCode.InvalidParams);
    }
  });
});

describe("ChangeHub", () => {
  it("delivers each change only to listeners whose filter asks for it, until they unsubscribe", () => {
    const hub = new ChangeHub();
    const tools: string[] = [];
    const resources: unknown[] = [];
    const stopTools = hub.subscribe({ toolsListChanged: true }, (method) => tools.push(method));
    hub.subscribe({ resourceSubscriptions: ["file:///dir"] }, (method, params) => resources.push([method, params]));
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
    hub.subscribe({ toolsListChanged: true }, () => {
      throw new Error("broken");
    });
    hub.subscribe({ toolsListChanged: true }, (method) => seen.push(method));
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
