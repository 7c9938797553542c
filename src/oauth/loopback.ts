/** Loopback hosts: where development servers run, and what production must never fetch. */

/** Whether a URL's hostname is a loopback name or address (`localhost`, 127.0.0.0/8, `[::1]`). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || host === "::1" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Whether a URL is on a loopback host; false for anything that does not parse. */
export function isLoopbackUrl(value: string): boolean {
  try {
    return isLoopbackHost(new URL(value).hostname);
  } catch {
    return false;
  }
}
