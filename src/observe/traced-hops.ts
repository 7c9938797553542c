/**
 * Hops out of the Worker as child spans: forwarding to a session object, calls to a task object,
 * publishing to the notifications hub. The objects receive the hop's trace context in the
 * admission, so what they run (a tool service, a server→client request) joins the same trace.
 */

import type { Attributes } from "@opentelemetry/api";
import type { Admission, TraceCarrier } from "../core/admission.ts";
import type { Hops } from "../http/observer.ts";
import type { SessionGateway } from "../http/sessions/session-gateway.ts";
import type { TaskGateway } from "../http/tasks/task-gateway.ts";

type ChangeRelay = NonNullable<Hops["relay"]>;

/** One hop's span, started by the request's observation. */
export interface Hop {
  /** The trace context of the hop's span: what the object it reaches runs under. */
  readonly trace: TraceCarrier;
  /** Ends the span: failed when `failure` is given (a thrown error, or the HTTP status of a refusal). */
  end(failure?: unknown, attributes?: Attributes): void;
}

/** Starts a hop's span, a child of the span the request runs in. */
export type StartHop = (name: string, attributes: Attributes) => Hop;

/** The endpoint with its sessions, tasks and relay traced (the rest shared). */
export function tracedHops<E extends Hops>(endpoint: E, start: StartHop): E {
  const { sessions, tasks, relay } = endpoint;
  return {
    ...endpoint,
    sessions: sessions && tracedSessions(sessions, start),
    tasks: tasks && tracedTasks(tasks, start),
    relay: relay && tracedRelay(relay, start),
  };
}

async function around<T>(hop: Hop, run: () => Promise<T>): Promise<T> {
  try {
    const value = await run();
    hop.end();
    return value;
  } catch (error) {
    hop.end(error);
    throw error;
  }
}

const carrying = (admission: Admission, hop: Hop): Admission => ({ ...admission, trace: hop.trace });

function tracedSessions(gateway: SessionGateway, start: StartHop): SessionGateway {
  return {
    mint: () => gateway.mint(),
    async forward(sessionId, request, body, admission, create) {
      const hop = start("edge_mcp.session.forward", { "edge_mcp.hop": "session", "http.request.method": request.method });
      try {
        const response = await gateway.forward(sessionId, request, body, carrying(admission, hop), create);
        const status = { "http.response.status_code": response.status };
        hop.end(response.status >= 400 ? response.status : undefined, status);
        return response;
      } catch (error) {
        hop.end(error);
        throw error;
      }
    },
  };
}

function tracedTasks(gateway: TaskGateway, start: StartHop): TaskGateway {
  const hop = (operation: string) => start(`edge_mcp.task.${operation}`, { "edge_mcp.hop": "task" });
  return {
    create(admission, task) {
      const span = hop("create");
      return around(span, () => gateway.create(carrying(admission, span), task));
    },
    get(admission, taskId) {
      const span = hop("get");
      return around(span, () => gateway.get(carrying(admission, span), taskId));
    },
    update(admission, taskId, responses) {
      const span = hop("update");
      return around(span, () => gateway.update(carrying(admission, span), taskId, responses));
    },
    cancel(admission, taskId) {
      const span = hop("cancel");
      return around(span, () => gateway.cancel(carrying(admission, span), taskId));
    },
  };
}

function tracedRelay(relay: ChangeRelay, start: StartHop): ChangeRelay {
  return {
    subscribe: (filter, sink) => relay.subscribe(filter, sink),
    publish(method, params) {
      const hop = start("edge_mcp.hub.publish", { "edge_mcp.hop": "hub", "mcp.method.name": method });
      return around(hop, () => relay.publish(method, params, hop.trace));
    },
  };
}
