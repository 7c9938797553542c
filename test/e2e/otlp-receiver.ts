// A local OTLP/HTTP JSON receiver for tests: collects the bodies POSTed to /v1/traces on 127.0.0.1.
import { createServer, type IncomingHttpHeaders } from "node:http";

/** A span as OTLP JSON carries it (the fields the tests read). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code?: number; message?: string };
}

export interface OtlpReceiver {
  readonly endpoint: string;
  /** Every span received so far, with its resource's service.name. */
  spans(): (OtlpSpan & { service: string })[];
  /** The headers of every export request. */
  headers(): IncomingHttpHeaders[];
  close(): Promise<void>;
}

interface ExportRequest {
  resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** Starts the receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: ExportRequest[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces" || !request.headers["content-type"]?.startsWith("application/json")) {
        response.writeHead(404).end();
        return;
      }
      headers.push(request.headers);
      bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportRequest);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    spans: () =>
      bodies.flatMap((body) =>
        body.resourceSpans.flatMap((resource) => {
          const service = resource.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "";
          return resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, service })));
        }),
      ),
    headers: () => headers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The value of a span attribute (string, int as number, bool, double). */
export function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  if ("intValue" in value) return Number(value["intValue"]);
  return value["stringValue"] ?? value["boolValue"] ?? value["doubleValue"];
}
