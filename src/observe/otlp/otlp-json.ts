/**
 * OTLP/HTTP JSON (ExportTraceServiceRequest) written by hand: a span becomes its JSON text once,
 * when it ends (recording-tracer.ts); the attribute keys and span names met before are escaped
 * once and kept.
 */

import { SpanStatusCode, type AttributeValue, type Attributes, type SpanStatus } from "@opentelemetry/api";

const json = JSON.stringify;

/** JSON text of the attribute keys and span names met so far (a small set, mostly fixed): each escaped once. */
const written = new Map<string, string>();
/** The cache's bounds: names can come from clients (a resource URI, a tool name), so it holds few and short ones. */
const MAX_WRITTEN = 512;
const MAX_WRITTEN_LENGTH = 128;

/** `text` as a JSON string: from the cache when met before. */
export function jsonText(text: string): string {
  let out = written.get(text);
  if (out === undefined) {
    out = json(text);
    if (written.size < MAX_WRITTEN && text.length <= MAX_WRITTEN_LENGTH) written.set(text, out);
  }
  return out;
}

function anyValue(value: AttributeValue): unknown {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
  return { arrayValue: { values: value.filter((item) => item !== null && item !== undefined).map((item) => anyValue(item as AttributeValue)) } };
}

/** An attribute value as OTLP JSON (AnyValue). */
export function anyValueJson(value: AttributeValue): string {
  // Values are escaped each time: many are new per request (ids, digests) and would crowd the cache out.
  if (typeof value === "string") return `{"stringValue":${json(value)}}`;
  if (typeof value === "number" && Number.isInteger(value)) return `{"intValue":${value}}`;
  if (typeof value === "boolean") return value ? `{"boolValue":true}` : `{"boolValue":false}`;
  return json(anyValue(value));
}

/**
 * Attributes whose values repeat from request to request (a tenant, a tool, a caller's digest):
 * each KeyValue met is written once and kept, per key (at most MAX_VALUES values each). Other
 * values (request ids, error messages) are written each time.
 */
const REPEATING = new Map<string, Map<string, string>>(
  [
    "edge_mcp.admission",
    "edge_mcp.caller",
    "edge_mcp.era",
    "edge_mcp.tenant",
    "edge_mcp.via",
    "error.type",
    "gen_ai.operation.name",
    "gen_ai.tool.name",
    "http.request.method",
    "mcp.method.name",
    "mcp.protocol.version",
    "mcp.session.id",
  ].map((key) => [key, new Map()]),
);
const MAX_VALUES = 64;

/** A span's attributes as the members of an OTLP JSON KeyValue list (without the brackets); unset ones are left out. */
export function attributesJson(attributes: Readonly<Attributes>): string {
  let out = "";
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined) continue;
    const values = typeof value === "string" ? REPEATING.get(key) : undefined;
    let member = values?.get(value as string);
    if (member === undefined) {
      member = `{"key":${jsonText(key)},"value":${anyValueJson(value)}}`;
      if (values && values.size < MAX_VALUES && (value as string).length <= MAX_WRITTEN_LENGTH) values.set(value as string, member);
    }
    out = out === "" ? member : `${out},${member}`;
  }
  return out;
}

/** Milliseconds since the epoch as OTLP's nanoseconds: a JSON string of the integer (microsecond precision, no BigInt). */
export function nanos(ms: number): string {
  // Workers' clock stands still while a request runs: a request's spans mostly share one time.
  if (ms !== lastMs) {
    lastMs = ms;
    lastNanos = `"${Math.round(ms * 1000)}000"`;
  }
  return lastNanos;
}
let lastMs = Number.NaN;
let lastNanos = "";

/** A span's status as OTLP JSON (an unset one is the empty object). */
export function statusJson(status: SpanStatus): string {
  if (status.code === SpanStatusCode.UNSET) return "{}";
  return status.message === undefined ? `{"code":${status.code}}` : `{"code":${status.code},"message":${json(status.message)}}`;
}

/** The OTLP JSON body (ExportTraceServiceRequest) of a service's spans: the text before the spans and after them. */
export function bodyEnds(serviceName: string): [before: string, after: string] {
  return [
    `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":${json(serviceName)}}}]},"scopeSpans":[{"scope":{"name":"edge-mcp"},"spans":[`,
    "]}]}]}",
  ];
}
