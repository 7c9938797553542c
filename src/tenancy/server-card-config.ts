/** A tenant's `serverCard` switch: `true`, or the card's own name, description, website and icons. */

import { isObject } from "../core/json.ts";
import type { Icon } from "../core/types.ts";

/** The validated `serverCard` of a tenant (every member optional; the server's info fills the rest). */
export interface TenantServerCard {
  name?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** Validates `serverCard`: undefined when off (`false`), `{}` for `true`; `fail` throws. */
export function parseServerCard(value: unknown, fail: (field: string, problem: string) => never): TenantServerCard | undefined {
  if (value === false) return undefined;
  if (value === true) return {};
  if (!isObject(value)) return fail("serverCard", "must be true, false or an object { name?, description?, websiteUrl?, icons? }");
  const { name, description, websiteUrl, icons, ...unknown } = value;
  for (const key of Object.keys(unknown)) fail(`serverCard.${key}`, "is not a known field (name, description, websiteUrl, icons)");
  const card: TenantServerCard = {};
  if (name !== undefined) {
    if (typeof name !== "string" || name.length > 200 || !NAME.test(name))
      fail("serverCard.name", "must be a reverse-DNS name with one slash, e.g. com.example/weather");
    card.name = name;
  }
  if (description !== undefined) {
    if (typeof description !== "string" || description.length < 1 || description.length > 100) fail("serverCard.description", "must be 1-100 characters");
    card.description = description;
  }
  if (websiteUrl !== undefined) {
    if (typeof websiteUrl !== "string" || !/^https?:\/\/\S+$/.test(websiteUrl)) fail("serverCard.websiteUrl", "must be an http(s) URL");
    card.websiteUrl = websiteUrl;
  }
  if (icons !== undefined) {
    const ok = Array.isArray(icons) && icons.every((icon) => isObject(icon) && typeof icon["src"] === "string");
    if (!ok) fail("serverCard.icons", "must be an array of { src, mimeType?, sizes?, theme? }");
    card.icons = icons as Icon[];
  }
  return card;
}
