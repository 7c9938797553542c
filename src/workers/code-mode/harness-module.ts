// Written by `npm run build:sandbox` from sandbox/harness.js: edit those, then run it
// (test/unit/server/code-mode/sandbox-modules.test.ts fails while this file and they disagree).
/** The Dynamic Worker's entry module of a code-mode sandbox, as text (see sandbox/harness.js). */

/** The source of the sandbox module `harness.js`. */
export const HARNESS_MODULE = `// @ts-check
/**
 * Sandbox JavaScript: the Dynamic Worker's entry. It puts the allocation budget in place, captures \`console\`, gives the
 * program a \`tools\` object whose methods call the parent through the RPC stub it is handed, and reports how the
 * program ended. It is the only module besides the program and the allocation budget; the program cannot reach \`env\`
 * (it is empty) or the network (\`globalOutbound: null\` refuses \`fetch\` and \`connect\`). The Worker ships it as text
 * (npm run build:sandbox writes ../harness-module.ts from it).
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { installAllocationBudget } from "./allocation-budget.js";
class ToolError extends Error {
  constructor(message, code) {
    super(message);
    this.name = "ToolError";
    if (code !== undefined) this.code = code;
  }
}
export default class Harness extends WorkerEntrypoint {
  async run(bridge, maxConsoleBytes, maxAllocationBytes) {
    let size = 0;
    let consoleCut = false;
    // One string, not an array: an index setter on Array.prototype cannot reach it.
    let consoleText = "";
    // Console lines are built without the wrapped built-ins, so a program past its allocation budget can still log text.
    const show = (value) => {
      if (typeof value === "string") return value;
      try {
        return JSON.stringify(value);
      } catch {
        return String(value);
      }
    };
    const write =
      (level) =>
      (...args) => {
        let line = level === "log" ? "" : level + ": ";
        for (let i = 0; i < args.length; i++) line += (i === 0 ? "" : " ") + show(args[i]);
        if (consoleCut || size + line.length + 1 > maxConsoleBytes) {
          consoleCut = true;
          return;
        }
        consoleText += (size === 0 ? "" : "\\n") + line;
        size += line.length + 1;
      };
    for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = write(level);
    const call = (name) => async (args) => {
      const answer = await bridge.call(name, args);
      if (!answer.ok) throw new ToolError(answer.message, answer.code);
      return answer.value;
    };
    const tools = new Proxy({}, { get: (_, name) => (typeof name === "string" && name !== "then" ? call(name) : undefined) });
    globalThis.tools = tools;
    const ended = () => ({ console: consoleText, consoleCut });
    const budget = installAllocationBudget(maxAllocationBytes);
    try {
      const program = (await import("./program.js")).default;
      if (typeof program !== "function") throw new TypeError("the module has no default export function");
      const value = await program(tools);
      // The result is written under a budget of its own: a program that caught the limit still gives its answer.
      budget.renew();
      return { ok: true, json: value === undefined ? undefined : JSON.stringify(value), ...ended() };
    } catch (error) {
      // Only primitives go back: a name or message that is not a string (an object with its own toString) is not
      // converted here, and the parent checks and cuts everything again.
      let name = "Error";
      let message = "";
      let stack = "";
      try {
        if (error instanceof Error) {
          const e = /** @type {{ name: unknown; message: unknown; stack: unknown }} */ (error);
          if (typeof e.name === "string") name = e.name;
          if (typeof e.message === "string") message = e.message;
          if (typeof e.stack === "string") stack = e.stack;
        } else message = typeof error === "string" ? error : String(error);
      } catch {
        message = "(the error could not be read)";
      }
      return { ok: false, name, message, stack, ...ended() };
    }
  }
}
`;
