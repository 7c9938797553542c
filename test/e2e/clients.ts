// MCP clients for e2e tests: SDK v1 (2025-11-25, initialize handshake) and client v2 pinned to stateless 2026-07-28.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export type { LegacyClient, ModernClient };

/** The revision SDK v1 offers in `initialize`; the helper fails if the server negotiates another. */
export const LEGACY_PROTOCOL_VERSION = "2025-11-25";
/** The 2026-07-28 revision: no initialize, no session; every request carries its version in `_meta`. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

const CLIENT_VERSION = "0.0.0-e2e";

// No retries anywhere: a dropped SSE stream must fail the test, not be silently resumed.
const NO_RECONNECT = {
  maxRetries: 0,
  initialReconnectionDelay: 1_000,
  maxReconnectionDelay: 1_000,
  reconnectionDelayGrowFactor: 1,
};

/**
 * SDK v1 client after the 2025-11-25 `initialize` handshake (v1 offers its LATEST_PROTOCOL_VERSION, 2025-11-25).
 * `url` is the full endpoint, e.g. `${inject("baseUrlAuto")}/mcp`. Call `client.close()` when done.
 */
export interface ConnectOptions {
  /** A fetch to use instead of the global one (e.g. one that sets the Host header). */
  fetch?: typeof fetch;
  /** Extra headers on every request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** Client capabilities the v2 client declares (sent in every request's `_meta`). */
  capabilities?: Record<string, unknown>;
}

export async function connectLegacyClient(url: string | URL, options: ConnectOptions = {}): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "edge-mcp-e2e-legacy", version: CLIENT_VERSION });
  const transport = new LegacyTransport(new URL(url), {
    reconnectionOptions: NO_RECONNECT,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  });
  await client.connect(transport);
  if (transport.protocolVersion !== LEGACY_PROTOCOL_VERSION) {
    await client.close();
    throw new Error(`server negotiated ${transport.protocolVersion}, expected ${LEGACY_PROTOCOL_VERSION}`);
  }
  return client;
}

/**
 * Client v2 in the stateless 2026-07-28 era. v2 defaults to `versionNegotiation.mode: 'legacy'` (plain
 * 2025 initialize); pinning `{ pin: "2026-07-28" }` makes `connect()` send `server/discover` instead and
 * fail loudly unless the server offers exactly that revision (no fallback to initialize). After that the
 * client attaches the protocol-version/client-info/capabilities `_meta` envelope to every request, and each
 * POST carries `MCP-Protocol-Version: 2026-07-28` and `Mcp-Method: <method>` headers (no session id).
 * `client.getProtocolEra()` is then "modern". Call `client.close()` when done.
 */
export async function connectModernClient(url: string | URL, options: ConnectOptions = {}): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "edge-mcp-e2e-modern", version: CLIENT_VERSION },
    {
      versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION }, probe: { maxRetries: 0 } },
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    },
  );
  const transport = new ModernTransport(new URL(url), {
    reconnectionOptions: NO_RECONNECT,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  });
  await client.connect(transport);
  return client;
}

/**
 * A fetch that keeps a copy of every tool call's answer in `seen` (never of the GET stream, which
 * does not end), for tests that look at the HTTP status and headers behind a client's error.
 */
export function capturingToolCalls(): { fetch: typeof fetch; seen: Response[] } {
  const seen: Response[] = [];
  const capture: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (typeof init?.body === "string" && init.body.includes('"tools/call"')) seen.push(response.clone());
    return response;
  };
  return { fetch: capture, seen };
}
