/** OTLP/HTTP JSON export of finished spans (`POST {endpoint}/v1/traces`), per the standard OTEL_* variables. */

import { SpanStatusCode, type AttributeValue } from "@opentelemetry/api";
import type { FinishedSpan } from "./recording-tracer.ts";

/** Where spans go: the standard exporter variables, read once. */
export interface OtlpSettings {
  /** `{OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is. */
  readonly url: string;
  /** OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs, comma-separated, values URL-encoded. */
  readonly headers: Readonly<Record<string, string>>;
  /** OTEL_SERVICE_NAME (default `edge-mcp`). */
  readonly serviceName: string;
}

/** The variables the exporter reads (all optional: no endpoint, no export). */
export interface OtlpEnv {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_HEADERS?: string;
  OTEL_SERVICE_NAME?: string;
}

/** Reads the exporter settings; undefined when no endpoint is set. Headers that do not parse are skipped. */
export function otlpSettings(env: OtlpEnv): OtlpSettings | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = traces || (base ? `${base.replace(/\/+$/, "")}/v1/traces` : "");
  if (!url) return undefined;
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of (env.OTEL_EXPORTER_OTLP_HEADERS ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim()).toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A malformed %-escape: the header is left out rather than sent garbled.
    }
  }
  return { url, headers, serviceName: env.OTEL_SERVICE_NAME?.trim() || "edge-mcp" };
}

function anyValue(value: AttributeValue): unknown {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
  return { arrayValue: { values: value.filter((item) => item !== null && item !== undefined).map((item) => anyValue(item as AttributeValue)) } };
}

const json = JSON.stringify;
const nanos = (ms: number): string => `"${Math.round(ms * 1000)}000"`;

/** An attribute value as OTLP JSON (AnyValue). */
function anyValueJson(value: AttributeValue): string {
  if (typeof value === "string") return `{"stringValue":${json(value)}}`;
  if (typeof value === "number" && Number.isInteger(value)) return `{"intValue":${value}}`;
  if (typeof value === "boolean") return value ? `{"boolValue":true}` : `{"boolValue":false}`;
  return json(anyValue(value));
}

/** JSON text of the attribute keys and span names met so far (a small set, mostly fixed): each escaped once. */
const written = new Map<string, string>();
/** The cache's bounds: names can come from clients (a resource URI), so it holds few and short ones. */
const MAX_WRITTEN = 512;
const MAX_WRITTEN_LENGTH = 128;

/** `text` as JSON: from the cache when met before. */
function jsonText(text: string): string {
  let out = written.get(text);
  if (out === undefined) {
    out = json(text);
    if (written.size < MAX_WRITTEN && text.length <= MAX_WRITTEN_LENGTH) written.set(text, out);
  }
  return out;
}

function keyPrefix(key: string): string {
  return `{"key":${jsonText(key)},"value":`;
}

/** A span's attributes as OTLP JSON (KeyValue list), written directly: the export runs once per batch, over every span. */
function attributesJson(attributes: FinishedSpan["attributes"]): string {
  let out = "[";
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined) continue;
    out += `${out.length === 1 ? "" : ","}${keyPrefix(key)}${anyValueJson(value)}}`;
  }
  return `${out}]`;
}

function spanJson(span: FinishedSpan): string {
  const { context, status } = span;
  const parent = span.parentSpanId === undefined ? "" : `"parentSpanId":"${span.parentSpanId}",`;
  const state = context.traceState ? `"traceState":${json(context.traceState.serialize())},` : "";
  const statusJson =
    status.code === SpanStatusCode.UNSET ? "{}" : json({ code: status.code, ...(status.message === undefined ? {} : { message: status.message }) });
  // OTLP numbers kinds from 1 (internal); the API from 0.
  return (
    `{"traceId":"${context.traceId}","spanId":"${context.spanId}",${parent}${state}"name":${jsonText(span.name)},"kind":${span.kind + 1},` +
    `"startTimeUnixNano":${nanos(span.startMs)},"endTimeUnixNano":${nanos(span.endMs)},"attributes":${attributesJson(span.attributes)},"status":${statusJson}}`
  );
}

/** The OTLP JSON body (ExportTraceServiceRequest) of some spans. */
export function otlpBody(spans: readonly FinishedSpan[], serviceName: string): string {
  let out = "";
  for (const span of spans) out += `${out === "" ? "" : ","}${spanJson(span)}`;
  return (
    `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":${json(serviceName)}}}]},` +
    `"scopeSpans":[{"scope":{"name":"edge-mcp"},"spans":[${out}]}]}]}`
  );
}

/** Sends spans to the collector; a failure is logged once per export and never thrown. */
export async function exportSpans(settings: OtlpSettings, spans: readonly FinishedSpan[]): Promise<void> {
  if (spans.length === 0) return;
  try {
    const response = await fetch(settings.url, {
      method: "POST",
      headers: { ...settings.headers, "content-type": "application/json" },
      body: otlpBody(spans, settings.serviceName),
    });
    if (!response.ok) console.warn(`edge-mcp: OTLP export to ${new URL(settings.url).origin} answered ${response.status}`);
    await response.body?.cancel();
  } catch (error) {
    console.warn(`edge-mcp: OTLP export failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
