/** The request span's first attributes, and dormant samples of a traced request's objects (core/shape-anchor.ts). */

import type { Attributes } from "@opentelemetry/api";
import type { Admission } from "../core/admission.ts";
import { DORMANT, anchorShape } from "../core/shape-anchor.ts";

/** The request span's first attributes: admission's outcome, and the MCP method (or, for a stream, the HTTP method). */
export function rootAttributes(outcome: string, stream: boolean, verb: string, method: string | undefined): Attributes {
  const attributes: Attributes = { "edge_mcp.admission": outcome };
  if (stream) attributes["http.request.method"] = verb;
  else if (method !== undefined) attributes["mcp.method.name"] = method;
  return attributes;
}

// Between requests no object of these kinds is alive, so a major GC would free their hidden classes and throw away
// the code optimised for them. The samples keep them: a tools/call's request-span attributes grown in the order
// Observation's #record sets them, and an admission given its trace carrier as Observation's #run does, for the
// frozen admission src/http/admit.ts shares between a tenant's anonymous requests and for a caller's own (fields in
// admit.ts's order).
const rootSample = rootAttributes("admitted", false, "POST", "tools/call");
rootSample["edge_mcp.tenant"] = "";
rootSample["http.response.status_code"] = 200;
rootSample["mcp.protocol.version"] = "";
rootSample["jsonrpc.request.id"] = "";
rootSample["gen_ai.tool.name"] = "";
rootSample["edge_mcp.caller"] = "";
rootSample["edge_mcp.era"] = "";
anchorShape(rootSample);
const anonymous: Admission = Object.freeze({ tenant: "", principal: undefined, caller: "", quotaHolder: "", limits: DORMANT, quotas: DORMANT });
anchorShape({ ...anonymous, trace: DORMANT });
const principal: Admission = { tenant: "", principal: DORMANT, caller: "", quotaHolder: "", limits: DORMANT, quotas: DORMANT };
anchorShape({ ...principal, trace: DORMANT });
