// Anonymous callers: counted by network (IPv4 address, IPv6 /64) for rate limits and quotas, and all together per tenant.
import { describe, expect, it } from "vitest";
import { resultOf } from "./fixture.ts";
import { from, initializeFrom } from "./network.ts";

/** Twelve addresses of one IPv6 /64, spelt every way (expanded, compressed, upper case). */
function addressesOf(prefix: string): string[] {
  return Array.from({ length: 12 }, (_, i) => {
    const host = (0x1000 + i * 4099).toString(16);
    return i % 3 === 0 ? `${prefix}:0:0:0:${host}` : i % 3 === 1 ? `${prefix}::${host}` : `${prefix}:0000:0000:${host}:1`.toUpperCase();
  });
}

describe("anonymous callers are counted by network", () => {
  it("holds twelve addresses of one IPv6 /64 to one rate limit (10 a minute)", async () => {
    let passed = 0;
    for (const address of addressesOf("2001:db8:a1:1")) {
      for (let i = 0; i < 3; i++) {
        const response = await from("anon", address, "server/discover");
        await response.text();
        if (response.status === 200) passed++;
        else expect(response.status).toBe(429);
      }
    }
    // 36 requests: at most two windows of 10 pass (the limit's window is aligned to the clock).
    expect(passed).toBeGreaterThanOrEqual(10);
    expect(passed).toBeLessThanOrEqual(20);
  }, 30_000);

  it("gives another /64, and an IPv4 address, their own rate limits", async () => {
    const statuses = async (address: string) => {
      const response = await from("anon", address, "server/discover");
      await response.text();
      return response.status;
    };
    expect(await statuses("2001:db8:a1:2::1")).toBe(200);
    expect(await statuses("2001:db8:a1:3::1")).toBe(200);
    expect(await statuses("198.51.100.77")).toBe(200);
    expect(await statuses("::ffff:198.51.100.78")).toBe(200);
  });

  it("holds six addresses of one /64 to the session quota of one caller (3)", async () => {
    const statuses: number[] = [];
    for (const address of addressesOf("2001:db8:a1:4").slice(0, 6)) {
      const response = await initializeFrom("anon", address);
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    const statuses: number[] = [];
    for (const address of ["192.0.2.44", "::ffff:192.0.2.44", "::FFFF:c000:22c", "0:0:0:0:0:ffff:192.0.2.44"]) {
      const response = await initializeFrom("anon", address);
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("counts a CF-Connecting-IP that is no IP address as no address (one shared key, not one key per value)", async () => {
    const statuses: number[] = [];
    for (const address of ["x1", "x2", "x3", "x4"]) {
      const response = await initializeFrom("anon", address);
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe("all anonymous callers of a tenant together", () => {
  it("caps the handles of anonymous callers from many networks (anonymous: 3)", async () => {
    const texts: (string | undefined)[] = [];
    for (const address of ["2001:db8:b1:1::1", "2001:db8:b1:2::1", "2001:db8:b1:3::1", "2001:db8:b1:4::1"]) {
      const { result } = await resultOf(await from("crowd", address, "tools/call", { name: "note_save", arguments: { text: "n" } }));
      texts.push(result?.isError ? result.content[0]?.text : "ok");
    }
    expect(texts.slice(0, 3)).toEqual(["ok", "ok", "ok"]);
    expect(texts[3]).toMatch(/too many live handles/);
  });

  it("caps the sessions of anonymous callers from many networks (anonymous: 2)", async () => {
    const statuses: number[] = [];
    for (const address of ["2001:db8:b2:1::1", "2001:db8:b2:2::1", "2001:db8:b2:3::1"]) {
      const response = await initializeFrom("crowd", address);
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
