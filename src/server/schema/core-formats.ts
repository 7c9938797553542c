/**
 * The `format` assertions of the core validator (RFC 3339 dates and times, RFC 3986 URIs, RFC 5321
 * addresses, RFC 1123 host names, IP addresses, UUIDs), giving the answers the full validator
 * gives. A format outside this table and {@link FULL_ONLY_FORMATS} is an annotation.
 */

import { ipv4Octets, ipv6Groups } from "../../core/client-address.ts";

const DATE = /^(\d{4})-(\d\d)-(\d\d)$/;
const TIME = /^(\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:z|([+-])(\d\d):(\d\d))$/i;
const DATE_TIME = /^([^\sTt]*)[\sTt]([^\sTt]*)$/;
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOSTNAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`, "i");
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
/** The dotted IPv4 tail of an IPv6 address: four octets of 0 to 255, without leading zeros. */
const EMBEDDED_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
// RFC 3986 §3: scheme ":" hier-part ["?" query] ["#" fragment]; group 1 is an IP-literal's content.
const PCHAR = "(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})";
const REG_NAME = "(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*";
const USERINFO = "(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?";
const URI = new RegExp(
  `^[a-z][a-z0-9+\\-.]*:(?://${USERINFO}(?:\\[([^\\]]*)\\]|${REG_NAME})(?::\\d*)?(?:/${PCHAR}*)*|/(?:${PCHAR}+(?:/${PCHAR}*)*)?|${PCHAR}+(?:/${PCHAR}*)*)(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`,
  "i",
);
const IP_FUTURE = /^v[0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+$/i;
const EMAIL = /^("(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"|[a-z0-9.!#$%&'*+/=?^_`{|}~-]+)@(.+)$/i;

/** A calendar date (the proleptic Gregorian calendar's leap years): the day it names exists. */
function date(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  const named = new Date(0);
  named.setUTCFullYear(year, month - 1, day); // rolls over past the month's end: then it names another day
  return named.getUTCMonth() === month - 1 && named.getUTCDate() === day;
}

/** RFC 3339 full-time; a leap second (:60) only at 23:59 UTC. */
function time(text: string): boolean {
  const m = TIME.exec(text);
  if (!m) return false;
  const [hour, minute, second, offsetHour, offsetMinute] = [m[1], m[2], m[3], m[5] ?? "0", m[6] ?? "0"].map(Number) as [number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const sign = m[4] === "+" ? 1 : m[4] === "-" ? -1 : 0;
  return (hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute) + 1440) % 1440 === 1439;
}

function dateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  return m !== null && date(m[1] as string) && time(m[2] as string);
}

/** RFC 4291 §2.2 text forms (the client address parser's): eight groups, one `::` for one or more zero groups, an IPv4 tail. */
function ipv6(text: string): boolean {
  return (!text.includes(".") || EMBEDDED_IPV4.test(text.slice(text.lastIndexOf(":") + 1))) && ipv6Groups(text) !== undefined;
}

/** A dotted IPv4 address, leading zeros allowed. */
const ipv4 = (text: string): boolean => ipv4Octets(text) !== undefined;

function uri(text: string): boolean {
  const m = URI.exec(text);
  if (!m) return false;
  const literal = m[1];
  return literal === undefined || ipv6(literal) || IP_FUTURE.test(literal);
}

function email(text: string): boolean {
  const m = EMAIL.exec(text);
  if (!m) return false;
  const local = m[1] as string;
  const host = m[2] as string;
  if (local.length > 64 || host.length > 253) return false;
  if (local[0] !== '"' && (local.startsWith(".") || local.endsWith(".") || local.includes(".."))) return false;
  if (host.startsWith("[") && host.endsWith("]")) {
    const address = host.slice(1, -1);
    return /^ipv6:/i.test(address) ? ipv6(address.slice(5)) : ipv4(address);
  }
  return HOSTNAME.test(host);
}

/** The formats the core validator asserts, by name. */
export const CORE_FORMATS: ReadonlyMap<string, (text: string) => boolean> = new Map<string, (text: string) => boolean>([
  ["date", date],
  ["time", time],
  ["date-time", dateTime],
  ["email", email],
  ["hostname", (text) => HOSTNAME.test(text)],
  ["ipv4", ipv4],
  ["ipv6", ipv6],
  ["uri", uri],
  ["uuid", (text) => UUID.test(text)],
]);

/** Formats the full validator asserts and the core one does not: a schema using one needs `fullJsonSchema()`. */
export const FULL_ONLY_FORMATS: ReadonlySet<string> = new Set([
  "duration",
  "uri-reference",
  "uri-template",
  "url",
  "regex",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
]);
