/** Where a remote module may point: https anywhere, plain http only to loopback in development, never the Worker itself. */

import { DefinitionError } from "../../core/definition-error.ts";

/** 127.0.0.0/8, ::1 and localhost names (RFC 6761 §6.3). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The upstream URL of a remote module, checked: https, or http to a loopback address when
 * `development` is on (MCP_DEV, or the Worker's `development` option); no credentials in it, no
 * fragment. `where` starts the error ("tenant acme: module x").
 */
export function remoteUrl(value: string, development: boolean, where: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DefinitionError(`${where}: url ${JSON.stringify(value)} is not an absolute URL such as "https://mcp.example.com/mcp"`);
  }
  if (url.username !== "" || url.password !== "")
    throw new DefinitionError(`${where}: url must not hold credentials; put them in a secret named by auth or headers`);
  if (url.hash !== "") throw new DefinitionError(`${where}: url must not have a fragment`);
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:") {
    if (!isLoopback(url.hostname)) throw new DefinitionError(`${where}: url must be https (plain http is allowed only for a loopback address in development)`);
    if (!development) throw new DefinitionError(`${where}: url ${url.origin} is plain http, which is allowed only in development (MCP_DEV = "true")`);
    return url;
  }
  throw new DefinitionError(`${where}: url must be https, not ${url.protocol.slice(0, -1)}`);
}

/** Whether a tool name matches a pattern: `*` stands for any run of characters, the rest is literal. */
export function matchesPattern(name: string, pattern: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return name === pattern;
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (!name.startsWith(first) || name.length < first.length + last.length || !name.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, at);
    if (found === -1 || found + part.length > name.length - last.length) return false;
    at = found + part.length;
  }
  return true;
}

/** Whether an upstream tool is exposed: it matches an allow pattern (all, when none are given) and no deny pattern. */
export function exposed(name: string, allow: readonly string[] | undefined, deny: readonly string[] | undefined): boolean {
  if (deny?.some((pattern) => matchesPattern(name, pattern))) return false;
  return allow === undefined || allow.some((pattern) => matchesPattern(name, pattern));
}
