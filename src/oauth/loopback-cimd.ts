/**
 * Development switch: Client ID Metadata Documents served on a loopback host (a client under test
 * on this machine). workers-oauth-provider 1.2.3 fetches CIMD documents over https only; this
 * fetches a loopback one itself, checks it, and stores it for a few minutes as the library stores a
 * registered client (KV `client:<id>`, the library's internal layout: the version is pinned).
 * `createOAuthWorker` turns it on only for a loopback resource.
 */

import { readChunks } from "../http/admission/read-body.ts";
import { isLoopbackHost } from "./loopback.ts";

/** The largest document read (the CIMD draft suggests servers cap documents at 5 KB). */
const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
/** How long a fetched document stands in for the client (seconds; KV's minimum is 60). */
const CACHE_SECONDS = 300;

/** A refused document: why, for the log and the `error_description`. */
export class LoopbackCimdError extends Error {
  readonly code = "ERR_CIMD_DOCUMENT";
  constructor(message: string) {
    super(message);
    this.name = "LoopbackCimdError";
  }
}

/** Whether a client_id is a loopback CIMD URL: `http(s)://<loopback>/<non-empty path>`. */
export function isLoopbackClientId(clientId: string): boolean {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  return (
    (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname) && url.pathname !== "/" && url.hash === "" && url.username === ""
  );
}

async function readBounded(response: Response): Promise<string> {
  // A response body's chunks are bytes; the Workers types leave them `any`.
  const body = response.body as ReadableStream<Uint8Array> | null;
  if (body === null) return "";
  const bytes = await readChunks(
    body,
    MAX_DOCUMENT_BYTES,
    () => new LoopbackCimdError(`the client metadata document is larger than ${MAX_DOCUMENT_BYTES} bytes`),
  );
  return new TextDecoder().decode(bytes);
}

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined);

/** Fetches and checks a loopback client's document: its `client_id` must equal its URL, and it is a public client with redirect URIs. */
export async function fetchLoopbackClient(clientId: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(clientId, { headers: { accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw new LoopbackCimdError(`the client metadata document did not arrive within ${FETCH_TIMEOUT_MS} ms: ${error instanceof Error ? error.name : "error"}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new LoopbackCimdError(`the client metadata document answered HTTP ${response.status}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(await readBounded(response));
  } catch (error) {
    if (error instanceof LoopbackCimdError) throw error;
    throw new LoopbackCimdError("the client metadata document is not JSON");
  }
  if (typeof document !== "object" || document === null || Array.isArray(document))
    throw new LoopbackCimdError("the client metadata document is not a JSON object");
  const fields = document as Record<string, unknown>;
  if (fields["client_id"] !== clientId) throw new LoopbackCimdError("the client metadata document's client_id is not its URL");
  const redirectUris = strings(fields["redirect_uris"]);
  if (redirectUris === undefined || redirectUris.length === 0) throw new LoopbackCimdError("the client metadata document has no redirect_uris");
  const method = fields["token_endpoint_auth_method"] ?? "none";
  if (method !== "none") throw new LoopbackCimdError("a client metadata document client is public: token_endpoint_auth_method must be none");
  const name = fields["client_name"];
  return {
    clientId,
    redirectUris,
    ...(typeof name === "string" ? { clientName: name } : {}),
    grantTypes: strings(fields["grant_types"]) ?? ["authorization_code", "refresh_token"],
    responseTypes: strings(fields["response_types"]) ?? ["code"],
    registrationDate: Math.floor(Date.now() / 1000),
    tokenEndpointAuthMethod: "none",
    authMethodExplicit: true,
  };
}

/** The client_id a request to the authorization endpoint or the token endpoint names (query, or form body of a POST). */
export async function clientIdOf(request: Request, tokenPath: string, authorizePath = "/authorize"): Promise<string | undefined> {
  const url = new URL(request.url);
  if (request.method === "GET" && url.pathname === authorizePath) return url.searchParams.get("client_id") ?? undefined;
  if (request.method === "POST" && url.pathname === tokenPath) {
    const form = await request
      .clone()
      .formData()
      .catch(() => undefined);
    const id = form?.get("client_id");
    return typeof id === "string" ? id : undefined;
  }
  return undefined;
}

/**
 * Before the library sees a request naming a loopback CIMD client, loads its document into KV (for
 * a few minutes). A refused document answers `invalid_client` here, and nothing is stored.
 */
export async function loadLoopbackClient(request: Request, kv: KVNamespace, tokenPath: string): Promise<Response | undefined> {
  const clientId = await clientIdOf(request, tokenPath);
  if (clientId === undefined || !isLoopbackClientId(clientId)) return undefined;
  try {
    const record = await fetchLoopbackClient(clientId);
    await kv.put(`client:${clientId}`, JSON.stringify(record), { expirationTtl: CACHE_SECONDS });
    return undefined;
  } catch (error) {
    if (!(error instanceof LoopbackCimdError)) throw error;
    return invalidClient(error.message);
  }
}

/** The answer to a request naming a client whose document is refused (RFC 6749 §5.2 `invalid_client`). */
export function invalidClient(description: string): Response {
  const body = JSON.stringify({ error: "invalid_client", error_description: description });
  return new Response(body, { status: 400, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}
