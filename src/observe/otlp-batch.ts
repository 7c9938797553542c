/**
 * The spans of an isolate's requests, exported together: the first request with spans to send
 * opens a short window and sends what the requests of that window finished, in one OTLP request,
 * under its own `waitUntil`; later requests only add theirs. One export per window instead of one
 * per request (an export costs several times the CPU of the request it describes).
 */

import { exportSpans, type OtlpSettings } from "./otlp-export.ts";
import type { FinishedSpan } from "./recording-tracer.ts";
import { SendWindow } from "./send-window.ts";

/**
 * How long a window stays open: spans reach the collector at most this much later. An export
 * costs about as much as one or two calls, whatever it carries (counted with callgrind: a 2 s
 * window took 57k instructions a call off a 100 ms one, with ~10 calls per 100 ms); a second
 * amortises it over up to MAX_BATCH_SPANS (OpenTelemetry's batch processor waits 5 s by default).
 */
export const EXPORT_WINDOW_MS = 1000;
/** A window holding this many spans is sent at once. */
export const MAX_BATCH_SPANS = 512;

/** What {@link SpanBatch.add} answers when the request has nothing to wait for (another request sends its spans). */
export const NOTHING_TO_WAIT: Promise<void> = Promise.resolve();

export class SpanBatch {
  readonly #settings: OtlpSettings;
  #pending: FinishedSpan[] = [];
  readonly #window = new SendWindow(EXPORT_WINDOW_MS, () => this.#send());

  constructor(settings: OtlpSettings) {
    this.#settings = settings;
  }

  /**
   * Adds a request's spans. Resolves once they are sent when this request opened the window or
   * filled it (its `waitUntil` holds the export), else at once: the request that opened the
   * window sends them (no request waits on another's promise).
   */
  add(spans: readonly FinishedSpan[]): Promise<void> {
    if (spans.length === 0) return NOTHING_TO_WAIT;
    for (const span of spans) this.#pending.push(span);
    return this.#window.added(this.#pending.length >= MAX_BATCH_SPANS) ?? NOTHING_TO_WAIT;
  }

  #send(): Promise<void> {
    const spans = this.#pending;
    this.#pending = [];
    return exportSpans(this.#settings, spans);
  }
}
