/**
 * The MCP server: it is its own OAuth authorization server (MCP clients register by Client ID
 * Metadata Document or dynamically, with PKCE) and signs users in with your OpenID provider.
 * `npm run dev` serves it at http://127.0.0.1:8787/mcp beside a local OpenID provider.
 */

import { createServer } from "edge-mcp";
import { createOAuthWorker } from "edge-mcp/oauth";
import { createWorker } from "edge-mcp/workers";
import { signIn, type Env } from "./sign-in";
import { profile, whoami } from "./tools";

const server = createServer({
  info: { name: "{{name}}", version: "0.1.0" },
  instructions: "whoami says who is signed in; profile reads the user's profile from the identity provider, as the user.",
  tools: [whoami, profile],
});

export default createOAuthWorker(createWorker<Env>(server, { authorizer: signIn.authorizer }), signIn);
