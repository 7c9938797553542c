/**
 * Reads the YAML frontmatter of a `SKILL.md` (Agent Skills) as JSON. It accepts a strict subset of
 * YAML 1.2 (core schema): block mappings and sequences, plain, quoted and block scalars, one-line
 * flow collections and comments. Whatever lies outside the subset is refused with its line number
 * rather than read in a way another YAML parser might not: a host compares this JSON, field by
 * field, with its own parse of the same file (SEP-2640 "Frontmatter").
 */

import { FrontmatterError, MAX_DEPTH, checkKey, readFlow, readQuoted, resolvePlain, trimEnd, trimStart } from "./frontmatter-scalars.ts";

export { FrontmatterError } from "./frontmatter-scalars.ts";

export interface SkillMarkdown {
  frontmatter: Record<string, unknown>;
  /** The markdown after the closing `---` line. */
  body: string;
}

interface Line {
  /** 1-based line number in SKILL.md. */
  no: number;
  /** Leading spaces. */
  indent: number;
  /** The line without its leading spaces. */
  text: string;
  raw: string;
}

// YAML 1.2 printable characters (§5.1), minus the line breaks handled by the splitter.
// eslint-disable-next-line no-control-regex -- matching control characters is what this pattern is for
const NOT_PRINTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\uFFFE\uFFFF]/;
const COMMENT = /[\t ]#/;
const TAB_INDENT = "tabs cannot indent YAML; use spaces";

/** Splits `SKILL.md` (BOM and CRLF tolerated) into frontmatter and body, and parses the frontmatter. */
export function parseSkillMarkdown(markdown: string): SkillMarkdown {
  let text = markdown.replaceAll("\r\n", "\n");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.startsWith("---\n")) throw new FrontmatterError(`SKILL.md must begin with a "---" line that opens its YAML frontmatter`, 1);
  const rest = text.slice(4);
  const close = /^---[\t ]*$/m.exec(rest);
  if (close === null) throw new FrontmatterError(`the frontmatter has no closing "---" line`);
  const yaml = rest.slice(0, close.index);
  let body = rest.slice(close.index + close[0].length);
  if (body.startsWith("\n")) body = body.slice(1);
  return { frontmatter: parseFrontmatter(yaml, 2), body };
}

/** Parses frontmatter YAML; `firstLine` numbers its first line in errors. */
export function parseFrontmatter(yaml: string, firstLine = 1): Record<string, unknown> {
  const raws = yaml.split("\n");
  if (raws.at(-1) === "") raws.pop();
  const lines = raws.map((raw, index): Line => {
    const no = firstLine + index;
    // A lone CR is a line break to YAML but not to every frontmatter splitter: refuse it.
    if (raw.includes("\r")) throw new FrontmatterError("a carriage return without a line feed", no);
    if (NOT_PRINTABLE.test(raw)) throw new FrontmatterError("a control character YAML does not allow; escape it in a double-quoted value", no);
    const indent = /^ */.exec(raw)?.[0].length ?? 0;
    return { no, indent, text: raw.slice(indent), raw };
  });
  return new Parser(lines).document();
}

const isBlank = (line: Line): boolean => /^[\t ]*$/.test(line.raw);
const isSkippable = (line: Line): boolean => isBlank(line) || line.text.startsWith("#");
const isSequenceItem = (text: string): boolean => /^-(?:[\t ]|$)/.test(text);

class Parser {
  #index = 0;
  readonly #lines: Line[];

  constructor(lines: Line[]) {
    this.#lines = lines;
  }

  document(): Record<string, unknown> {
    const first = this.#peek();
    if (first === undefined) return {};
    if (first.indent !== 0) throw new FrontmatterError("frontmatter keys start at the first column", first.no);
    if (first.text === "---" || first.text.startsWith("%")) throw new FrontmatterError("one YAML document without directives, please", first.no);
    if (isSequenceItem(first.text) || matchKey(first.text, first.no) === undefined)
      throw new FrontmatterError(`frontmatter must be a mapping of "key: value" lines`, first.no);
    const map = this.#mapping(0, 0);
    const extra = this.#peek();
    if (extra !== undefined) throw new FrontmatterError("unexpected content (check its indentation)", extra.no);
    return map;
  }

  /** The next line that is not blank or a comment, without consuming it. */
  #peek(): Line | undefined {
    while (this.#index < this.#lines.length && isSkippable(this.#lines[this.#index] as Line)) this.#index++;
    const line = this.#lines[this.#index];
    if (line !== undefined && line.raw[line.indent] === "\t") throw new FrontmatterError(TAB_INDENT, line.no);
    return line;
  }

  #mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH} levels`, this.#lines[this.#index]?.no);
    const map: Record<string, unknown> = {};
    for (let line = this.#peek(); line !== undefined && line.indent >= indent; line = this.#peek()) {
      if (line.indent > indent) throw new FrontmatterError("unexpected indentation", line.no);
      if (isSequenceItem(line.text)) break;
      const match = matchKey(line.text, line.no);
      if (match === undefined) throw new FrontmatterError(`expected "key: value"`, line.no);
      if (Object.hasOwn(map, match.key)) throw new FrontmatterError(`duplicate key "${match.key}"`, line.no);
      this.#index++;
      map[match.key] = this.#value(match.rest, line, indent, depth + 1, true);
    }
    return map;
  }

  #sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH} levels`, this.#lines[this.#index]?.no);
    const items: unknown[] = [];
    for (let line = this.#peek(); line !== undefined && line.indent >= indent; line = this.#peek()) {
      if (line.indent > indent) throw new FrontmatterError("unexpected indentation", line.no);
      if (!isSequenceItem(line.text)) break;
      const after = line.text.slice(1);
      const rest = trimStart(after);
      if (rest !== "" && !rest.startsWith("#") && (isSequenceItem(rest) || matchKey(rest, line.no) !== undefined)) {
        // "- key: value" or "- - item": a collection that starts on the item's own line.
        if (/^ *\t/.test(after)) throw new FrontmatterError(TAB_INDENT, line.no);
        const column = line.indent + 1 + (after.length - rest.length);
        this.#lines[this.#index] = { ...line, indent: column, text: rest };
        items.push(isSequenceItem(rest) ? this.#sequence(column, depth + 1) : this.#mapping(column, depth + 1));
        continue;
      }
      this.#index++;
      items.push(this.#value(rest, line, indent, depth + 1, false));
    }
    return items;
  }

  /** The value after "key:" or "-": `rest` is the remainder of that line, `parentIndent` the column of its key or dash. */
  #value(rest: string, line: Line, parentIndent: number, depth: number, compactSequence: boolean): unknown {
    if (rest === "" || rest.startsWith("#")) {
      const next = this.#peek();
      if (next !== undefined && next.indent > parentIndent) return this.#indented(parentIndent, depth);
      // "key:" followed by "- item" lines at the key's own column.
      if (compactSequence && next !== undefined && next.indent === parentIndent && isSequenceItem(next.text)) return this.#sequence(parentIndent, depth);
      return null;
    }
    const first = rest[0] as string;
    if (first === "|" || first === ">") return this.#blockScalar(rest, line, parentIndent);
    if (first === '"' || first === "'") {
      const { value, end } = readQuoted(rest, 0, line.no);
      expectOnlyComment(rest.slice(end), line.no);
      return value;
    }
    if (first === "[" || first === "{") {
      const { value, end } = readFlow(rest, 0, line.no, depth);
      expectOnlyComment(rest.slice(end), line.no);
      return value;
    }
    if ("&*!".includes(first)) throw new FrontmatterError("anchors, aliases and tags are not supported", line.no);
    if ("%@`,]}".includes(first)) throw new FrontmatterError(`a plain value cannot start with "${first}"; quote it`, line.no);
    if (isSequenceItem(rest) || /^[?:](?:[\t ]|$)/.test(rest)) throw new FrontmatterError("a nested collection must start on its own line", line.no);
    return this.#plain(rest, line, parentIndent);
  }

  /** A value that starts on the line after its key. */
  #indented(parentIndent: number, depth: number): unknown {
    const line = this.#peek() as Line;
    if (isSequenceItem(line.text)) return this.#sequence(line.indent, depth);
    if (matchKey(line.text, line.no) !== undefined) return this.#mapping(line.indent, depth);
    this.#index++;
    return this.#value(line.text, line, parentIndent, depth, false);
  }

  /** A plain scalar, possibly continued on more-indented lines (folded with spaces; blank lines are newlines). */
  #plain(first: string, line: Line, parentIndent: number): unknown {
    let value = stripComment(first);
    assertPlain(value, line.no);
    let commented = COMMENT.test(first);
    let blanks = 0;
    while (this.#index < this.#lines.length) {
      const next = this.#lines[this.#index] as Line;
      if (isBlank(next)) {
        blanks++;
        this.#index++;
        continue;
      }
      if (next.indent <= parentIndent || next.text.startsWith("#")) break;
      if (next.raw[next.indent] === "\t") throw new FrontmatterError(TAB_INDENT, next.no);
      if (commented) throw new FrontmatterError("a comment ends a plain value; quote a value that continues after it", next.no);
      const part = stripComment(trimStart(next.text));
      assertPlain(part, next.no);
      commented = COMMENT.test(next.text);
      value += blanks > 0 ? "\n".repeat(blanks) : " ";
      value += part;
      blanks = 0;
      this.#index++;
    }
    return resolvePlain(value, line.no);
  }

  /** `|` (literal) or `>` (folded), with optional `-` / `+` chomping; content is indented past the parent. */
  #blockScalar(header: string, line: Line, parentIndent: number): string {
    const match = /^([|>])([+-]?)(?:[\t ]+#.*)?[\t ]*$/.exec(header);
    if (match === null)
      throw new FrontmatterError(
        /^[|>][+-]?\d/.test(header) ? "block scalar indentation indicators are not supported" : "invalid block scalar header",
        line.no,
      );
    const contents: string[] = [];
    let contentIndent = -1;
    let leadingWidth = 0;
    while (this.#index < this.#lines.length) {
      const next = this.#lines[this.#index] as Line;
      const spacesOnly = next.indent === next.raw.length;
      if (contentIndent === -1 && !spacesOnly) {
        if (next.indent <= parentIndent) break;
        contentIndent = next.indent;
        if (leadingWidth > contentIndent) throw new FrontmatterError("a leading blank line is indented more than the block's content", next.no);
      }
      if (contentIndent !== -1 && next.indent >= contentIndent) contents.push(next.raw.slice(contentIndent));
      else if (spacesOnly) {
        if (contentIndent === -1) leadingWidth = Math.max(leadingWidth, next.indent);
        contents.push("");
      } else if (next.raw[next.indent] === "\t") throw new FrontmatterError(TAB_INDENT, next.no);
      else break;
      this.#index++;
    }
    if (contentIndent === -1) throw new FrontmatterError("a block scalar needs at least one line of content", line.no);
    return foldBlock(contents, match[1] === ">", match[2] ?? "");
  }
}

/** Joins block scalar lines (YAML 1.2 §8.1.2-8.1.3) and applies chomping. */
function foldBlock(contents: readonly string[], folded: boolean, chomp: string): string {
  let last = contents.length - 1;
  while (last >= 0 && contents[last] === "") last--;
  const lines = contents.slice(0, last + 1);
  const trailing = contents.length - lines.length;
  let text = "";
  if (!folded) text = lines.join("\n");
  else {
    // Breaks between two normal lines fold to a space (or to the newlines of the empty lines
    // between them); breaks next to a more-indented line are kept.
    let previous: "normal" | "spaced" | undefined;
    let empty = 0;
    for (const line of lines) {
      if (line === "") {
        empty++;
        continue;
      }
      const kind = line[0] === " " || line[0] === "\t" ? "spaced" : "normal";
      if (previous === undefined) text += "\n".repeat(empty);
      else if (previous === "normal" && kind === "normal") text += empty > 0 ? "\n".repeat(empty) : " ";
      else text += "\n".repeat(empty + 1);
      text += line;
      empty = 0;
      previous = kind;
    }
  }
  if (chomp === "-") return text;
  if (chomp === "+") return `${text}\n${"\n".repeat(trailing)}`;
  return `${text}\n`;
}

function matchKey(text: string, no: number): { key: string; rest: string } | undefined {
  const first = text[0];
  if (first === '"' || first === "'") {
    const { value, end } = readQuoted(text, 0, no);
    const after = text.slice(end);
    if (after !== ":" && !/^:[\t ]/.test(after)) return undefined;
    return { key: checkKey(value, no), rest: trimStart(after.slice(1)) };
  }
  if (first === "?" && /^\?(?:[\t ]|$)/.test(text)) throw new FrontmatterError(`complex keys ("?") are not supported`, no);
  if (first === undefined || "-?:,[]{}#&*!|>'\"%@`".includes(first)) return undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "#" && (text[index - 1] === " " || text[index - 1] === "\t")) return undefined;
    if (char !== ":") continue;
    const next = text[index + 1];
    if (next !== undefined && next !== " " && next !== "\t") continue;
    const key = trimEnd(text.slice(0, index));
    if (typeof resolvePlain(key, no) !== "string") throw new FrontmatterError(`key "${key}" must be a string; quote it`, no);
    return { key: checkKey(key, no), rest: trimStart(text.slice(index + 1)) };
  }
  return undefined;
}

function assertPlain(text: string, no: number): void {
  if (/:(?:[\t ]|$)/.test(text)) throw new FrontmatterError(`a plain value cannot contain ": " or end with ":"; quote the value`, no);
}

function stripComment(text: string): string {
  const match = COMMENT.exec(text);
  return trimEnd(match === null ? text : text.slice(0, match.index));
}

function expectOnlyComment(after: string, no: number): void {
  if (trimStart(after) === "" || /^[\t ]+#/.test(after)) return;
  throw new FrontmatterError("unexpected text after the value", no);
}
