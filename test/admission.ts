// Admission records for tests: what the admission stage would hand down for a tenant and principal.
import { DEFAULT_QUOTAS, type Admission, type Quotas } from "../src/core/admission.ts";
import { callerKey, type Principal } from "../src/core/principal.ts";

/** A JWT principal of the test issuer (or an API key's, with `via: "api-key"`). */
export function principal(subject: string, scopes: string[] = [], issuer = "https://issuer.test/"): Principal {
  return { issuer, subject, scopes, via: "jwt" };
}

export function admission(tenant = "default", who?: Principal, overrides: { quotas?: Quotas; limits?: Admission["limits"] } = {}): Admission {
  const caller = callerKey(tenant, who);
  return { tenant, principal: who, caller, quotaHolder: caller, limits: overrides.limits ?? {}, quotas: overrides.quotas ?? DEFAULT_QUOTAS };
}
