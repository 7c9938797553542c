import { describe, expect, it } from "vitest";
import { detectEra } from "../../../src/core/era.ts";
import { ErrorCode, ProtocolError } from "../../../src/core/errors.ts";
import type { InboundRequest } from "../../../src/core/jsonrpc.ts";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

function request(method: string, params?: Record<string, unknown>): InboundRequest {
  return { kind: "request", id: 1, method, params };
}

function headers(values: Record<string, string>) {
  const h = new Headers(values);
  return (name: string) => h.get(name);
}

const MODERN_HEADERS = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };

function failure(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error("expected a ProtocolError");
}

describe("detectEra", () => {
  it("treats initialize as legacy and keeps the requested legacy version", () => {
    expect(detectEra(request("initialize", { protocolVersion: "2025-06-18" }), headers({}))).toEqual({ era: "legacy", protocolVersion: "2025-06-18" });
  });

  it("assumes 2025-03-26 for a legacy request without a version header", () => {
    expect(detectEra(request("tools/list"), headers({}))).toEqual({ era: "legacy", protocolVersion: "2025-03-26" });
  });

  it("refuses an unknown legacy version header with -32022 listing what is supported", () => {
    const error = failure(() => detectEra(request("tools/list"), headers({ "mcp-protocol-version": "1999-01-01" })));
    expect([error.code, error.status]).toEqual([ErrorCode.UnsupportedProtocolVersion, 400]);
    expect(error.data).toMatchObject({ requested: "1999-01-01", supported: expect.arrayContaining(["2026-07-28", "2025-11-25"]) });
  });

  it("accepts a well-formed 2026-07-28 request", () => {
    const info = detectEra(request("tools/list", { _meta: { ...META, "io.modelcontextprotocol/logLevel": "warning" } }), headers(MODERN_HEADERS));
    expect(info).toEqual({ era: "modern", protocolVersion: "2026-07-28", clientCapabilities: {}, minLogRank: 3 });
  });

  it("answers 400 -32602 when the modern header comes without _meta", () => {
    const error = failure(() => detectEra(request("tools/list"), headers(MODERN_HEADERS)));
    expect([error.code, error.status]).toEqual([ErrorCode.InvalidParams, 400]);
  });

  it("answers 400 -32602 when clientCapabilities is missing", () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
    const error = failure(() => detectEra(request("tools/list", { _meta: meta }), headers(MODERN_HEADERS)));
    expect([error.code, error.status]).toEqual([ErrorCode.InvalidParams, 400]);
    expect(error.message).toMatch(/clientCapabilities/);
  });

  it("answers 400 -32020 when MCP-Protocol-Version is missing or differs from _meta", () => {
    expect(failure(() => detectEra(request("tools/list", { _meta: META }), headers({ "mcp-method": "tools/list" }))).code).toBe(ErrorCode.HeaderMismatch);
    const error = failure(() => detectEra(request("tools/list", { _meta: META }), headers({ ...MODERN_HEADERS, "mcp-protocol-version": "2025-11-25" })));
    expect([error.code, error.status]).toEqual([ErrorCode.HeaderMismatch, 400]);
  });

  it("answers a header/body disagreement with -32020 even when the body version is also unsupported", () => {
    const meta = { ...META, "io.modelcontextprotocol/protocolVersion": "v999.0.0" };
    expect(failure(() => detectEra(request("tools/list", { _meta: meta }), headers(MODERN_HEADERS))).code).toBe(ErrorCode.HeaderMismatch);
  });

  it("checks missing _meta keys before the headers", () => {
    const noVersion = { "io.modelcontextprotocol/clientCapabilities": {} };
    expect(failure(() => detectEra(request("tools/list", { _meta: noVersion }), headers(MODERN_HEADERS))).code).toBe(ErrorCode.InvalidParams);
    const noCaps = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
    expect(failure(() => detectEra(request("tools/list", { _meta: noCaps }), headers({}))).code).toBe(ErrorCode.InvalidParams);
  });

  it("answers 400 -32022 for an unsupported version in _meta", () => {
    const meta = { ...META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" };
    const error = failure(() => detectEra(request("tools/list", { _meta: meta }), headers({ ...MODERN_HEADERS, "mcp-protocol-version": "1900-01-01" })));
    expect([error.code, error.status]).toEqual([ErrorCode.UnsupportedProtocolVersion, 400]);
    expect(error.data).toMatchObject({ requested: "1900-01-01" });
  });

  it("answers 400 -32020 when Mcp-Method or Mcp-Name is missing or differs", () => {
    const call = request("tools/call", { name: "echo", _meta: META });
    const base = { "mcp-protocol-version": "2026-07-28" };
    expect(failure(() => detectEra(call, headers(base))).code).toBe(ErrorCode.HeaderMismatch);
    expect(failure(() => detectEra(call, headers({ ...base, "mcp-method": "tools/list", "mcp-name": "echo" }))).code).toBe(ErrorCode.HeaderMismatch);
    expect(failure(() => detectEra(call, headers({ ...base, "mcp-method": "tools/call" }))).code).toBe(ErrorCode.HeaderMismatch);
    expect(failure(() => detectEra(call, headers({ ...base, "mcp-method": "tools/call", "mcp-name": "add" }))).code).toBe(ErrorCode.HeaderMismatch);
    expect(detectEra(call, headers({ ...base, "mcp-method": "tools/call", "mcp-name": `=?base64?${btoa("echo")}?=` })).era).toBe("modern");
  });

  it("answers 400 -32602 for a log level that does not exist", () => {
    const error = failure(() => detectEra(request("tools/list", { _meta: { ...META, "io.modelcontextprotocol/logLevel": "loud" } }), headers(MODERN_HEADERS)));
    expect([error.code, error.status]).toEqual([ErrorCode.InvalidParams, 400]);
  });
});
