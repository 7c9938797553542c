// What a listener that may have missed changes is told: every list it listens to changed, every resource it subscribed to was updated.
import { describe, expect, it } from "vitest";
import { refreshNotifications } from "../../../../src/server/notifications/refresh-notifications.ts";

describe("refreshNotifications", () => {
  it("names every list and subscribed resource of the filter, and nothing for tasks", () => {
    expect(
      refreshNotifications({
        toolsListChanged: true,
        promptsListChanged: true,
        resourcesListChanged: true,
        resourceSubscriptions: ["a://1", "b://"],
        taskIds: ["t"],
      }),
    ).toEqual([
      { method: "notifications/tools/list_changed", params: {} },
      { method: "notifications/prompts/list_changed", params: {} },
      { method: "notifications/resources/list_changed", params: {} },
      { method: "notifications/resources/updated", params: { uri: "a://1" } },
      { method: "notifications/resources/updated", params: { uri: "b://" } },
    ]);
    expect(refreshNotifications({ taskIds: ["t"] })).toEqual([]);
    expect(refreshNotifications({})).toEqual([]);
  });
});
