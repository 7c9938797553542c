// Builds handler contexts for unit tests, with every field overridable.
import { ChangeHub, type ChangeFeed } from "../../src/server/change-hub.ts";
import type { HandlerContext } from "../../src/server/handler-context.ts";
import type { InputChannel } from "../../src/server/input.ts";
import { createHandlerContext, type TransportContext } from "../../src/server/request-context.ts";
import { createStateSealer } from "../../src/server/request-state.ts";
import { admission } from "../admission.ts";

export interface TestContextOptions extends Partial<TransportContext> {
  changes?: ChangeFeed;
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
    sealer: createStateSealer(),
    admission: admission("test"),
    ...overrides,
  };
}

/** A handler context whose notifications are pushed onto `notes`. */
export function handlerContext(notes: unknown[] = [], options: TestContextOptions = {}): HandlerContext {
  const { changes = new ChangeHub(), channel = { request: () => Promise.reject(new Error("no input channel in this test")) }, ...overrides } = options;
  return createHandlerContext(transportContext({ notify: (method, params) => notes.push({ method, params }), ...overrides }), changes, channel);
}
