import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { ProtocolError } from "../../../../src/core/errors.ts";
import { DEFAULT_MAX_PAGES, PagedList, pageStarts } from "../../../../src/server/lists/paged-list.ts";

const item = (i: number, bytes: number) => JSON.stringify({ name: `t${i}`, pad: "x".repeat(Math.max(0, bytes - 20)) });
const list = (items: string[], bounds: Record<string, number> = {}) =>
  new PagedList(
    "tools/list",
    "tools",
    items,
    items.map((_, i) => `t${i}`),
    { modernTail: ',"resultType":"complete"', scope: "s", ...bounds },
  );

/** Follows every page from the first, as a client does; returns the pages. */
function walk(paged: PagedList): { tools: { name: string }[]; nextCursor?: string }[] {
  const pages: { tools: { name: string }[]; nextCursor?: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = JSON.parse(paged.page(cursor, "legacy")) as { tools: { name: string }[]; nextCursor?: string };
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

describe("pages bounded by bytes", () => {
  it("ends a page before the item that would take it past pageBytes", () => {
    const items = Array.from({ length: 10 }, (_, i) => item(i, 100));
    const pages = walk(list(items, { pageBytes: 350 }));
    expect(pages.map((p) => p.tools.length)).toEqual([3, 3, 3, 1]);
    expect(pages.flatMap((p) => p.tools.map((t) => t.name))).toEqual(items.map((_, i) => `t${i}`));
  });

  it("gives an item larger than pageBytes a page of its own instead of dropping it", () => {
    const items = [item(0, 50), item(1, 5000), item(2, 50)];
    expect(walk(list(items, { pageBytes: 200 })).map((p) => p.tools.map((t) => t.name))).toEqual([["t0"], ["t1"], ["t2"]]);
  });

  it("bounds pages by pageSize and by pageBytes, whichever comes first", () => {
    const items = Array.from({ length: 7 }, (_, i) => item(i, 10));
    expect(walk(list(items, { pageSize: 2 })).map((p) => p.tools.length)).toEqual([2, 2, 2, 1]);
  });

  it("lets 10,000 tools of 500 bytes reach the end within the pages the official v2 client follows (64)", () => {
    const items = Array.from({ length: 10_000 }, (_, i) => item(i, 500));
    const pages = walk(list(items));
    expect(pages.length).toBeLessThanOrEqual(DEFAULT_MAX_PAGES);
    expect(pages.reduce((n, p) => n + p.tools.length, 0)).toBe(10_000);
  });

  it("grows pages past pageBytes and pageSize rather than make more than maxPages pages", () => {
    const lengths = Array.from({ length: 10_000 }, (_, i) => 200 + (i % 7) * 300);
    const starts = pageStarts(lengths, { pageBytes: 1024, pageSize: 10, maxPages: 20 });
    expect(starts.length).toBeLessThanOrEqual(20);
    expect(starts.length).toBeGreaterThan(15);
    expect(starts[0]).toBe(0);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  it("serves an empty list as one empty page", () => {
    expect(JSON.parse(list([]).page(undefined, "modern"))).toEqual({ tools: [], resultType: "complete" });
  });

  it("refuses a cursor of another cut of the same items", () => {
    const items = Array.from({ length: 10 }, (_, i) => item(i, 100));
    const cursor = walk(list(items, { pageBytes: 350 }))[0]?.nextCursor;
    expect(() => list(items, { pageBytes: 500 }).page(cursor, "legacy")).toThrow(ProtocolError);
  });

  it.each([{ pageBytes: 0 }, { pageSize: -1 }, { maxPages: 1.5 }])("refuses the bound %j at definition", (bounds) => {
    expect(() => list([item(0, 10)], bounds)).toThrow(DefinitionError);
  });
});
