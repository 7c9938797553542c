/** Client-chosen text (a tool or method name, a request id, an error message) as spans and log lines copy it: bounded. */

/** The most characters of one client-chosen string that telemetry keeps (the marker included). */
export const TELEMETRY_TEXT_CHARS = 256;

/**
 * `value` when it is at most {@link TELEMETRY_TEXT_CHARS} characters, else its start and a marker
 * with its full length (`…[600000 chars]`). A 600 KB tool name must not become a 600 KB span
 * name, attribute and log line: the exporter's send window is shared by every tenant of the isolate.
 */
export function telemetryText(value: string): string {
  if (value.length <= TELEMETRY_TEXT_CHARS) return value;
  const marker = `…[${value.length} chars]`;
  let end = TELEMETRY_TEXT_CHARS - marker.length;
  // Never cut a surrogate pair in two (a lone surrogate is not text an exporter can encode).
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${value.slice(0, end)}${marker}`;
}
