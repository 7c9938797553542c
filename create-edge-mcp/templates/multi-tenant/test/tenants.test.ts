// The MCP Worker inside workerd: each tenant gets its own modules, the tool service's tools and the rate limit.
import { describe, expect, it } from "vitest";
import { mcp } from "./mcp";

const toolNames = async (path: string) => ((await mcp(path, "tools/list")).result?.["tools"] as { name: string }[]).map((tool) => tool.name);

describe("tenants", () => {
  it("serves each tenant its own modules", async () => {
    expect(await toolNames("/t/acme/mcp")).toEqual(["hello"]);
    expect(await toolNames("/t/globex/mcp")).toEqual(["hello", "weather_forecast"]);
  });

  it("answers a tool call with the tenant that served it", async () => {
    const { result } = await mcp("/t/acme/mcp", "tools/call", { name: "hello", arguments: { name: "Ada" } });
    expect(result).toMatchObject({ content: [{ type: "text", text: "Hello Ada, from tenant acme" }] });
  });

  it("calls the tool service for the tenant that enabled it", async () => {
    const { result } = await mcp("/t/globex/mcp", "tools/call", { name: "weather_forecast", arguments: { city: "Oslo" } });
    expect(result).toMatchObject({ content: [{ type: "text", text: "Oslo: Snow, -3 °C (for tenant globex)" }] });
  });

  it("answers 404 for a path no tenant serves", async () => {
    expect((await mcp("/t/initech/mcp", "tools/list")).status).toBe(404);
  });

  it("refuses calls over the rate limit with 429 and Retry-After", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 25 && !statuses.includes(429); i++) {
      const answer = await mcp("/t/globex/mcp", "tools/call", { name: "hello", arguments: { name: "Bob" } });
      statuses.push(answer.status);
      retryAfter = answer.headers.get("retry-after");
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(20);
    expect(retryAfter).toBe("60");
  });
});
