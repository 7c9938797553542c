// Every relative link of README.md, CHANGELOG.md and docs/ reaches a file, and a #fragment a heading of it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The markdown files a reader starts from: README.md, CHANGELOG.md and every guide of docs/. */
function docs(): string[] {
  return [
    "README.md",
    "CHANGELOG.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
}

/** The text outside fenced code blocks. */
const prose = (markdown: string) => markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, "");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");

function anchors(file: string): Set<string> {
  return new Set([...prose(readFileSync(file, "utf8")).matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1] ?? "")));
}

describe("links between the docs", () => {
  it.each(docs())("%s links only to files and headings that exist", (doc) => {
    const broken: string[] = [];
    for (const [, url = ""] of prose(readFileSync(join(ROOT, doc), "utf8")).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(url)) continue;
      const [path = "", fragment] = url.split("#");
      const target = path ? normalize(join(dirname(join(ROOT, doc)), path)) : join(ROOT, doc);
      if (!existsSync(target)) broken.push(`${url}: no such file`);
      else if (fragment && target.endsWith(".md") && !anchors(target).has(fragment)) broken.push(`${url}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
