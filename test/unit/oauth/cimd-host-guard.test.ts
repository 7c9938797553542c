// Client ID Metadata Documents on hosts a server must not fetch for a stranger: refused before any fetch.
import { afterEach, describe, expect, it, vi } from "vitest";
import { refusePrivateClient } from "../../../src/oauth/cimd-host-guard.ts";
import { isPrivateHost } from "../../../src/oauth/private-address.ts";

const hostOf = (url: string) => new URL(url).hostname;

describe("private hosts", () => {
  it("knows loopback, private, link-local, shared and special-purpose IPv4 literals, in every spelling URL accepts", () => {
    for (const url of [
      "https://127.0.0.1/c",
      "https://127.8.9.10/c",
      "https://10.0.0.1/c",
      "https://172.16.0.1/c",
      "https://172.31.255.255/c",
      "https://192.168.1.20/c",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/c",
      "https://0.0.0.0/c",
      "https://224.0.0.1/c",
      "https://255.255.255.255/c",
      "https://2130706433/c", // 127.0.0.1 as one number
      "https://0x7f.1/c", // 127.0.0.1 in hex, short
      "https://012.0.0.1/c", // 10.0.0.1 in octal
    ]) {
      expect(isPrivateHost(hostOf(url)), url).toBe(true);
    }
  });

  it("knows IPv6 loopback, unspecified, unique-local, link-local, multicast, and IPv4-mapped or NAT64 private addresses", () => {
    for (const url of [
      "https://[::1]/c",
      "https://[::]/c",
      "https://[fd00::1]/c",
      "https://[fc12:3456::9]/c",
      "https://[fe80::1]/c",
      "https://[ff02::1]/c",
      "https://[::ffff:10.0.0.1]/c",
      "https://[::ffff:169.254.169.254]/c",
      "https://[64:ff9b::192.168.0.1]/c",
      "https://[2001:db8::1]/c",
    ]) {
      expect(isPrivateHost(hostOf(url)), url).toBe(true);
    }
  });

  it("knows the names that only mean a local machine or network", () => {
    for (const url of [
      "https://localhost/c",
      "https://app.localhost/c",
      "https://printer.local/c",
      "https://metadata.google.internal/c",
      "https://nas.home.arpa/c",
      "https://localhost./c",
    ]) {
      expect(isPrivateHost(hostOf(url)), url).toBe(true);
    }
  });

  it("leaves public addresses and names alone", () => {
    for (const url of [
      "https://claude.ai/oauth/mcp-oauth-client-metadata",
      "https://vscode.dev/oauth/client-metadata.json",
      "https://8.8.8.8/c",
      "https://172.32.0.1/c",
      "https://192.169.0.1/c",
      "https://100.128.0.1/c",
      "https://[2606:4700::1111]/c",
      "https://[::ffff:8.8.8.8]/c",
      "https://local.example.com/c",
      "https://internal.example.com/c",
    ]) {
      expect(isPrivateHost(hostOf(url)), url).toBe(false);
    }
  });
});

describe("the guard before the library fetches a client's document", () => {
  afterEach(() => vi.unstubAllGlobals());

  const authorize = (clientId: string) => new Request(`https://mcp.example.com/authorize?response_type=code&client_id=${encodeURIComponent(clientId)}`);
  const token = (clientId: string) =>
    new Request("https://mcp.example.com/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "c", client_id: clientId }),
    });

  it("refuses a client on a private host at /authorize and at the token endpoint with invalid_client, and fetches nothing", async () => {
    const fetched = vi.fn(() => Promise.reject(new Error("nothing may be fetched")));
    vi.stubGlobal("fetch", fetched);
    for (const request of [
      authorize("https://10.0.0.1/client.json"),
      token("https://[fd00::1]/client.json"),
      authorize("https://169.254.169.254/latest/meta-data/x"),
    ]) {
      const refused = await refusePrivateClient(request, "/oauth/token", false);
      expect(refused?.status).toBe(400);
      expect(await refused?.json()).toEqual({
        error: "invalid_client",
        error_description: "the client metadata document's host is a private, loopback or link-local address",
      });
    }
    expect(fetched).not.toHaveBeenCalled();
  });

  it("refuses a loopback client unless the development switch is on (then the loopback loader takes it)", async () => {
    expect((await refusePrivateClient(authorize("http://127.0.0.1:9000/client.json"), "/oauth/token", false))?.status).toBe(400);
    expect(await refusePrivateClient(authorize("http://127.0.0.1:9000/client.json"), "/oauth/token", true)).toBeUndefined();
    // The switch covers loopback only, never a private network.
    expect((await refusePrivateClient(authorize("https://192.168.1.2/client.json"), "/oauth/token", true))?.status).toBe(400);
  });

  it("lets public CIMD clients, registered (DCR) client ids and requests without a client through, and leaves the body for the library", async () => {
    expect(await refusePrivateClient(authorize("https://claude.ai/oauth/mcp-oauth-client-metadata"), "/oauth/token", false)).toBeUndefined();
    expect(await refusePrivateClient(authorize("Yx3f0GZt2kqD"), "/oauth/token", false)).toBeUndefined();
    expect(
      await refusePrivateClient(new Request("https://mcp.example.com/oauth/register", { method: "POST", body: "{}" }), "/oauth/token", false),
    ).toBeUndefined();
    const request = token("https://vscode.dev/oauth/client-metadata.json");
    expect(await refusePrivateClient(request, "/oauth/token", false)).toBeUndefined();
    expect((await request.formData()).get("client_id")).toBe("https://vscode.dev/oauth/client-metadata.json");
  });
});
