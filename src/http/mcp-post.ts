/** The POST pipeline of the MCP endpoint: checks, parse, era, dispatch, JSON or SSE encoding. */

import { detectEra } from "../core/era.ts";
import { ErrorCode, ProtocolError, invalidRequest } from "../core/errors.ts";
import { jsonDepthExceeds, own } from "../core/json.ts";
import { classifyMessage, type InboundRequest } from "../core/jsonrpc.ts";
import type { JsonObject } from "../core/types.ts";
import { resolveTool } from "../server/call-tool.ts";
import type { TransportContext } from "../server/request-context.ts";
import type { StateSealer } from "../server/request-state.ts";
import type { McpServer } from "../server/server.ts";
import { logMessage } from "./debug-log.ts";
import { checkHeaderParams } from "./header-params.ts";
import { listen } from "./listen.ts";
import { readBody } from "./read-body.ts";
import { errorMessage, errorResponse, jsonResponse, resultMessage, toProtocolError } from "./responses.ts";
import { SseStream } from "./sse-stream.ts";

/** `auto`: JSON unless the handler sends notifications first; `sse`: always a stream; `json`: never. */
export type ResponseMode = "auto" | "json" | "sse";

export interface PostOptions {
  server: McpServer;
  sealer: StateSealer;
  maxBodyBytes: number;
  maxJsonDepth: number;
  responseMode: ResponseMode;
  debug: boolean;
}

const OWS = /^[ \t]+|[ \t]+$/g;

type Outcome = { ok: true; json: string } | { ok: false; error: ProtocolError };

function mediaTypes(header: string | null): string[] {
  if (header === null) return [];
  return header.split(",").map((part) => (part.split(";")[0] ?? "").trim().toLowerCase());
}

function checkAccept(request: Request): void {
  const types = mediaTypes(request.headers.get("accept"));
  const json = types.some((t) => t === "application/json" || t === "application/*" || t === "*/*");
  const sse = types.some((t) => t === "text/event-stream" || t === "text/*" || t === "*/*");
  if (!json || !sse) {
    throw new ProtocolError(ErrorCode.InvalidRequest, `Not Acceptable: the Accept header must list both application/json and text/event-stream`, { status: 406 });
  }
}

function checkContentType(request: Request): void {
  const header = request.headers.get("content-type");
  const [type = "", ...parameters] = (header ?? "").split(";").map((part) => part.trim().toLowerCase());
  const charset = parameters.find((p) => p.startsWith("charset="))?.slice("charset=".length).replaceAll('"', "");
  if (type !== "application/json" || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
    throw new ProtocolError(ErrorCode.InvalidRequest, `Unsupported Media Type: send the JSON-RPC message as application/json (UTF-8); received ${header === null ? "no Content-Type" : `'${header}'`}`, { status: 415 });
  }
}

function parse(text: string, maxDepth: number): unknown {
  if (jsonDepthExceeds(text, maxDepth)) throw invalidRequest(`The JSON body is nested deeper than the limit of ${maxDepth} levels`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message}` : "";
    throw new ProtocolError(ErrorCode.ParseError, `Parse error: the body is not valid JSON${detail}`, { status: 400 });
  }
}

/** Answers one POST to the MCP endpoint. Never throws: every failure is a JSON-RPC error response. */
export async function handlePost(request: Request, options: PostOptions): Promise<Response> {
  // Optional whitespace around a field value is not part of it (RFC 9110 §5.5); values that need
  // leading or trailing spaces travel base64-encoded (2026-07-28 "Value encoding").
  const header = (name: string): string | null => request.headers.get(name)?.replace(OWS, "") ?? null;
  let message;
  try {
    checkAccept(request);
    checkContentType(request);
    const text = await readBody(request, options.maxBodyBytes);
    if (options.debug) logMessage("in", text, request.headers);
    message = classifyMessage(parse(text, options.maxJsonDepth));
    if (message.kind === "response") {
      throw invalidRequest(`This server sent no request awaiting a response (no session): JSON-RPC responses are not accepted here`);
    }
    const info = detectEra(message, header);
    if (message.kind === "notification") return new Response(null, { status: 202 });

    const base: RequestBase = {
      era: info.era,
      protocolVersion: info.protocolVersion,
      clientCapabilities: info.era === "modern" ? info.clientCapabilities : {},
      // Legacy stateless requests cannot carry a level set earlier; info and above are sent.
      minLogRank: info.era === "modern" ? info.minLogRank : 1,
      progressToken: progressTokenOf(message),
      sealer: options.sealer,
      scope: "default",
    };
    if (info.era === "modern") {
      if (!options.server.hasMethod(message.method, info.era)) {
        throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`, { status: 404, requestId: message.id });
      }
      if (message.method === "subscriptions/listen") return listen(message, options.server, options.debug);
      if (message.method === "tools/call") {
        const tool = resolveTool(options.server.tools, message.params);
        checkHeaderParams(tool, message.params ? own(message.params, "arguments") : undefined, header, message.id);
      }
    }
    return await dispatch(request, message, base, options);
  } catch (error) {
    const protocolError = toProtocolError(error);
    if (options.debug) logMessage("out", errorMessage(protocolError, message?.kind === "request" ? message.id : undefined));
    return errorResponse(protocolError, message?.kind === "request" ? message.id : undefined);
  }
}

function progressTokenOf(message: InboundRequest): string | number | undefined {
  const meta = message.params ? own(message.params, "_meta") : undefined;
  if (typeof meta !== "object" || meta === null) return undefined;
  const token = own(meta as JsonObject, "progressToken");
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

type RequestBase = Omit<TransportContext, "signal" | "notify">;

async function dispatch(request: Request, message: InboundRequest, base: RequestBase, options: PostOptions): Promise<Response> {
  const abort = new AbortController();
  request.signal?.addEventListener("abort", () => abort.abort(request.signal.reason), { once: true });
  const out = (json: string): string => {
    if (options.debug) logMessage("out", json);
    return json;
  };

  let stream: SseStream | undefined;
  const buffered: string[] = [];
  let wake: () => void = () => {};
  const notified = new Promise<"stream">((resolve) => {
    wake = () => resolve("stream");
  });
  const ctx: TransportContext = {
    ...base,
    signal: abort.signal,
    notify:
      options.responseMode === "json"
        ? () => {}
        : (method, params) => {
            const json = out(JSON.stringify({ jsonrpc: "2.0", method, params }));
            if (stream) stream.send(json);
            else {
              buffered.push(json);
              wake();
            }
          },
  };

  const work: Promise<Outcome> = options.server.handle(message, ctx).then(
    (result) => ({ ok: true, json: out(resultMessage(message.id, result)) }),
    (error: unknown) => {
      const protocolError = toProtocolError(error);
      out(errorMessage(protocolError, message.id));
      return { ok: false, error: protocolError };
    },
  );

  if (options.responseMode !== "sse") {
    const first = await Promise.race([work.then(() => "done" as const), notified]);
    if (first === "done" && buffered.length === 0) {
      const outcome = await work;
      return outcome.ok ? jsonResponse(outcome.json) : jsonResponse(errorMessage(outcome.error, message.id), outcome.error.status);
    }
  }

  const sse = new SseStream(() => abort.abort(new DOMException("The client closed the response stream", "AbortError")));
  stream = sse;
  for (const json of buffered.splice(0)) sse.send(json);
  void work.then((outcome) => {
    sse.send(outcome.ok ? outcome.json : errorMessage(outcome.error, message.id));
    sse.close();
  });
  return sse.response;
}
