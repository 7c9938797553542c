// Code mode under `wrangler dev` with the official v1 and v2 clients: the multi-tenant example's globex tenant runs
// a five-step workflow as five direct calls and as one program in a Dynamic Worker, with the same final answer.
import { describe, expect, inject, it } from "vitest";
import { connectLegacyClient, connectModernClient } from "./clients.ts";

const GLOBEX = `${inject("baseUrlMultiTenant")}/t/globex/mcp`;
const CITIES = ["Paris", "Oslo", "Lima", "Rome"];

type Result = { content?: { type: string; text?: string }[]; isError?: boolean };
type AnyClient = Awaited<ReturnType<typeof connectModernClient>> | Awaited<ReturnType<typeof connectLegacyClient>>;

const textOf = (result: unknown): string => ((result as Result).content ?? []).map((block) => block.text ?? "").join("\n");

/** The summary the model (or the program) computes from the forecasts and the greeting. */
function summarise(greeting: string, forecasts: { city: string; text: string; ok: boolean }[]): string {
  const known = forecasts.filter((f) => f.ok).map((f) => ({ city: f.city, celsius: Number(/(-?\d+) °C/.exec(f.text)?.[1]) }));
  known.sort((a, b) => a.celsius - b.celsius);
  const missing = forecasts.filter((f) => !f.ok).map((f) => f.city);
  const coldest = known[0] as { city: string; celsius: number };
  const warmest = known.at(-1) as { city: string; celsius: number };
  return `${greeting}. Coldest: ${coldest.city} (${coldest.celsius} °C); warmest: ${warmest.city} (${warmest.celsius} °C); no forecast for ${missing.join(", ")}.`;
}

/** The same summary, as the model would write it into a program (plain JavaScript, no imports). */
const PROGRAM = `
const cities = ${JSON.stringify(CITIES)};
const forecasts = [];
for (const city of cities) {
  try {
    forecasts.push({ city, text: await tools.weather_forecast({ city }), ok: true });
  } catch (error) {
    forecasts.push({ city, text: error.message, ok: false });
  }
}
const greeting = await tools.hello({ name: "Ann" });
const known = forecasts.filter((f) => f.ok).map((f) => ({ city: f.city, celsius: Number(/(-?\\d+) °C/.exec(f.text)[1]) }));
known.sort((a, b) => a.celsius - b.celsius);
const missing = forecasts.filter((f) => !f.ok).map((f) => f.city);
const coldest = known[0];
const warmest = known.at(-1);
return \`\${greeting}. Coldest: \${coldest.city} (\${coldest.celsius} °C); warmest: \${warmest.city} (\${warmest.celsius} °C); no forecast for \${missing.join(", ")}.\`;
`;

const utf8 = (value: unknown): number => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value)).length;

describe.each(["legacy", "modern"] as const)("code mode with the %s client", (era) => {
  async function withClient<T>(run: (client: AnyClient) => Promise<T>): Promise<T> {
    const client = era === "legacy" ? await connectLegacyClient(GLOBEX) : await connectModernClient(GLOBEX);
    try {
      return await run(client);
    } finally {
      await client.close();
    }
  }

  it("answers the five-step workflow the same as five direct calls and as one program", async () => {
    await withClient(async (client) => {
      const listed = (await client.listTools()).tools;
      expect(listed.map((tool) => tool.name)).toContain("execute");
      // Five direct calls: every intermediate result goes through the model.
      const direct: unknown[] = [];
      const forecasts: { city: string; text: string; ok: boolean }[] = [];
      for (const city of CITIES) {
        const result = await client.callTool({ name: "weather_forecast", arguments: { city } });
        direct.push(result);
        forecasts.push({ city, text: textOf(result), ok: result.isError !== true });
      }
      const greeting = await client.callTool({ name: "hello", arguments: { name: "Ann" } });
      direct.push(greeting);
      const answer = summarise(textOf(greeting), forecasts);
      expect(answer).toBe("Hello Ann, from tenant globex. Coldest: Oslo (-3 °C); warmest: Paris (21 °C); no forecast for Rome.");

      // One program: only its result goes back.
      const declarations = await client.callTool({ name: "tool_declarations", arguments: { names: ["weather_forecast", "hello"] } });
      expect(textOf(declarations)).toContain("weather_forecast(args: {\n    city: string;\n  }): Promise<string>;");
      const run = await client.callTool({ name: "execute", arguments: { code: PROGRAM } });
      expect(run.isError).toBeUndefined();
      expect(textOf(run)).toBe(answer);

      // Bytes the model reads: every tool's listing plus intermediate results, against code mode's two tools and its program's answer.
      const directBytes =
        utf8(listed.filter((tool) => tool.name !== "execute" && tool.name !== "tool_declarations")) + direct.reduce<number>((sum, r) => sum + utf8(r), 0);
      const codeBytes = utf8(listed.filter((tool) => tool.name === "execute" || tool.name === "tool_declarations")) + utf8(declarations) + utf8(run);
      console.log(`[code-mode ${era}] bytes to the model: direct ${directBytes}, code mode ${codeBytes} (program ${utf8(PROGRAM)} bytes written by the model)`);
    });
  });

  it("refuses the network inside a program, and reports the line of a failure", async () => {
    await withClient(async (client) => {
      const refused = await client.callTool({ name: "execute", arguments: { code: `await fetch("http://127.0.0.1:1/");` } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^The program failed at line 1: Error: This worker is not permitted to access the internet/);
      const failed = await client.callTool({ name: "execute", arguments: { code: `const a = 1;\nawait tools.weather_boom({});` } });
      // What the service threw stays in the log (issue 21): the program sees that its module failed.
      expect(textOf(failed)).toMatch(/^The program failed at line 2: ToolError: Tool weather_boom failed: module weather failed/);
    });
  });
});
