/**
 * The scalars of SKILL.md frontmatter: plain values typed by the YAML 1.2 core schema, quoted
 * values with their escapes, one-line flow collections; and the error every frontmatter problem
 * raises.
 */

/** A frontmatter problem, with the 1-based line of `SKILL.md` where it was found. */
export class FrontmatterError extends Error {
  override readonly name = "FrontmatterError";
  readonly code = "ERR_FRONTMATTER";
  readonly line: number | undefined;

  constructor(message: string, line?: number) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.line = line;
  }
}

export const MAX_DEPTH = 32;

export const trimStart = (text: string): string => text.replace(/^[\t ]+/, "");
export const trimEnd = (text: string): string => text.replace(/[\t ]+$/, "");

/** A key, unless it is one a host's parse would not keep as a field. */
export function checkKey(key: string, no: number): string {
  // A "__proto__" key would become the object's prototype in a host's parse, not a field.
  if (key === "__proto__") throw new FrontmatterError(`the key "__proto__" is not allowed`, no);
  return key;
}

// YAML 1.2 core schema (§10.3.2): how a plain scalar resolves.
const NULL = /^(?:~|null|Null|NULL)$/;
const TRUE = /^(?:true|True|TRUE)$/;
const FALSE = /^(?:false|False|FALSE)$/;
const INTEGER = /^[-+]?[0-9]+$/;
const OCTAL = /^0o[0-7]+$/;
const HEXADECIMAL = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const SPECIAL_FLOAT = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

export function resolvePlain(text: string, no: number): unknown {
  if (text === "" || NULL.test(text)) return null;
  if (TRUE.test(text)) return true;
  if (FALSE.test(text)) return false;
  let number: number | undefined;
  if (INTEGER.test(text) || OCTAL.test(text) || HEXADECIMAL.test(text)) {
    number = OCTAL.test(text) ? Number.parseInt(text.slice(2), 8) : Number(text);
    if (!Number.isSafeInteger(number)) throw new FrontmatterError(`the integer ${text} is too large for JSON numbers; quote it`, no);
  } else if (FLOAT.test(text)) number = Number(text);
  else if (SPECIAL_FLOAT.test(text)) throw new FrontmatterError(`"${text}" cannot be written in JSON; quote it`, no);
  return number ?? text;
}

// YAML double-quoted escapes (§5.7): the character after "\\" and what it stands for, position by position.
const ESCAPES: ReadonlyMap<string, string> = new Map(
  [...'0abt\tnvfre "/\\N_LP'].map((code, index) => [code, '\0\x07\b\t\t\n\v\f\r\x1b "/\\\u0085\u00a0\u2028\u2029'[index] as string]),
);
const HEX_WIDTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const UNCLOSED = "a quoted value must close on the same line";

/** A single- or double-quoted scalar starting at `start`; `end` is the index after its closing quote. */
export function readQuoted(text: string, start: number, no: number): { value: string; end: number } {
  const quote = text[start];
  let value = "";
  let index = start + 1;
  while (index < text.length) {
    const char = text[index] as string;
    if (quote === "'") {
      if (char === "'") {
        if (text[index + 1] !== "'") return { value, end: index + 1 };
        value += "'";
        index += 2;
        continue;
      }
    } else if (char === '"') return { value, end: index + 1 };
    else if (char === "\\") {
      const code = text[index + 1];
      if (code === undefined) throw new FrontmatterError(UNCLOSED, no);
      const width = HEX_WIDTH[code];
      if (width !== undefined) {
        const hex = text.slice(index + 2, index + 2 + width);
        if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) throw new FrontmatterError(`invalid escape "\\${code}${hex}"`, no);
        const point = Number.parseInt(hex, 16);
        if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) throw new FrontmatterError(`escape "\\${code}${hex}" is not a Unicode character`, no);
        value += String.fromCodePoint(point);
        index += 2 + width;
        continue;
      }
      const escaped = ESCAPES.get(code);
      if (escaped === undefined) throw new FrontmatterError(`unknown escape "\\${code}"`, no);
      value += escaped;
      index += 2;
      continue;
    }
    value += char;
    index++;
  }
  throw new FrontmatterError(UNCLOSED, no);
}

const skipSpaces = (text: string, index: number): number => {
  while (text[index] === " " || text[index] === "\t") index++;
  return index;
};

/** A one-line flow collection (`[a, "b"]`, `{k: v}`) starting at `start`. */
export function readFlow(text: string, start: number, no: number, depth: number): { value: unknown; end: number } {
  if (depth > MAX_DEPTH) throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH} levels`, no);
  const open = text[start];
  const close = open === "[" ? "]" : "}";
  const items: unknown[] = [];
  const map: Record<string, unknown> = {};
  let index = skipSpaces(text, start + 1);
  if (text[index] === close) return { value: open === "[" ? items : map, end: index + 1 };
  for (;;) {
    if (open === "[") {
      const node = readFlowNode(text, index, no, depth);
      items.push(node.value);
      index = node.end;
    } else {
      const key = readFlowNode(text, index, no, depth);
      if (typeof key.value !== "string") throw new FrontmatterError("flow mapping keys must be strings; quote them", no);
      if (text[key.end] !== ":" || !" \t,}".includes(text[key.end + 1] ?? ""))
        throw new FrontmatterError(`expected ": " after the key "${key.value}" in a flow mapping`, no);
      if (Object.hasOwn(map, key.value)) throw new FrontmatterError(`duplicate key "${key.value}"`, no);
      const node = readFlowNode(text, skipSpaces(text, key.end + 1), no, depth);
      map[checkKey(key.value, no)] = node.value;
      index = node.end;
    }
    index = skipSpaces(text, index);
    if (text[index] === close) return { value: open === "[" ? items : map, end: index + 1 };
    if (text[index] !== ",")
      throw new FrontmatterError(index >= text.length ? "a flow collection must close on the same line" : `expected "," or "${close}"`, no);
    index = skipSpaces(text, index + 1);
    if (text[index] === close) throw new FrontmatterError("no trailing comma in a flow collection, please", no);
  }
}

function readFlowNode(text: string, start: number, no: number, depth: number): { value: unknown; end: number } {
  const first = text[start];
  if (first === '"' || first === "'") {
    const quoted = readQuoted(text, start, no);
    return { value: quoted.value, end: skipSpaces(text, quoted.end) };
  }
  if (first === "[" || first === "{") {
    const flow = readFlow(text, start, no, depth + 1);
    return { value: flow.value, end: skipSpaces(text, flow.end) };
  }
  if (first === undefined || "&*!|>%@`#,]}".includes(first) || /^[-?:](?:[\t ,\]}]|$)/.test(text.slice(start))) {
    throw new FrontmatterError(first === undefined ? "a flow collection must close on the same line" : `unexpected "${first}" in a flow collection`, no);
  }
  let end = start;
  while (end < text.length) {
    const char = text[end] as string;
    if (",[]{}".includes(char)) break;
    if (char === ":" && " \t,[]{}".includes(text[end + 1] ?? " ")) break;
    if (char === "#" && (text[end - 1] === " " || text[end - 1] === "\t")) break;
    end++;
  }
  return { value: resolvePlain(trimEnd(text.slice(start, end)), no), end };
}
