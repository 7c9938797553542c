// Builds handler contexts for unit tests, with every field overridable.
import { ChangeHub } from "../../src/server/notifications/change-hub.ts";
import type { HandlerContext } from "../../src/server/context/handler-context.ts";
import type { InputChannel } from "../../src/server/inputs/input.ts";
import { createHandlerContext } from "../../src/server/context/create-handler-context.ts";
import type { TransportContext } from "../../src/server/context/transport.ts";
import { createStateSealer } from "../../src/server/state/request-state.ts";
import { admission } from "../admission.ts";

export interface TestContextOptions extends Partial<TransportContext> {
  channel?: InputChannel;
}

export function transportContext(overrides: Partial<TransportContext> = {}): TransportContext {
  return {
    era: "modern",
    protocolVersion: "2026-07-28",
    clientCapabilities: {},
    minLogRank: undefined,
    progressToken: undefined,
    signal: new AbortController().signal,
    notify: () => {},
    endpoint: { sealer: createStateSealer(), revisions: undefined, handleStore: undefined, quotaCounter: undefined },
    changes: new ChangeHub(),
    admission: admission("test"),
    ...overrides,
  };
}

/** A handler context whose notifications are pushed onto `notes`. */
export function handlerContext(notes: unknown[] = [], options: TestContextOptions = {}): HandlerContext {
  const { channel = { request: () => Promise.reject(new Error("no input channel in this test")) }, ...overrides } = options;
  return createHandlerContext(transportContext({ notify: (method, params) => notes.push({ method, params }), ...overrides }), channel);
}
