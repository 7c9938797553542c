import { describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../../src/core/errors.ts";
import { classifyMessage } from "../../../src/core/jsonrpc.ts";

function failure(body: unknown): ProtocolError {
  try {
    classifyMessage(body);
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error("expected a ProtocolError");
}

describe("classifyMessage", () => {
  it("classifies requests, notifications and responses", () => {
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({ kind: "request", id: 1, method: "ping", params: undefined });
    expect(classifyMessage({ jsonrpc: "2.0", method: "notifications/initialized" })).toMatchObject({ kind: "notification" });
    expect(classifyMessage({ jsonrpc: "2.0", id: "a", result: {} })).toMatchObject({ kind: "response", id: "a" });
  });

  it("refuses batches with -32600 and HTTP 400", () => {
    const error = failure([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect([error.code, error.status]).toEqual([ErrorCode.InvalidRequest, 400]);
    expect(error.message).toMatch(/Batch/);
  });

  it.each([null, 1, "text", true])("refuses a non-object body %j", (body) => {
    expect(failure(body).code).toBe(ErrorCode.InvalidRequest);
  });

  it("refuses a wrong jsonrpc version and keeps the id for the reply", () => {
    const error = failure({ jsonrpc: "1.0", id: 7, method: "ping" });
    expect([error.code, error.requestId]).toEqual([ErrorCode.InvalidRequest, 7]);
  });

  it.each([
    [{ jsonrpc: "2.0", id: null, method: "ping" }, /id/],
    [{ jsonrpc: "2.0", id: 1.5, method: "ping" }, /id/],
    [{ jsonrpc: "2.0", id: {}, method: "ping" }, /id/],
    [{ jsonrpc: "2.0", id: 1, method: 5 }, /method/],
    [{ jsonrpc: "2.0", id: 1, method: "" }, /method/],
    [{ jsonrpc: "2.0", id: 1, method: "ping", params: [1] }, /params/],
    [{ jsonrpc: "2.0", id: 1 }, /method/],
  ])("refuses the malformed message %j", (body, pattern) => {
    const error = failure(body);
    expect(error.code).toBe(ErrorCode.InvalidRequest);
    expect(error.message).toMatch(pattern);
  });
});
