// Builds handler contexts for unit tests, with every field overridable.
import { ChangeHub } from "../../src/server/change-hub.ts";
import type { HandlerContext } from "../../src/server/handler-context.ts";
import { createHandlerContext, type RequestContext } from "../../src/server/request-context.ts";
import { createStateSealer } from "../../src/server/request-state.ts";

export function requestContext(overrides: Partial<RequestContext> = {}): RequestContext {
  return {
    era: "modern",
    protocolVersion: "2026-07-28",
    clientCapabilities: {},
    minLogRank: undefined,
    progressToken: undefined,
    signal: new AbortController().signal,
    notify: () => {},
    sealer: createStateSealer(),
    scope: "test",
    changes: new ChangeHub(),
    inputs: {
      request: () => Promise.reject(new Error("no input channel in this test")),
    },
    ...overrides,
  };
}

/** A handler context whose notifications are pushed onto `notes`. */
export function handlerContext(notes: unknown[] = [], overrides: Partial<RequestContext> = {}): HandlerContext {
  return createHandlerContext(requestContext({ notify: (method, params) => notes.push({ method, params }), ...overrides }));
}
