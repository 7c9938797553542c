/** 2026-07-28 `Mcp-Param-{Name}` checks: each header mirrors a tool argument marked `x-mcp-header`. */

import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import { decodeHeaderValue } from "../../core/header-value.ts";
import { isObject } from "../../core/json.ts";
import type { HeaderReader } from "../../core/era.ts";
import type { RequestId } from "../../core/jsonrpc.ts";
import type { CompiledTool, HeaderParam } from "../../server/tools/compile-tool.ts";

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

function matches(param: HeaderParam, headerValue: string, bodyValue: unknown): boolean {
  switch (param.type) {
    case "string":
      return headerValue === bodyValue;
    case "integer":
      // Integers are compared numerically ("042" equals 42).
      return /^-?\d+$/.test(headerValue) && Number(headerValue) === bodyValue;
    case "boolean":
      return headerValue === String(bodyValue);
  }
}

/** Throws -32020 (HTTP 400) when a marked argument is present but its header is missing or differs. */
export function checkHeaderParams(tool: CompiledTool, args: unknown, header: HeaderReader, id: RequestId): void {
  for (const param of tool.headerParams) {
    const bodyValue = valueAt(args, param.path);
    if (bodyValue === undefined || bodyValue === null) continue;
    const raw = header(param.header);
    const fail = (what: string): never => {
      throw new ProtocolError(ErrorCode.HeaderMismatch, `Header mismatch: ${what}`, { status: 400, requestId: id });
    };
    if (raw === null) fail(`missing ${param.header} header for argument ${param.path.join(".")}`);
    const decoded = decodeHeaderValue(raw as string);
    if (decoded === undefined) fail(`${param.header} header is not valid =?base64?…?= encoding`);
    if (!matches(param, decoded as string, bodyValue)) fail(`${param.header} header value '${raw}' does not match body value ${JSON.stringify(bodyValue)}`);
  }
}
