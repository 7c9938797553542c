// `edge-mcp tenants secrets`: a tenant's sealed secrets, through the Worker's admin API only (the Worker holds
// MCP_SECRETS_KEY and seals them; no command, and no route, reads a value back).

import { UsageError } from "./usage-error.mjs";

export const SECRETS_USAGE = `edge-mcp tenants secrets <command> --url URL   (token in MCP_ADMIN_TOKEN)

  list ID           the names of the tenant's secrets, the key each is sealed under, when it was set
  put ID NAME       seal and store the value read from standard input (a trailing newline is dropped)
  delete ID NAME    remove the secret
  rotate ID         re-seal every secret of the tenant under MCP_SECRETS_KEY's first key`;

/** @param {NodeJS.ReadableStream} stream */
async function readAll(stream) {
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text.replace(/\r?\n$/, "");
}

/**
 * Runs `edge-mcp tenants secrets ARGS` against the admin API at `url`; resolves with the exit code.
 * @param {string[]} positional  the command and its operands
 * @param {string | undefined} url
 * @param {{ log(line: string): void, err(line: string): void }} out
 * @param {NodeJS.ReadableStream} stdin
 */
export async function runTenantSecrets(positional, url, out, stdin = process.stdin) {
  const [command, id, name] = positional;
  if (url === undefined) throw new UsageError("edge-mcp tenants secrets works through the Worker's admin API: pass --url (its origin)");
  const token = process.env["MCP_ADMIN_TOKEN"];
  if (!token) throw new UsageError("--url needs the admin token in the MCP_ADMIN_TOKEN environment variable");
  if (id === undefined) throw new UsageError(`edge-mcp tenants secrets ${command ?? "<command>"} needs a tenant ID\n\n${SECRETS_USAGE}`);
  let origin;
  try {
    origin = new URL(url).origin;
  } catch {
    throw new UsageError(`--url must be the Worker's URL, such as https://mcp.example.com; got ${url}`);
  }
  /** @param {string} method @param {string} path @param {unknown} [body] */
  const send = async (method, path, body) => {
    const response = await fetch(`${origin}/admin/tenants/${encodeURIComponent(id)}/secrets${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      redirect: "error",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status === 401) throw new Error(`secrets ${command}: 401, the admin token was refused (MCP_ADMIN_TOKEN)`);
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) throw new Error(`secrets ${command}: ${response.status} ${parsed?.error ?? text}`.trim());
    return parsed;
  };
  /** @param {string} what */
  const needsName = (what) => {
    if (name === undefined) throw new UsageError(`edge-mcp tenants secrets ${what} needs a tenant ID and a secret NAME`);
    return encodeURIComponent(name);
  };
  switch (command) {
    case "list": {
      const { secrets } = await send("GET", "");
      for (const secret of secrets) out.log(`${secret.name}\tkey ${secret.keyId ?? "?"}\t${secret.updatedAt ? new Date(secret.updatedAt).toISOString() : ""}`);
      return 0;
    }
    case "put": {
      const path = `/${needsName("put")}`;
      const value = await readAll(stdin);
      if (value === "") throw new UsageError("edge-mcp tenants secrets put reads the value from standard input, and it was empty");
      const { keyId } = await send("PUT", path, { value });
      out.log(`sealed ${name} for tenant ${id} under key ${keyId}`);
      return 0;
    }
    case "delete": {
      await send("DELETE", `/${needsName("delete")}`);
      out.log(`deleted ${name} of tenant ${id}`);
      return 0;
    }
    case "rotate": {
      const { resealed, keyId } = await send("POST", "/rotate");
      out.log(`re-sealed ${resealed} secret${resealed === 1 ? "" : "s"} of tenant ${id} under key ${keyId}`);
      return 0;
    }
    default:
      throw new UsageError(`unknown secrets command '${command}'\n\n${SECRETS_USAGE}`);
  }
}
