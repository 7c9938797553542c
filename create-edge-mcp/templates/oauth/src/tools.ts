/** The server's tools: who is signed in, and a call of the identity provider's API as that user. */

import { defineTool } from "edge-mcp";
import { signIn } from "./sign-in";

export const whoami = defineTool({
  name: "whoami",
  title: "Who am I",
  description: "Says who is signed in: the user's name and email at the identity provider.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (_args, ctx) => {
    const user = signIn.user(ctx);
    if (user === undefined) return "Nobody is signed in.";
    const name = typeof user.claims["name"] === "string" ? user.claims["name"] : user.upstreamSubject;
    const email = typeof user.claims["email"] === "string" ? user.claims["email"] : "no email";
    return `You are ${name} (${email}), signed in with ${user.upstreamIssuer}.`;
  },
});

/**
 * Calls the provider's userinfo endpoint with the user's upstream access token, which the grant keeps
 * encrypted and `signIn.upstreamToken(ctx)` reads: never return it or log it.
 */
export const profile = defineTool({
  name: "profile",
  title: "My profile",
  description: "Reads the signed-in user's profile from the identity provider's API, as the user.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async (_args, ctx) => {
    const discovery = await fetch(`${ctx.env.OIDC_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration`, { signal: ctx.signal });
    const { userinfo_endpoint: userinfo } = await discovery.json<{ userinfo_endpoint?: string }>();
    if (!userinfo) return { content: [{ type: "text", text: "The identity provider has no userinfo endpoint." }], isError: true };
    const response = await fetch(userinfo, {
      headers: { authorization: `Bearer ${signIn.upstreamToken(ctx)}`, accept: "application/json" },
      signal: ctx.signal,
    });
    if (!response.ok) return { content: [{ type: "text", text: `The identity provider answered HTTP ${response.status}.` }], isError: true };
    const claims = await response.json<Record<string, unknown>>();
    return { content: [{ type: "text", text: JSON.stringify(claims) }], structuredContent: claims };
  },
});
