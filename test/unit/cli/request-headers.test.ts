// Headers the stdio relay derives from a message: 2026-07-28 request metadata, value encoding, Mcp-Param-*.
import { describe, expect, it } from "vitest";
import { encodeHeaderValue, modernHeaders, modernVersionOf } from "../../../cli/request-headers.mjs";
import { ToolHeaderParams } from "../../../cli/tool-header-params.mjs";
import { decodeHeaderValue } from "../../../src/core/header-value.ts";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

describe("encodeHeaderValue", () => {
  it("keeps visible ASCII as it is", () => {
    expect(encodeHeaderValue("weather_forecast")).toBe("weather_forecast");
    expect(encodeHeaderValue("file:///a b.txt")).toBe("file:///a b.txt");
  });

  it.each([["héllo ✓"], [" leading"], ["trailing "], ["line\nbreak"], ["=?base64?looks-encoded?="]])(
    "base64-encodes %j so the server decodes it back",
    (value) => {
      const encoded = encodeHeaderValue(value);
      expect(encoded).toMatch(/^=\?base64\?[A-Za-z0-9+/]*={0,2}\?=$/);
      expect(decodeHeaderValue(encoded)).toBe(value);
    },
  );
});

describe("modernHeaders", () => {
  it("reads the version from params._meta and names the method and the tool", () => {
    const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {}, _meta: META } };
    expect(modernVersionOf(message)).toBe("2026-07-28");
    expect(modernHeaders(message, "2026-07-28")).toEqual({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" });
  });

  it("names the uri of resources/read, encoded when it is not plain ASCII", () => {
    const message = { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "docs://café", _meta: META } };
    expect(decodeHeaderValue(modernHeaders(message, "2026-07-28")["mcp-name"] ?? "")).toBe("docs://café");
  });

  it("sends no Mcp-Name for methods without one, and finds no version in a 2025-era message", () => {
    expect(modernHeaders({ method: "tools/list", params: { _meta: META } }, "2026-07-28")).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
    });
    expect(modernVersionOf({ method: "tools/list", params: { _meta: { progressToken: 1 } } })).toBeUndefined();
  });
});

describe("ToolHeaderParams", () => {
  const params = new ToolHeaderParams();
  params.learn([
    {
      name: "route",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          options: {
            type: "object",
            properties: { dryRun: { type: "boolean", "x-mcp-header": "Dry-Run" }, count: { type: "integer", "x-mcp-header": "Count" } },
          },
          price: { type: "number", "x-mcp-header": "Price" },
          bad: { type: "string", "x-mcp-header": "no spaces allowed" },
        },
      },
    },
    { name: "plain", inputSchema: { type: "object" } },
  ]);

  it("mirrors each marked argument, nested ones too, as text", () => {
    expect(params.headersFor("route", { region: "eu-west", options: { dryRun: false, count: 42 } })).toEqual({
      "mcp-param-region": "eu-west",
      "mcp-param-dry-run": "false",
      "mcp-param-count": "42",
    });
  });

  it("leaves out absent and null arguments, and marks the spec forbids", () => {
    expect(params.headersFor("route", { region: null, price: 3, bad: "x" })).toEqual({});
  });

  it("encodes a value that is not plain ASCII", () => {
    expect(decodeHeaderValue(params.headersFor("route", { region: "Zürich" })["mcp-param-region"] ?? "")).toBe("Zürich");
  });

  it("knows listed tools only, and forgets a tool on request", () => {
    const fresh = new ToolHeaderParams();
    fresh.learn([{ name: "plain", inputSchema: { type: "object" } }]);
    expect(fresh.knows("plain")).toBe(true);
    expect(fresh.knows("other")).toBe(false);
    fresh.forget("plain");
    expect(fresh.knows("plain")).toBe(false);
  });
});
