/** What `createMultiTenantWorker({ signIn })` takes: the per-tenant authorization server of edge-mcp/oauth (`tenantSignIn()`), seen from here. */

import type { Authorizer } from "../http/admission/authorizer.ts";
import type { TenantConfig } from "../tenancy/tenant-config.ts";

/** One request of a tenant with a `signIn` section, as the Worker hands it over. */
export interface SignInTenantRequest {
  readonly tenant: TenantConfig;
  /** The tenant's MCP endpoint path here: `/mcp` by host, `<pathPrefix>/mcp` by path. */
  readonly path: string;
  /** Answers a request on the tenant's own endpoint (admission, tools, limits), after the authorization server let it through. */
  mcp(request: Request): Promise<Response>;
  /** Reads one of the tenant's sealed secrets (with keyedTenants()); undefined without a tenant store. */
  readonly secret: ((name: string) => Promise<string>) | undefined;
}

/** Made by `tenantSignIn()` from edge-mcp/oauth. */
export interface TenantSignInOptIn {
  readonly kind: "edge-mcp/tenant-sign-in";
  /** The path a request's tenant is found by, when it is not the request's own (RFC 8414's path-inserted metadata URL); else undefined. */
  lookupPath(pathname: string): string | undefined;
  /** The authorizer of a signed-in tenant's endpoint: the principal its authorization server found, tool scopes checked. */
  authorizer(tenant: TenantConfig, path: string): Authorizer;
  /** Answers every request of a tenant with `signIn`: its metadata, authorization endpoints, and its MCP endpoint behind tokens. */
  fetch(request: Request, env: object, ctx: ExecutionContext, tenant: SignInTenantRequest): Promise<Response>;
}
