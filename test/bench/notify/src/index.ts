/**
 * Bench notifications Worker: `announce {n}` publishes `notifications/resources/updated` for
 * `bench://change/<n>` through the tenant hub (MCP_NOTIFICATIONS). Bench-only routes:
 * - `GET /bench/stats`: open listen streams in this isolate and the hub's open subscriptions;
 * - `GET /bench/hub-subscribe?n=K`: K raw hub subscriptions held (and drained) while the client
 *   keeps the response open, to measure what one hub subscription costs the hub.
 * The var BENCH_HEARTBEAT_MS, when set, is the listen streams' heartbeat (ListenSettings).
 * See ../../README.md, "Notifications".
 */

import * as listenModule from "../../../../src/http/listen/listen.ts";
import { defineTool } from "../../../../src/index.ts";
import { createNotificationHub, createWorker, type McpEnv } from "../../../../src/workers/index.ts";

export { McpNotificationHub } from "../../../../src/workers/index.ts";

const announce = defineTool({
  name: "announce",
  description: "Announces that bench://change/<n> changed.",
  inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false },
  handler: (args, ctx) => {
    ctx.changes.resourceUpdated(`bench://change/${args["n"]}`);
    return "ok";
  },
});

type Env = McpEnv & { MCP_NOTIFICATIONS: DurableObjectNamespace; BENCH_HEARTBEAT_MS?: string };

const info = { name: "edge-mcp-bench-notify", version: "0.0.0" };
let worker: ReturnType<typeof createWorker<Env>> | undefined;
const workerFor = (env: Env) => {
  // Older builds have no `listen` option (it is ignored there).
  const heartbeatMs = env.BENCH_HEARTBEAT_MS ? Number(env.BENCH_HEARTBEAT_MS) : undefined;
  // Hundreds of listeners come from one anonymous caller here: the per-caller stream quota (16 by default) is lifted.
  const streams = { perPrincipal: 100_000, perTenant: 100_000, anonymous: 100_000 };
  if (worker === undefined) {
    worker = createWorker<Env>({ info, tools: [announce] }, { quotas: { streams }, ...(heartbeatMs === undefined ? {} : { listen: { heartbeatMs } }) });
    // The hub class is the one exported above; this hands its relay to the Worker.
    createNotificationHub(worker);
  }
  return worker;
};
// The single-tenant Worker's hub (shard 0) is named "default".
const hubOf = (env: Env) => env.MCP_NOTIFICATIONS.get(env.MCP_NOTIFICATIONS.idFromName("default"));

async function stats(env: Env): Promise<Response> {
  // Both are diagnostics that older builds lack: null then.
  const open = (listenModule as { openListenStreams?: () => number }).openListenStreams;
  const hub = hubOf(env) as unknown as { stats(): Promise<{ subscribers: number }> };
  const hubStats = await hub.stats().catch(() => null);
  return Response.json({ listeners: open ? open() : null, hubSubscribers: hubStats ? hubStats.subscribers : null });
}

function hubSubscribe(request: Request, env: Env, count: number): Response {
  const controller = new AbortController();
  let lines = 0;
  for (let i = 0; i < count; i++) {
    void (async () => {
      const response = await hubOf(env).fetch("https://hub.edge-mcp.internal/subscribe", { signal: controller.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const byte of value) if (byte === 10) lines++;
      }
    })().catch(() => {});
  }
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      stream.enqueue(new TextEncoder().encode(`subscribed ${count}\n`));
    },
    cancel: () => controller.abort(),
  });
  request.signal.addEventListener("abort", () => controller.abort());
  // Keeps the request from looking idle to workerd (which cancels requests with nothing pending).
  const timer = setInterval(() => void lines, 15_000);
  controller.signal.addEventListener("abort", () => clearInterval(timer));
  return new Response(body, { headers: { "content-type": "text/plain" } });
}

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/bench/stats") return stats(env);
    if (url.pathname === "/bench/hub-subscribe") return hubSubscribe(request, env, Number(url.searchParams.get("n") ?? "1"));
    const handler = workerFor(env);
    return handler.fetch(request as Parameters<NonNullable<typeof handler.fetch>>[0], env, ctx);
  },
} satisfies ExportedHandler<Env>;
