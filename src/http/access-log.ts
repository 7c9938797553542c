/** One structured JSON line per request for operators (`wrangler tail`): never tokens or arguments. */

import type { AdmissionTrace } from "./admission/admit.ts";

export function writeAccessLog(tenant: string, trace: AdmissionTrace, status: number): void {
  console.log(
    JSON.stringify({
      event: "mcp.request",
      tenant,
      revision: trace.revision,
      method: trace.method,
      target: trace.target,
      status,
      durationMs: Date.now() - trace.started,
      principal: trace.principal?.subject,
      issuer: trace.principal?.issuer,
      traceId: trace.traceId,
    }),
  );
}
