// A fetch for clients that must send a chosen Host header (Node's fetch refuses to): node:http under the hood.
import { request } from "node:http";
import { Readable } from "node:stream";

/** A fetch that sends every request to `target` (e.g. 127.0.0.1:PORT) with `Host: host`. */
export function fetchWithHost(host: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    headers.set("host", host);
    const body = init?.body === undefined || init.body === null ? undefined : typeof init.body === "string" ? init.body : await new Response(init.body).text();
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init?.method ?? "GET", headers: Object.fromEntries(headers) }, (res) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        const stream = [204, 205, 304].includes(res.statusCode ?? 0) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status: res.statusCode ?? 0, headers: responseHeaders }));
      });
      req.on("error", reject);
      init?.signal?.addEventListener("abort", () => req.destroy(new Error("aborted")), { once: true });
      req.end(body);
    });
  };
}
