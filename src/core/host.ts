/** The host name a request was addressed to (from `Host`), as host allowlists and tenant routing compare it. */

/** The host name of a `Host` header value, lower-cased, without the port; IPv6 keeps its brackets. */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.indexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

/** The request's `Host` header, or the host of its URL when the header is absent. */
export function requestHost(request: Request, headers: Headers = request.headers): string {
  return headers.get("host") ?? new URL(request.url).host;
}
