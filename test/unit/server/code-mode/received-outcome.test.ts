// The parent's check of a sandbox report: a hostile report (a sandbox whose program rewrote the harness's realm) is cut and typed.
import { describe, expect, it } from "vitest";
import { outcomeResult } from "../../../../src/server/code-mode/program.ts";
import { receivedOutcome, UNNAMED_ERROR } from "../../../../src/server/code-mode/received-outcome.ts";

const LIMITS = { maxOutputBytes: 200, maxConsoleBytes: 100 };
const BIG = "x".repeat(8 * 1024 * 1024);
const shown = (raw: unknown) => outcomeResult(receivedOutcome(raw, LIMITS), 0, LIMITS.maxOutputBytes, 0);
const size = (result: ReturnType<typeof shown>) => JSON.stringify(result).length;
const textAt = (result: ReturnType<typeof shown>, i: number): string => (result.content[i] as { text?: string } | undefined)?.text ?? "";

describe("receivedOutcome", () => {
  it("cuts an 8 MiB error message, name, stack and console to the limits", () => {
    const received = receivedOutcome({ ok: false, name: BIG, message: BIG, stack: BIG, console: BIG, consoleCut: false }, LIMITS);
    expect(received).toMatchObject({ ok: false, name: UNNAMED_ERROR, consoleCut: true });
    if (received.ok) throw new Error("unreachable");
    expect(received.message.length).toBe(200);
    expect(received.console.length).toBe(100);
    expect(received.stack.length).toBeLessThanOrEqual(8_192);
    expect(size(shown({ ok: false, name: BIG, message: BIG, stack: BIG, console: BIG }))).toBeLessThan(1_000);
  });

  it("cuts an 8 MiB result, a string or JSON, and says how long it was", () => {
    for (const json of [JSON.stringify(BIG), `[${'"\\u00e9",'.repeat(1_000_000)}1]`]) {
      const result = shown({ ok: true, json, console: "", consoleCut: false });
      expect(size(result)).toBeLessThan(1_000);
      expect(new TextEncoder().encode(textAt(result, 0)).length).toBeLessThanOrEqual(200);
      expect(textAt(result, 1)).toBe(
        `[output cut: the program returned ${json.length} characters of JSON, more than the limit of 200; return less (a summary, a slice)]`,
      );
    }
    expect(textAt(shown({ ok: true, json: JSON.stringify("é\n".repeat(10_000)), console: "" }), 0)).toMatch(/^(é\n)+é?$/);
  });

  it("never converts what is not a string: objects with toString, functions and getters get fixed stand-ins", () => {
    let called = false;
    const hostile = {
      ok: false,
      name: {
        toString() {
          called = true;
          return "Hijacked";
        },
      },
      message: () => "function",
      get stack() {
        called = true;
        return "at program.js:1";
      },
      console: 42,
      consoleCut: "yes",
    };
    expect(receivedOutcome(hostile, LIMITS)).toEqual({
      ok: false,
      name: UNNAMED_ERROR,
      message: "(the error's message is not a string)",
      stack: "",
      console: "",
      consoleCut: false,
    });
    expect(receivedOutcome({ ok: true, json: { toString: () => "x" }, console: "" }, LIMITS)).toMatchObject({
      ok: false,
      message: "the program's result could not be read",
    });
    expect(receivedOutcome("ok", LIMITS)).toMatchObject({ ok: false, message: "the sandbox reported no outcome" });
    expect(called).toBe(false);
  });
});
