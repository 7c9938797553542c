/** A model's program: wrapped into the module a sandbox runs, and its outcome turned into what the model sees. */

import type { CallToolResult } from "../../core/types.ts";
import type { SandboxOutcome } from "./sandbox.ts";

/** A report checked and cut by `receivedOutcome`: a result's JSON may be a prefix (`jsonChars` then says how long the whole was). */
export type ReceivedOutcome = SandboxOutcome & { readonly jsonChars?: number };

/** The file name a sandbox gives the program (stack traces name it). */
export const PROGRAM_FILE = "program.js";

/** What the model sees of a program that could not be prepared (its syntax error), with the program's line and column. */
export function refusedResult(refused: { message: string; line?: number | undefined; column?: number | undefined }): CallToolResult {
  const where = refused.line === undefined ? "" : ` at line ${refused.line}${refused.column === undefined ? "" : `, column ${refused.column}`}`;
  return { content: [{ type: "text", text: `The program failed${where}: ${refused.message}` }], isError: true, _meta: { "edge-mcp/toolCalls": 0 } };
}

/**
 * The line of the program where an error was thrown: the first frame of the stack in the program's
 * own lines (a frame in the wrapper's first line, the loop guard's, is passed over); undefined when
 * the stack does not say.
 */
export function programLine(stack: string, lineOffset: number): number | undefined {
  for (const match of stack.matchAll(new RegExp(`${PROGRAM_FILE.replace(".", "\\.")}:(\\d+)(?::\\d+)?`, "g"))) {
    const line = Number(match[1]) - lineOffset;
    if (line >= 1) return line;
  }
  return undefined;
}

const utf8 = new TextEncoder();

/** Cuts text to at most `maxBytes` of UTF-8 (on a character boundary); `cut` says whether it was. */
export function cutText(text: string, maxBytes: number): { text: string; cut: boolean; bytes: number } {
  if (text.length * 3 <= maxBytes) return { text, cut: false, bytes: text.length };
  const bytes = utf8.encode(text);
  if (bytes.length <= maxBytes) return { text, cut: false, bytes: bytes.length };
  let end = maxBytes;
  // Step back off a UTF-8 continuation byte so no character is split.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), cut: true, bytes: bytes.length };
}

/** The text of a JSON string literal's first part (a prefix the parent cut): its last escape, if cut in two, is left out. */
function stringPrefix(json: string): string {
  for (let drop = 0; drop < 7; drop++) {
    try {
      return JSON.parse(`${json.slice(0, json.length - drop)}"`) as string;
    } catch {
      // a cut escape or a cut surrogate pair: one character fewer
    }
  }
  return "";
}

/** What the model sees of a run (checked by `receivedOutcome`): the output (cut to the limit, and said so), then the console, or the error and its line. */
export function outcomeResult(outcome: ReceivedOutcome, lineOffset: number, maxOutputBytes: number, calls: number): CallToolResult {
  const content: CallToolResult["content"] = [];
  let isError = false;
  if (outcome.ok) {
    const json = outcome.json;
    const whole = outcome.jsonChars;
    // A string result is shown as it is; anything else as JSON.
    const string = json?.startsWith('"') === true;
    const text =
      json === undefined ? "(the program returned nothing)" : string ? (whole === undefined ? (JSON.parse(json) as string) : stringPrefix(json)) : json;
    const output = cutText(text, maxOutputBytes);
    content.push({ type: "text", text: output.text });
    if (output.cut || whole !== undefined) {
      const size = whole === undefined ? `${output.bytes} bytes` : `${whole} characters of JSON`;
      content.push({
        type: "text",
        text: `[output cut: the program returned ${size}, more than the limit of ${maxOutputBytes}; return less (a summary, a slice)]`,
      });
    }
  } else {
    isError = true;
    const line = programLine(outcome.stack, lineOffset);
    const where = line === undefined ? "" : ` at line ${line}`;
    content.push({ type: "text", text: `The program failed${where}: ${outcome.name}: ${outcome.message}` });
  }
  if (outcome.console !== "") {
    const note = outcome.consoleCut ? "\n[console output cut at the limit]" : "";
    content.push({ type: "text", text: `console:\n${outcome.console}${note}` });
  } else if (outcome.consoleCut) {
    content.push({ type: "text", text: "[console output cut at the limit]" });
  }
  const result: CallToolResult = { content, _meta: { "edge-mcp/toolCalls": calls } };
  if (isError) result.isError = true;
  return result;
}
