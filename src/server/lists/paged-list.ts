/** A list result split into pages serialised once, with opaque cursors bound to the list. */

import { toBase64Url } from "../../core/bytes.ts";
import { DefinitionError } from "../../core/definition-error.ts";
import { invalidParams } from "../../core/errors.ts";
import type { Era } from "../context/handler-context.ts";

/** How a list is cut into pages. A page ends at whichever bound it reaches first. */
export interface PageBounds {
  /** Most items on one page (default: no bound by count). */
  pageSize?: number | undefined;
  /** Most bytes of items on one page (default {@link DEFAULT_PAGE_BYTES}); a single larger item gets a page of its own. */
  pageBytes?: number | undefined;
  /**
   * Most pages in the whole list (default {@link DEFAULT_MAX_PAGES}). When the bounds above would
   * need more, pages grow until they fit: clients that follow a bounded number of pages still
   * reach the end (`@modelcontextprotocol/client` 2.4.0 `listTools()` follows at most 64).
   */
  maxPages?: number | undefined;
}

export interface PagedListOptions extends PageBounds {
  /** JSON appended to every 2026-07-28 page (resultType, ttlMs, cacheScope, _meta), starting with a comma. */
  modernTail: string;
  /** Binds cursors to this list and its owner: a cursor minted elsewhere is refused. */
  scope: string;
}

/** 128 KiB of tools per page: a 10,000-tool catalogue of 500-byte tools is 40 pages. */
export const DEFAULT_PAGE_BYTES = 128 * 1024;
/** Half of the 64 pages the official v2 client follows: room for clients stricter than it. */
export const DEFAULT_MAX_PAGES = 32;

const encoder = new TextEncoder();

/** 32-bit FNV-1a, as 8 hex digits: a cheap fingerprint that makes cursors list-specific. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

function positive(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new DefinitionError(`${name} must be a positive integer`);
  return value;
}

/** Greedy cut: a page takes items while it stays within both bounds (a lone larger item gets its own page). */
function cut(lengths: readonly number[], pageSize: number, pageBytes: number): number[] {
  const starts = [0];
  let bytes = 0;
  let count = 0;
  for (let i = 0; i < lengths.length; i++) {
    const size = (lengths[i] as number) + 1;
    if (count > 0 && (count === pageSize || bytes + size > pageBytes)) {
      starts.push(i);
      bytes = 0;
      count = 0;
    }
    bytes += size;
    count++;
  }
  return starts;
}

/**
 * Where each page starts. Items are serialised JSON, ASCII or close to it, so string length
 * stands in for bytes. When the bounds would make more than `maxPages` pages, they give way: the
 * count bound first if it alone needs too many, then the byte bound grows to the least that fits
 * (greedy cutting is optimal and monotone in the bound, so a binary search finds it).
 */
export function pageStarts(lengths: readonly number[], bounds: PageBounds): number[] {
  let pageSize = positive(bounds.pageSize, "pageSize", Number.MAX_SAFE_INTEGER);
  const maxPages = positive(bounds.maxPages, "maxPages", DEFAULT_MAX_PAGES);
  const pageBytes = positive(bounds.pageBytes, "pageBytes", DEFAULT_PAGE_BYTES);
  const starts = cut(lengths, pageSize, pageBytes);
  if (starts.length <= maxPages) return starts;
  if (pageSize * maxPages < lengths.length) pageSize = Math.ceil(lengths.length / maxPages);
  let low = pageBytes;
  let high = lengths.reduce((sum, n) => sum + n + 1, 0);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (cut(lengths, pageSize, middle).length <= maxPages) high = middle;
    else low = middle + 1;
  }
  return cut(lengths, pageSize, low);
}

/**
 * A list served page by page. Each page's items are joined once, when the list is built; a page's
 * answer is that text with its cursor and the revision's tail around it (the same text serves both
 * revisions: the pieces are joined without copying, and the answer is copied once when it is sent).
 */
export class PagedList {
  readonly #method: string;
  readonly #cursors = new Map<string, number>();
  /** `{"tools":[…]` of each page, with its `nextCursor` member, without the closing brace. */
  readonly #pages: string[] = [];
  readonly #modernTail: string;

  /**
   * @param field the result member holding the items (`tools`, `prompts`, `resources`, …)
   * @param items each item already serialised as JSON
   * @param keys one stable identity per item (names, URIs), fingerprinted into the cursors
   */
  constructor(method: string, field: string, items: readonly string[], keys: readonly string[], options: PagedListOptions) {
    this.#method = method;
    this.#modernTail = `${options.modernTail}}`;
    const starts = pageStarts(
      items.map((item) => item.length),
      options,
    );
    const print = fingerprint(`${options.scope}\n${method}\n${starts.join(",")}\n${keys.join("\n")}`);
    const member = JSON.stringify(field);
    starts.forEach((start, page) => {
      let next = "";
      if (page + 1 < starts.length) {
        const cursor = toBase64Url(encoder.encode(`${print}:${page + 1}`));
        this.#cursors.set(cursor, page + 1);
        next = `,"nextCursor":${JSON.stringify(cursor)}`;
      }
      this.#pages.push(`{${member}:[${items.slice(start, starts[page + 1] ?? items.length).join(",")}]${next}`);
    });
  }

  /** How many pages the list has. */
  get pageCount(): number {
    return this.#pages.length;
  }

  /** The serialised result for a cursor (undefined = first page). Throws -32602 for a cursor this list did not mint. */
  page(cursor: unknown, era: Era): string {
    let index = 0;
    if (cursor !== undefined) {
      const found = typeof cursor === "string" ? this.#cursors.get(cursor) : undefined;
      if (found === undefined) {
        throw invalidParams(`Invalid cursor: use a nextCursor value from a previous ${this.#method} result, or omit the cursor for the first page`);
      }
      index = found;
    }
    const body = this.#pages[index] as string;
    return era === "modern" ? body + this.#modernTail : `${body}}`;
  }
}
