/**
 * A Worker whose definitions are wrong, under development: it loads, logs the error and its fix,
 * and answers every request with it until the file is fixed (wrangler dev reloads it), instead of
 * stopping workerd. Outside development the error is thrown at load, so `wrangler deploy` refuses
 * the Worker.
 */

import { env as loadEnv } from "cloudflare:workers";
import { DefinitionError } from "../core/definition-error.ts";
import { misconfigured } from "../core/missing-bindings.ts";
import { errorResponse } from "../http/responses.ts";
import { envFlag, type McpEnv, type McpWorker } from "./env.ts";

/** Marks the Worker made in place of one whose definitions are wrong, with the error it answers. */
const FAILED = Symbol("edge-mcp.definitionFailure");

/** The definition error a Worker made by {@link loadOrAnswer} answers with, if it is one. */
export function definitionFailureOf(value: unknown): DefinitionError | undefined {
  return typeof value === "object" && value !== null && FAILED in value ? (value as { [FAILED]: DefinitionError })[FAILED] : undefined;
}

/** True when the Worker loads under development: `development` if given, else the MCP_DEV var of the env it loads with. */
function developmentAtLoad(development: boolean | undefined): boolean {
  if (development !== undefined) return development;
  return envFlag((loadEnv as McpEnv | undefined)?.MCP_DEV, false);
}

/**
 * Runs `make` (which checks the Worker's definitions). A {@link DefinitionError} is thrown on,
 * except under development, where the Worker made instead answers every request with it (HTTP 500
 * and a JSON-RPC error) and the log says it once at load and again with each request.
 */
export function loadOrAnswer<E>(make: () => McpWorker<E>, development: boolean | undefined): McpWorker<E> {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof DefinitionError) || !developmentAtLoad(development)) throw error;
    console.error(
      `edge-mcp: the Worker's definitions are wrong (fix the file and save: wrangler dev reloads it; wrangler deploy refuses it): ${error.message}`,
    );
    const failed: McpWorker<E> & { [FAILED]: DefinitionError } = { fetch: () => errorResponse(misconfigured(error)), [FAILED]: error };
    return failed;
  }
}
