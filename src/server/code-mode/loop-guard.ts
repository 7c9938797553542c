/** The loop guard: a model's program rewritten (on the same lines) so every loop turn and function entry counts against the run's budget. */

import { parse } from "acorn";

/** The guard's name in the program: a program that names it is refused, so it can be neither shadowed nor replaced. */
export const GUARD = "__edgeMcpGuard";

/** The budget the guard enforces in one run. */
export interface GuardBudget {
  /** Most loop turns and function entries (together). */
  readonly maxIterations: number;
  /** Wall time from the program's start, in ms (seen only when the program waits on I/O: a Worker's clock stands still while it computes). */
  readonly wallTimeMs: number;
}

/** A program ready to run, or why it cannot (its syntax error, with the program's line and column). */
export type GuardedProgram =
  { ok: true; source: string; lineOffset: number } | { ok: false; message: string; line?: number | undefined; column?: number | undefined };

/** One piece of text put into the program: an opening at a construct's start, or a closing at its end. */
interface Edit {
  pos: number;
  text: string;
  closing: boolean;
  /** Order of discovery (outer constructs first): at one position, openings go outer first, closings inner first. */
  seq: number;
}

interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const LOOPS: ReadonlySet<string> = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);
const FUNCTIONS: ReadonlySet<string> = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/**
 * The guard's definition, on one line: the first call past `maxIterations`, or past the wall time
 * (looked at on the first call and every 1024 calls after it), throws a `LimitError`, and so does every call after it, so a
 * program that catches it cannot loop on. Its own frame is left out of the stack, so the error's
 * line is the program's loop or function.
 */
function guardPrelude(budget: GuardBudget): string {
  const turns = `execute stopped: the program ran more than ${budget.maxIterations} loop turns and function calls (the iteration limit)`;
  const time = `execute stopped: the program ran longer than ${budget.wallTimeMs} ms (the wall time limit)`;
  // The clock starts at the first call that sees it (a Worker's clock reads 0 outside a request).
  // `Date.now`, `Error` and `Error.captureStackTrace` are taken before the program runs: replacing them later changes nothing.
  return (
    `const ${GUARD} = ((max, ms, clock, Failure, capture) => { let n = 0, end = 0, over = ""; const guard = () => { ` +
    `if (over === "") { if (++n > max) over = ${JSON.stringify(turns)}; ` +
    `else if ((n & 1023) === 1) { const now = clock(); if (end === 0) { if (now > 0) end = now + ms; } else if (now > end) over = ${JSON.stringify(time)}; } } ` +
    `if (over !== "") { const e = new Failure(over); e.name = "LimitError"; if (capture) capture(e, guard); throw e; } }; return guard; })` +
    `(${budget.maxIterations}, ${budget.wallTimeMs}, Date.now, Error, Error.captureStackTrace); `
  );
}

function isNode(value: unknown): value is AstNode {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** The edits that guard every loop body and function body under `root`; throws when the program names the guard. */
function guardEdits(root: AstNode): Edit[] {
  const edits: Edit[] = [];
  const call = `${GUARD}();`;
  const add = (pos: number, text: string, closing: boolean) => edits.push({ pos, text, closing, seq: edits.length });
  const visit = (node: AstNode): void => {
    if (node.type === "Identifier" && node["name"] === GUARD) throw new GuardNameError(node.start);
    const body = node["body"];
    if ((LOOPS.has(node.type) || FUNCTIONS.has(node.type)) && isNode(body)) {
      if (body.type === "BlockStatement") add(body.start + 1, call, false);
      else if (LOOPS.has(node.type)) {
        add(body.start, `{${call}`, false);
        add(body.end, "}", true);
      } else {
        // An arrow function's expression body: `x => (guard(), expression)`.
        add(body.start, `(${GUARD}(), `, false);
        add(body.end, ")", true);
      }
    }
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item);
      } else if (isNode(value)) visit(value);
    }
  };
  visit(root);
  return edits;
}

class GuardNameError extends Error {
  constructor(readonly pos: number) {
    super(`the name ${GUARD} is reserved (code mode's loop guard)`);
  }
}

/** Applies edits to `source`: by position, closings before openings at one position (one construct ends before the next starts). */
function applyEdits(source: string, edits: Edit[]): string {
  const ordered = [...edits].sort((a, b) => {
    if (a.pos !== b.pos) return a.pos - b.pos;
    if (a.closing !== b.closing) return a.closing ? -1 : 1;
    return a.closing ? b.seq - a.seq : a.seq - b.seq;
  });
  let out = "";
  let at = 0;
  for (const edit of ordered) {
    out += source.slice(at, edit.pos) + edit.text;
    at = edit.pos;
  }
  return out + source.slice(at);
}

type Parsed = { ok: true; ast: AstNode } | { ok: false; message: string; pos: number; line?: number; column?: number };

function parseModule(source: string): Parsed {
  try {
    return { ok: true, ast: parse(source, { ecmaVersion: "latest", sourceType: "module", locations: false }) as unknown as AstNode };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const { loc, pos } = error as SyntaxError & { loc?: { line: number; column: number }; pos?: number };
    // acorn ends its message with " (line:column)"; the caller says where, in the program's own terms.
    const message = error.message.replace(/ \(\d+:\d+\)$/, "");
    return loc ? { ok: false, message, pos: pos ?? 0, line: loc.line, column: loc.column + 1 } : { ok: false, message, pos: pos ?? 0 };
  }
}

/** The 1-based line and column of `pos` in `source`. */
function lineColumn(source: string, pos: number): { line: number; column: number } {
  const before = source.slice(0, pos);
  const line = before.split("\n").length;
  return { line, column: pos - before.lastIndexOf("\n") };
}

const WRAPPER_START = "export default async function (tools) {\n";

/**
 * The module a sandbox runs, guarded: the code as it is when it is a module with a default
 * export, or else the body of `export default async function (tools) { … }`. Every loop body and
 * function body starts with a call of the guard, defined on the module's first line; no line
 * moves, so `lineOffset` (what the wrapper adds) maps the sandbox's lines back to the program's.
 */
export function guardProgram(code: string, budget: GuardBudget): GuardedProgram {
  const { source, lineOffset, parsed } = programForm(code);
  if (!parsed.ok) {
    if (parsed.line === undefined) return { ok: false, message: `SyntaxError: ${parsed.message}` };
    // An error found at the wrapper's closing brace (an unclosed block) is at the program's end.
    const lines = code.split("\n").length;
    const line = Math.min(Math.max(parsed.line - lineOffset, 1), lines);
    const column = line === parsed.line - lineOffset ? parsed.column : undefined;
    return { ok: false, message: `SyntaxError: ${parsed.message}`, line, column };
  }
  let edits: Edit[];
  try {
    edits = guardEdits(parsed.ast);
  } catch (error) {
    if (!(error instanceof GuardNameError)) throw error;
    const { line, column } = lineColumn(source, error.pos);
    return { ok: false, message: `SyntaxError: ${error.message}`, line: line - lineOffset, column };
  }
  return { ok: true, source: guardPrelude(budget) + applyEdits(source, edits), lineOffset };
}

/**
 * Which form the program has, parsed: a function body in the wrapper (one parse, the usual case),
 * or else a module with a default export, as it is (a module never parses as a function body).
 * When neither parses, the form that read further is what the program meant.
 */
function programForm(code: string): { source: string; lineOffset: number; parsed: Parsed } {
  const source = `${WRAPPER_START}${code}\n}\n`;
  const asBody = parseModule(source);
  if (asBody.ok) return { source, lineOffset: 1, parsed: asBody };
  const asModule = parseModule(code);
  if (asModule.ok ? hasDefaultExport(asModule.ast) : asModule.pos > asBody.pos - WRAPPER_START.length) {
    return { source: code, lineOffset: 0, parsed: asModule };
  }
  return { source, lineOffset: 1, parsed: asBody };
}

function hasDefaultExport(ast: AstNode): boolean {
  return (ast["body"] as AstNode[]).some((node) => node.type === "ExportDefaultDeclaration");
}
