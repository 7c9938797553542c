/** The Worker's bindings (wrangler.toml), typed once: every handler reads them as `ctx.env`. */

export interface Env {
  /** Where the `note` tool keeps its notes. */
  NOTES: KVNamespace;
}

declare module "edge-mcp" {
  interface HandlerEnv extends Env {}
}
