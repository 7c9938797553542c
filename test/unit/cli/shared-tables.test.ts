// The CLI is plain JavaScript that runs without the TypeScript sources, so it keeps its own copies
// of a few protocol tables; this test holds each copy to the one the server uses.
import { describe, expect, it } from "vitest";
import { NAME_FIELD as CLI_NAME_FIELD, MODERN_VERSION_KEY, encodeHeaderValue } from "../../../cli/request-headers.mjs";
import { HEADER_TYPES, TOKEN } from "../../../cli/tool-header-params.mjs";
import { NAME_FIELD } from "../../../src/core/era.ts";
import { decodeHeaderValue } from "../../../src/core/header-value.ts";
import { HEADER_PARAM_TYPES, HTTP_TOKEN } from "../../../src/core/names.ts";
import { MetaKey } from "../../../src/core/versions.ts";

describe("the CLI's protocol tables agree with the server's", () => {
  it("mirrors the same body field per method in Mcp-Name", () => {
    expect([...CLI_NAME_FIELD]).toEqual([...NAME_FIELD]);
  });

  it("reads the protocol version from the same _meta key", () => {
    expect(MODERN_VERSION_KEY).toBe(MetaKey.protocolVersion);
  });

  it("accepts the same x-mcp-header names and property types", () => {
    expect(TOKEN.source).toBe(HTTP_TOKEN.source);
    expect([...HEADER_TYPES].sort()).toEqual([...HEADER_PARAM_TYPES].sort());
  });

  it.each(["plain", "with space", " leading", "trailing ", "héllo", "日本", "=?base64?looks-encoded?=", "", "a\nb"])(
    "encodes %j so that the server decodes it back",
    (value) => {
      const encoded = encodeHeaderValue(value);
      expect(encoded).toMatch(/^[\x20-\x7e]*$/);
      expect(decodeHeaderValue(encoded)).toBe(value);
    },
  );
});
