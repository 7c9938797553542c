/** The HTML page of a usage report: calls and errors per hour, top tools or callers, as inline SVG (no script). */

import { HOUR_MS, type UsageReport } from "./usage-report.ts";

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text: string): string => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

const WIDTH = 720;
const HEIGHT = 180;

/** Every hour of the range, those without traffic at zero (so the chart's x axis is time). */
function everyHour(report: UsageReport): { hour: string; calls: number; errors: number }[] {
  const byHour = new Map(report.hours.map((h) => [h.hour, h]));
  const hours: { hour: string; calls: number; errors: number }[] = [];
  for (let at = Date.parse(report.from); at < Date.parse(report.to); at += HOUR_MS) {
    const hour = new Date(at).toISOString();
    hours.push(byHour.get(hour) ?? { hour, calls: 0, errors: 0 });
  }
  return hours;
}

/** Bars of calls (and errors in red over them) per hour of the range. */
function hourChart(report: UsageReport): string {
  if (report.hours.length === 0) return `<p class="empty">No calls in this range.</p>`;
  const hours = everyHour(report);
  const max = Math.max(...hours.map((h) => h.calls), 1);
  const step = WIDTH / hours.length;
  const bar = Math.max(step - 2, 1);
  const bars = hours
    .map((h, i) => {
      const x = (i * step).toFixed(1);
      const calls = (h.calls / max) * (HEIGHT - 20);
      const errors = (h.errors / max) * (HEIGHT - 20);
      return (
        `<g><title>${escape(h.hour)}: ${h.calls} calls, ${h.errors} errors</title>` +
        `<rect class="calls" x="${x}" y="${(HEIGHT - calls).toFixed(1)}" width="${bar.toFixed(1)}" height="${calls.toFixed(1)}"/>` +
        `<rect class="errors" x="${x}" y="${(HEIGHT - errors).toFixed(1)}" width="${bar.toFixed(1)}" height="${errors.toFixed(1)}"/></g>`
      );
    })
    .join("");
  const axis = `<text x="2" y="${HEIGHT + 14}">${escape(hours[0]?.hour.slice(0, 13) ?? "")}h</text><text x="${WIDTH}" y="${HEIGHT + 14}" text-anchor="end">${escape(hours.at(-1)?.hour.slice(0, 13) ?? "")}h</text>`;
  return `<svg role="img" aria-label="calls and errors per hour" viewBox="0 0 ${WIDTH} ${HEIGHT + 20}" width="${WIDTH}" height="${HEIGHT + 20}">${bars}<text x="2" y="12">max ${max}/h</text>${axis}</svg>`;
}

/** Horizontal bars of the top rows (tools or callers). */
function topChart(report: UsageReport, limit = 10): string {
  const rows = report.rows.slice(0, limit);
  if (rows.length === 0) return `<p class="empty">Nothing to show.</p>`;
  const max = Math.max(...rows.map((r) => r.calls), 1);
  const line = 22;
  const bars = rows
    .map((r, i) => {
      const width = (r.calls / max) * (WIDTH - 260);
      const y = i * line;
      return (
        `<g class="row"><text x="0" y="${y + 15}">${escape(r.key || "(none)")}</text>` +
        `<rect class="calls" x="200" y="${y + 3}" width="${width.toFixed(1)}" height="${line - 6}"/>` +
        `<text x="${(206 + width).toFixed(1)}" y="${y + 15}">${r.calls} (${r.errors} err)</text></g>`
      );
    })
    .join("");
  return `<svg role="img" aria-label="top ${escape(report.by)}s" viewBox="0 0 ${WIDTH} ${rows.length * line}" width="${WIDTH}" height="${rows.length * line}">${bars}</svg>`;
}

/** Renders the page from the report by tool and the report by caller (every value escaped; the page runs no script). */
export function renderUsagePage(report: UsageReport, callers: UsageReport): string {
  const errorRate = report.total.calls === 0 ? 0 : (100 * report.total.errors) / report.total.calls;
  const mean = report.total.calls === 0 ? 0 : report.total.durationMs / report.total.calls;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Usage of ${escape(report.tenant)}</title><style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:24px}
.calls{fill:#3b82f6}.errors{fill:#dc2626}svg text{font-size:12px;fill:#222}.empty{color:#666}
dl{display:grid;grid-template-columns:max-content max-content;gap:4px 16px}dt{color:#666}
</style></head><body>
<h1>Usage of tenant <span id="tenant">${escape(report.tenant)}</span></h1>
<p>${escape(report.from)} to ${escape(report.to)}</p>
<dl><dt>Calls</dt><dd id="calls">${report.total.calls}</dd><dt>Errors</dt><dd id="errors">${report.total.errors}</dd>
<dt>Error rate</dt><dd>${errorRate.toFixed(1)}%</dd><dt>Mean duration</dt><dd>${mean.toFixed(1)} ms</dd></dl>
<h2>Calls and errors per hour</h2>${hourChart(report)}
<h2>Top tools</h2><div id="tools">${topChart(report)}</div>
<h2>Top callers</h2><div id="callers">${topChart(callers)}</div>
</body></html>`;
}
