// Running code-mode programs on the admission Worker: what the loop-guard and allocation-budget tests share.
import { expect } from "vitest";
import { API_KEY, modern, resultOf } from "./fixture.ts";

export type Result = Awaited<ReturnType<typeof resultOf>>;

/** Runs a program on the "secure" tenant (3 s wall time, 100000 loop turns and function calls, 5 tool calls, 8 MiB allocated) or another. */
export async function execute(code: string, tenant = "secure"): Promise<Result> {
  return resultOf(await modern(tenant, "tools/call", { name: "execute", arguments: { code } }, `Bearer ${API_KEY}`));
}

/** The text of a reply's first content part ("" when there is none). */
export const firstText = (reply: Result): string => reply.result?.content[0]?.text ?? "";

/** The Worker still runs programs, and they still call tools. */
export async function stillAnswers(): Promise<void> {
  const reply = await execute(`return await tools.invoice_total({ lines: [2, 3] });`);
  expect(reply.result?.isError).toBeUndefined();
  expect(firstText(reply)).toBe("Total: 5");
}
