// Smoke test: both `wrangler dev` servers from global-setup answer HTTP (to be replaced by real MCP tests).
import { describe, expect, inject, it } from "vitest";

describe("e2e servers", () => {
  it.each([
    ["auto", inject("baseUrlAuto")],
    ["sse", inject("baseUrlSse")],
  ])("the %s server answers HTTP on loopback", async (_mode, baseUrl) => {
    expect(new URL(baseUrl).hostname).toBe("127.0.0.1");
    const response = await fetch(baseUrl);
    await response.body?.cancel();
    expect(response.status).toBeLessThan(500);
  });
});
