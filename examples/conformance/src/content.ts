/** Fixed bytes and small helpers shared by the conformance fixture's tools, resources and prompts. */

/** A 1×1 red PNG (70 bytes), base64. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A minimal RIFF/WAVE file (44 bytes, no samples), base64. */
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/** The PNG as bytes, for resources that return a Uint8Array (sent as a base64 blob). */
export const PNG_BYTES: Uint8Array = Uint8Array.from(atob(PNG_BASE64), (ch) => ch.charCodeAt(0));

/** Waits `ms`, or rejects as soon as the request is cancelled. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** An object schema with no properties: the tool takes no arguments. */
export const NO_ARGS = { type: "object", properties: {} } as const;

/** The text a client typed into a one-field elicitation form, if it accepted. */
export function acceptedField(answer: { action: string; content?: Record<string, unknown> }, field: string): string | undefined {
  if (answer.action !== "accept") return undefined;
  const value = answer.content?.[field];
  if (value === undefined) return undefined;
  // Form fields are strings, numbers, booleans or lists of strings (joined as String() would join them).
  if (Array.isArray(value)) return value.join(",");
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The text of a sampling answer (first text block). */
export function sampledText(answer: { content: unknown }): string {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  for (const block of blocks) {
    if (typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text") {
      const text = (block as { text?: unknown }).text;
      return typeof text === "string" ? text : "";
    }
  }
  return "";
}
