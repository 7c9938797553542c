// A 2025-11-25 session client (the SDK v1 client, with its session and GET stream) under `wrangler dev`: a call whose
// account is not connected gets -32042 with a connect link; once the connect callback completes, the session's GET
// stream carries notifications/elicitation/complete with the same elicitation id. Another principal's session gets
// nothing, and a link whose session was changed is refused.
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitationCompleteNotificationSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeaderOf } from "../unit/workers/accounts/memory-namespace.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const ADA_KEY = "emk_ada_fixture_key_0123456789abcdef";
const BOB_KEY = "emk_bob_fixture_key_0123456789abcdef";
const CY_KEY = "emk_cy_fixture_key_0123456789abcdef0";
const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

let worker: WranglerDev;
let provider: Server;

beforeAll(async () => {
  // The provider's token endpoint: any code gets a token (the test drives the browser side itself).
  provider = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ access_token: "fixture-access-token", refresh_token: "fixture-refresh-token", expires_in: 3600, token_type: "Bearer" }));
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const port = (provider.address() as AddressInfo).port;
  worker = await startWranglerDev({
    name: "accounts-session",
    configPath: "test/e2e/fixtures/accounts-session/wrangler.toml",
    // Fresh storage each run: no account is connected yet.
    args: ["--persist-to", mkdtempSync(join(tmpdir(), "edge-mcp-accounts-session-"))],
    vars: {
      TOKEN_ENDPOINT: `http://127.0.0.1:${port}/token`,
      ADA_KEY_SHA256: sha256(ADA_KEY),
      BOB_KEY_SHA256: sha256(BOB_KEY),
      CY_KEY_SHA256: sha256(CY_KEY),
      MCP_ACCOUNTS_KEY: "f".repeat(43),
    },
  });
}, 90_000);

afterAll(async () => {
  await worker?.stop();
  await new Promise((resolve) => provider?.close(resolve));
});

/** A session client of `key`, with URL elicitation declared; what its GET stream brought of elicitation/complete. */
async function sessionClient(key: string) {
  const client = new Client({ name: "accounts-session-e2e", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  const completed: string[] = [];
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => void completed.push(notification.params.elicitationId));
  const transport = new StreamableHTTPClientTransport(new URL(`${worker.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  expect(transport.sessionId).toMatch(/^[0-9a-f]+\./);
  return { client, transport, completed };
}

/** The -32042 answer's elicitation of a whoami_upstream call. */
async function elicitationOf(client: Client): Promise<{ elicitationId: string; url: string }> {
  const error = await client.callTool({ name: "whoami_upstream", arguments: {} }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(-32042);
  const [elicitation] = ((error as McpError).data as { elicitations: { elicitationId: string; url: string }[] }).elicitations;
  return elicitation as { elicitationId: string; url: string };
}

/** Confirms the link as the browser does, then comes back from the provider with a code: the callback's status. */
async function completeConnect(state: string): Promise<number> {
  const confirmed = await fetch(`${worker.baseUrl}/accounts/connect`, { method: "POST", body: new URLSearchParams({ state }), redirect: "manual" });
  expect(confirmed.status).toBe(303);
  const cookie = cookieHeaderOf(confirmed);
  const callback = await fetch(`${worker.baseUrl}/accounts/callback?state=${encodeURIComponent(state)}&code=fixture-code`, { headers: { cookie } });
  await callback.text();
  return callback.status;
}

const until = async (check: () => boolean, ms = 5_000): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
};

describe("notifications/elicitation/complete in a 2025-11-25 session under wrangler dev", () => {
  it("reaches the session that got -32042, with its elicitation id, and no other principal's session; the retry runs", async () => {
    const ada = await sessionClient(ADA_KEY);
    const bob = await sessionClient(BOB_KEY);
    try {
      const elicitation = await elicitationOf(ada.client);
      const state = new URL(elicitation.url).searchParams.get("state") ?? "";
      expect(state).not.toContain((ada.transport.sessionId ?? "").split(".")[1]);
      expect(await completeConnect(state)).toBe(200);
      expect(await until(() => ada.completed.length > 0)).toBe(true);
      expect(ada.completed).toEqual([elicitation.elicitationId]);
      const retried = await ada.client.callTool({ name: "whoami_upstream", arguments: {} });
      expect(retried.content).toEqual([{ type: "text", text: `connected: a token of ${"fixture-access-token".length} characters` }]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(bob.completed).toEqual([]);
    } finally {
      await ada.client.close();
      await bob.client.close();
    }
  });

  it("refuses a link whose session was changed to another principal's: nothing is linked and that session gets nothing", async () => {
    const bob = await sessionClient(BOB_KEY);
    const cy = await sessionClient(CY_KEY);
    try {
      // Neither has an account yet: bob's own link names his session; cy's link is changed to name bob's session instead.
      const theirs = new URL((await elicitationOf(bob.client)).url).searchParams.get("state") ?? "";
      const mine = new URL((await elicitationOf(cy.client)).url).searchParams.get("state") ?? "";
      const [payload = "", signature = ""] = mine.split(".");
      const fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[];
      const bobsSession = (JSON.parse(Buffer.from(theirs.split(".")[0] ?? "", "base64url").toString("utf8")) as unknown[])[7];
      expect(typeof bobsSession).toBe("string");
      fields[7] = bobsSession;
      const changed = `${Buffer.from(JSON.stringify(fields)).toString("base64url")}.${signature}`;
      const response = await fetch(`${worker.baseUrl}/accounts/callback?state=${encodeURIComponent(changed)}&code=fixture-code`);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("This connect link is not valid");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(bob.completed).toEqual([]);
      expect(cy.completed).toEqual([]);
    } finally {
      await cy.client.close();
      await bob.client.close();
    }
  });
});
