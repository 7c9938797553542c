/** Patterns the protocol puts on names, defined once (the CLI's plain-JS copies are checked against these by a test). */

/** A tool name: 1–128 characters of A–Z a–z 0–9 `_` `-` `.` (2025-11-25 "Tool names"). */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** An HTTP token (RFC 9110 §5.6.2), as an `x-mcp-header` name must be. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The property types an `x-mcp-header` may mark (2026-07-28: primitives a header can carry). */
export const HEADER_PARAM_TYPES: ReadonlySet<string> = new Set(["string", "integer", "boolean"]);

/** Keeps a promise's work alive after the response (the platform's `ctx.waitUntil`). */
export type WaitUntil = (promise: Promise<unknown>) => void;
