/** The verified identity of a caller, as handlers and tool services see it. */

export interface Principal {
  /** The token's subject (`sub`) or the API key's id. */
  subject: string;
  scopes: readonly string[];
  clientId?: string;
  issuer?: string;
  via: "jwt" | "api-key";
}
