/** A list result split into pages serialised once, with opaque cursors bound to the list. */

import { toBase64Url } from "../core/bytes.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { invalidParams } from "../core/errors.ts";
import type { Era } from "./handler-context.ts";

export interface PagedListOptions {
  /** Items per page. */
  pageSize: number;
  /** JSON appended to every 2026-07-28 page (resultType, ttlMs, cacheScope, _meta), starting with a comma. */
  modernTail: string;
  /** Binds cursors to this list and its owner: a cursor minted elsewhere is refused. */
  scope: string;
}

/** 32-bit FNV-1a, as 8 hex digits: a cheap fingerprint that makes cursors list-specific. */
const encoder = new TextEncoder();

function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export class PagedList {
  readonly #legacyPages: string[] = [];
  readonly #modernPages: string[] = [];
  readonly #cursors = new Map<string, number>();
  readonly #method: string;

  /**
   * @param field the result member holding the items (`tools`, `prompts`, `resources`, …)
   * @param items each item already serialised as JSON
   * @param keys one stable identity per item (names, URIs), fingerprinted into the cursors
   */
  constructor(method: string, field: string, items: readonly string[], keys: readonly string[], options: PagedListOptions) {
    if (!Number.isSafeInteger(options.pageSize) || options.pageSize < 1) throw new DefinitionError(`pageSize must be a positive integer`);
    this.#method = method;
    const print = fingerprint(`${options.scope}\n${method}\n${options.pageSize}\n${keys.join("\n")}`);
    const pageCount = Math.max(1, Math.ceil(items.length / options.pageSize));
    for (let page = 0; page < pageCount; page++) {
      const body = `${JSON.stringify(field)}:[${items.slice(page * options.pageSize, (page + 1) * options.pageSize).join(",")}]`;
      let next = "";
      if (page + 1 < pageCount) {
        const cursor = toBase64Url(encoder.encode(`${print}:${page + 1}`));
        this.#cursors.set(cursor, page + 1);
        next = `,"nextCursor":${JSON.stringify(cursor)}`;
      }
      this.#legacyPages.push(`{${body}${next}}`);
      this.#modernPages.push(`{${body}${next}${options.modernTail}}`);
    }
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
    return (era === "modern" ? this.#modernPages : this.#legacyPages)[index] as string;
  }
}
