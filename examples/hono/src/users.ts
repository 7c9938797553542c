/** The example's own sign-in: bearer tokens of two demo users, as an app's auth middleware would check them. */

import type { MiddlewareHandler } from "hono";
import type { Principal } from "edge-mcp";

/** A signed-in user of the app. */
export interface User {
  id: string;
  name: string;
  roles: string[];
}

/** The app's Hono env: its middleware sets `user`. */
export interface AppEnv {
  Variables: { user: User };
}

// Published demo tokens: a real app checks a session, a JWT or its user store here.
const USERS = new Map<string, User>([
  ["demo-ada-published-example-token", { id: "ada", name: "Ada", roles: ["admin"] }],
  ["demo-bob-published-example-token", { id: "bob", name: "Bob", roles: [] }],
]);

/** Signs the caller in from `Authorization: Bearer <token>`, or answers 401 itself. */
export function signIn(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = /^Bearer (\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    const user = token === undefined ? undefined : USERS.get(token);
    if (user === undefined) return c.json({ error: "sign in with Authorization: Bearer <token>" }, 401);
    c.set("user", user);
    await next();
  };
}

/** The app's user as the principal MCP tools receive. */
export function principalOf(user: User): Principal {
  return { issuer: "https://hono-example.invalid", subject: user.id, scopes: user.roles, via: "api-key" };
}
