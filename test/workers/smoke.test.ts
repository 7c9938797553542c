// Smoke test: the Workers pool loads the root wrangler.toml Worker and its fetch handler answers JSON.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("workers pool", () => {
  it("serves the main Worker through exports.default.fetch", async () => {
    const response = await exports.default.fetch("http://localhost/");
    expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
    const body: unknown = await response.json();
    expect(body).toBeTypeOf("object");
  });
});
