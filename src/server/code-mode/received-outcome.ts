/**
 * A sandbox's report as the parent takes it: only primitives of the expected types, each cut to its
 * limit before the parent holds it, whatever the program did to its own realm.
 */

import { cutText, type ReceivedOutcome } from "./program.ts";

/** The limits a report is cut to. */
export interface ReceivedLimits {
  readonly maxOutputBytes: number;
  readonly maxConsoleBytes: number;
}

/** The name shown for an error whose name is not a short string (an object, a getter's answer, 8 MiB of text). */
export const UNNAMED_ERROR = "Error";
const MAX_NAME_CHARS = 128;
// Enough of a stack's end to find the program's line in (its frames follow the message, which may be long).
const MAX_STACK_CHARS = 8_192;

/** An own data property of a report, never read through a getter or a stub. */
function field(report: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(report, key);
  return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * Checks and cuts what a sandbox reported: strings stay strings (anything else takes a fixed
 * stand-in, never converted, so no program code runs in the parent), an error's message is cut to
 * `maxOutputBytes`, console text to `maxConsoleBytes`, and a result's JSON to the most that can
 * show `maxOutputBytes` (6 characters per shown one at worst, a `\u` escape).
 */
export function receivedOutcome(raw: unknown, limits: ReceivedLimits): ReceivedOutcome {
  if (typeof raw !== "object" || raw === null) {
    return { ok: false, name: UNNAMED_ERROR, message: "the sandbox reported no outcome", stack: "", console: "", consoleCut: false };
  }
  const consoleText = text(field(raw, "console")) ?? "";
  const shown = cutText(consoleText, limits.maxConsoleBytes);
  const console = shown.text;
  const consoleCut = field(raw, "consoleCut") === true || shown.cut;
  if (field(raw, "ok") === true) {
    const json = field(raw, "json");
    if (json === undefined) return { ok: true, json: undefined, console, consoleCut };
    if (typeof json !== "string") return { ok: false, name: UNNAMED_ERROR, message: "the program's result could not be read", stack: "", console, consoleCut };
    const maxChars = limits.maxOutputBytes * 6 + 2;
    if (json.length <= maxChars) return { ok: true, json, console, consoleCut };
    return { ok: true, json: json.slice(0, maxChars), jsonChars: json.length, console, consoleCut };
  }
  const name = text(field(raw, "name"));
  const message = text(field(raw, "message"));
  const stack = text(field(raw, "stack")) ?? "";
  return {
    ok: false,
    name: name === undefined || name === "" || name.length > MAX_NAME_CHARS ? UNNAMED_ERROR : name,
    message: message === undefined ? "(the error's message is not a string)" : cutText(message, limits.maxOutputBytes).text,
    stack: stack.length > MAX_STACK_CHARS ? stack.slice(-MAX_STACK_CHARS) : stack,
    console,
    consoleCut,
  };
}
