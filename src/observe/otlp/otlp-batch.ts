/**
 * The spans of an isolate's requests, exported together: the first request with spans to send
 * opens a short window and sends what the requests of that window finished, in one OTLP request,
 * under its own `waitUntil`; later requests only add theirs. One export per window instead of one
 * per request (an export costs several times the CPU of the request it describes).
 */

import { exportSpans, type OtlpSettings } from "./otlp-export.ts";
import { bodyEnds } from "./otlp-json.ts";
import { SpanBytes } from "./otlp-bytes.ts";
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
/** A window holding this many bytes of spans is sent at once (spans with long attributes). */
export const MAX_BATCH_BYTES = 1024 * 1024;

/** What {@link SpanBatch.add} answers when the request has nothing to wait for (another request sends its spans). */
export const NOTHING_TO_WAIT: Promise<void> = Promise.resolve();

export class SpanBatch {
  readonly #settings: OtlpSettings;
  readonly #pending: SpanBytes;
  readonly #window = new SendWindow(EXPORT_WINDOW_MS, () => this.#send());

  constructor(settings: OtlpSettings) {
    this.#settings = settings;
    this.#pending = new SpanBytes(...bodyEnds(settings.serviceName));
  }

  /**
   * Adds a request's spans. Resolves once they are sent when this request opened the window or
   * filled it (its `waitUntil` holds the export), else at once: the request that opened the
   * window sends them (no request waits on another's promise).
   */
  add(spans: readonly string[]): Promise<void> {
    if (spans.length === 0) return NOTHING_TO_WAIT;
    const pending = this.#pending;
    pending.add(spans);
    return this.#window.added(pending.count >= MAX_BATCH_SPANS || pending.size >= MAX_BATCH_BYTES) ?? NOTHING_TO_WAIT;
  }

  #send(): Promise<void> {
    if (this.#pending.count === 0) return Promise.resolve();
    // The body is a view of the batch's buffer: exportSpans passes it to fetch at once, which copies it.
    return exportSpans(this.#settings, this.#pending.take());
  }
}
