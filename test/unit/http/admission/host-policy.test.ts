import { describe, expect, it } from "vitest";
import { createHostPolicy } from "../../../../src/http/admission/host-policy.ts";

function req(host: string, origin?: string): Request {
  const headers = new Headers({ host });
  if (origin !== undefined) headers.set("origin", origin);
  return new Request(`http://${host}/mcp`, { headers });
}

describe("createHostPolicy", () => {
  const policy = createHostPolicy();

  it.each(["localhost:8787", "127.0.0.1:8787", "[::1]:8787", "acme.localhost:8787", "demo.acct.workers.dev"])("allows the host %s by default", (host) => {
    expect(policy.check(req(host))).toBeUndefined();
  });

  it("refuses a foreign host with 403, naming the setting that allows it", () => {
    const error = policy.check(req("evil.example.com"));
    expect(error?.status).toBe(403);
    expect(error?.message).toMatch(/ALLOWED_HOSTS/);
  });

  it("allows loopback and same-origin browser origins and refuses others", () => {
    expect(policy.check(req("127.0.0.1:8787", "http://localhost:6274"))).toBeUndefined();
    expect(policy.check(req("127.0.0.1:8787", "http://127.0.0.1:8787"))).toBeUndefined();
    expect(policy.check(req("127.0.0.1:8787", "http://evil.example.com"))?.status).toBe(403);
    expect(policy.check(req("127.0.0.1:8787", "null"))?.status).toBe(403);
    expect(policy.check(req("127.0.0.1:8787", "not a url"))?.status).toBe(403);
  });

  it("does not let one workers.dev page call another workers.dev Worker", () => {
    expect(policy.check(req("mine.acct.workers.dev", "https://evil.other.workers.dev"))?.status).toBe(403);
  });

  it("honours configured hosts, wildcards and origins", () => {
    const custom = createHostPolicy({ hosts: ["mcp.example.com", "*.tenants.example.com"], origins: ["https://app.example.org"] });
    expect(custom.check(req("mcp.example.com"))).toBeUndefined();
    expect(custom.check(req("a.tenants.example.com"))).toBeUndefined();
    expect(custom.check(req("tenants.example.com"))?.status).toBe(403);
    expect(custom.check(req("mcp.example.com", "https://app.example.org"))).toBeUndefined();
    expect(custom.check(req("mcp.example.com", "https://other.example.org"))?.status).toBe(403);
  });
});
