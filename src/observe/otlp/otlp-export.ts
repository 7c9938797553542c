/** OTLP/HTTP JSON export of finished spans (`POST {endpoint}/v1/traces`), per the standard OTEL_* variables. */

/** Where spans go: the standard exporter variables, read once. */
export interface OtlpSettings {
  /** `{OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is. */
  readonly url: string;
  /** OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs, comma-separated, values URL-encoded. */
  readonly headers: Readonly<Record<string, string>>;
  /** OTEL_SERVICE_NAME (default `edge-mcp`). */
  readonly serviceName: string;
  /**
   * Head sampling, parent-based: a request whose client sent a trace context follows its sampled
   * flag, any other is recorded at this ratio (OTEL_TRACES_SAMPLER=parentbased_traceidratio with
   * OTEL_TRACES_SAMPLER_ARG). Undefined (no sampler set): every request is recorded.
   */
  readonly sampleRatio: number | undefined;
}

/** The variables the exporter reads (all optional: no endpoint, no export). */
export interface OtlpEnv {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_HEADERS?: string;
  OTEL_SERVICE_NAME?: string;
  OTEL_TRACES_SAMPLER?: string;
  OTEL_TRACES_SAMPLER_ARG?: string;
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
  return { url, headers, serviceName: env.OTEL_SERVICE_NAME?.trim() || "edge-mcp", sampleRatio: sampleRatio(env) };
}

/**
 * The sampler's ratio from the standard variables, always parent-based: `parentbased_traceidratio` (and
 * `traceidratio`, taken as it) with OTEL_TRACES_SAMPLER_ARG in [0, 1] (default 1), `parentbased_always_on` 1,
 * `parentbased_always_off` and `always_off` 0. No sampler, `always_on` or another name: undefined (every request).
 */
function sampleRatio(env: OtlpEnv): number | undefined {
  const sampler = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase();
  if (sampler === "parentbased_always_off" || sampler === "always_off") return 0;
  if (sampler === "parentbased_always_on") return 1;
  if (sampler !== "parentbased_traceidratio" && sampler !== "traceidratio") return undefined;
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim() || "1";
  const ratio = Number(arg);
  if (!(ratio >= 0 && ratio <= 1)) {
    console.warn(`edge-mcp: OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got '${arg}'; every request is traced`);
    return undefined;
  }
  return ratio;
}

/** Sends an OTLP JSON body (UTF-8) to the collector; a failure is logged once per export and never thrown. */
export async function exportSpans(settings: OtlpSettings, body: Uint8Array): Promise<void> {
  try {
    const response = await fetch(settings.url, {
      method: "POST",
      headers: { ...settings.headers, "content-type": "application/json" },
      body,
    });
    if (!response.ok) console.warn(`edge-mcp: OTLP export to ${new URL(settings.url).origin} answered ${response.status}`);
    await response.body?.cancel();
  } catch (error) {
    console.warn(`edge-mcp: OTLP export failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
