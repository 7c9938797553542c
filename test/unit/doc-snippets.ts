// Extracts the TypeScript snippets of markdown files and type-checks them against the sources, as a user's files.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The line before a ```ts fence that leaves the snippet out of the check (say why after it). */
export const SKIP_MARKER = "<!-- snippet: not checked";

export interface Snippet {
  /** The markdown file, relative to the repository. */
  doc: string;
  /** The 1-based line of the snippet's first line of code in the markdown file. */
  line: number;
  code: string;
}

/** The ```ts (or ```typescript) blocks of a markdown text, except those after {@link SKIP_MARKER}. */
export function extractSnippets(doc: string, markdown: string): Snippet[] {
  const lines = markdown.split("\n");
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript)\s*$/.exec(lines[i] ?? "");
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const body: string[] = [];
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end] ?? "")) body.push((lines[end++] ?? "").slice(indent));
    let before = i - 1;
    while (before >= 0 && (lines[before] ?? "").trim() === "") before--;
    if (!(lines[before] ?? "").trim().startsWith(SKIP_MARKER)) snippets.push({ doc, line: i + 2, code: `${body.join("\n")}\n` });
    i = end;
  }
  return snippets;
}

/** One compiler error, placed in its markdown file. */
export interface SnippetError {
  doc: string;
  line: number;
  message: string;
}

/**
 * Writes each snippet as a module of its own into a directory under `root` (so that packages resolve
 * from the repository's node_modules), with a tsconfig that extends the repository's: `edge-mcp`
 * and `edge-mcp/workers` mean the sources, as in a project that installed the package. Runs tsc once
 * over all of them; returns the errors, each at its line in the markdown file.
 */
export function typeCheckSnippets(root: string, snippets: Snippet[]): SnippetError[] {
  mkdirSync(join(root, "node_modules/.cache"), { recursive: true });
  const dir = mkdtempSync(join(root, "node_modules/.cache/doc-snippets-"));
  try {
    const files = new Map<string, Snippet>();
    snippets.forEach((snippet, n) => {
      const file = `snippet-${n}.ts`;
      files.set(file, snippet);
      writeFileSync(join(dir, file), snippet.code);
    });
    // Skills kept as .md files are imported as text (a wrangler [[rules]] Text rule); their type is the user's to declare.
    writeFileSync(join(dir, "markdown.d.ts"), 'declare module "*.md" {\n  const text: string;\n  export default text;\n}\n');
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: relative(dir, join(root, "tsconfig.json")),
        // Every snippet is a module of its own, even one without imports.
        compilerOptions: { moduleDetection: "force", noEmit: true },
        include: ["./*.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", dir, "--pretty", "false"], { encoding: "utf8" });
    if (tsc.error) throw tsc.error;
    const errors: SnippetError[] = [];
    for (const line of tsc.stdout.split("\n")) {
      const match = /^(?:.*[\\/])?(snippet-\d+\.ts)\((\d+),\d+\): (error .*)$/.exec(line);
      if (match?.[1] && match[2] && match[3]) {
        const snippet = files.get(match[1]);
        if (snippet) errors.push({ doc: snippet.doc, line: snippet.line + Number(match[2]) - 1, message: match[3] });
      } else if (/error TS/.test(line)) errors.push({ doc: "(tsc)", line: 0, message: line });
    }
    if (tsc.status !== 0 && errors.length === 0) errors.push({ doc: "(tsc)", line: 0, message: `tsc exited ${tsc.status}: ${tsc.stdout}${tsc.stderr}` });
    return errors;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
