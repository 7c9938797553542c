// The key anonymous callers are counted under: IPv4 as it is, IPv6 by /64, every spelling of one address alike.
import { describe, expect, it } from "vitest";
import { clientNetwork } from "../../../src/core/client-address.ts";

describe("clientNetwork", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(clientNetwork("192.0.2.1")).toBe("192.0.2.1");
    expect(clientNetwork(" 203.0.113.255 ")).toBe("203.0.113.255");
    expect(clientNetwork("192.0.2.1")).not.toBe(clientNetwork("192.0.2.2"));
  });

  it("keys every address of one IPv6 /64 alike, whatever the interface part", () => {
    const keys = ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2:a:b:c:d", "2001:db8:1:2::"].map(clientNetwork);
    expect(new Set(keys)).toEqual(new Set(["2001:db8:1:2::/64"]));
    expect(clientNetwork("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
  });

  it("reads expanded, compressed and mixed-case spellings of one address as one key", () => {
    const spellings = ["2001:0db8:0000:0001:0000:0000:0000:0001", "2001:db8:0:1::1", "2001:DB8:0:1:0:0:0:1", "2001:db8::1:0:0:0:1", "2001:0DB8:0:0001::0001"];
    expect(new Set(spellings.map(clientNetwork))).toEqual(new Set(["2001:db8:0:1::/64"]));
    expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
    expect(clientNetwork("::")).toBe("0:0:0:0::/64");
    expect(clientNetwork("fe80::")).toBe("fe80:0:0:0::/64");
  });

  it("treats an IPv4-mapped IPv6 address as its IPv4 address, dotted or in hex", () => {
    expect(clientNetwork("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientNetwork("::FFFF:c000:0201")).toBe("192.0.2.1");
    expect(clientNetwork("0:0:0:0:0:ffff:192.0.2.1")).toBe("192.0.2.1");
    // Other embedded forms stay IPv6 (NAT64 prefixes are shared by many clients).
    expect(clientNetwork("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });

  it.each([
    "",
    "   ",
    "not-an-address",
    "256.1.1.1",
    "1.2.3",
    "1.2.3.4.5",
    "01234.1.1.1",
    "2001:db8::1::2",
    "2001:db8:1:2:3:4:5:6:7",
    "2001:db8:1:2:3:4:5",
    "12345::1",
    "2001:db8::g",
    "::ffff:1.2.3.256",
    "1.2.3.4::",
    "fe80::1%eth0",
    "[2001:db8::1]",
    "2001:db8:1:2:3:4:5:6::",
    `${"1:".repeat(40)}1`,
  ])("refuses %j (no key: such a value does not come from Cloudflare)", (value) => {
    expect(clientNetwork(value)).toBeUndefined();
  });
});
