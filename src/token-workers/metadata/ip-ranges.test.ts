import { describe, expect, it } from "vitest";
import { isHostAllowed, parseAllowedHosts } from "./allow-list.js";
import { classifyAddress } from "./ip-ranges.js";

describe("classifyAddress()", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared"],
    ["100.127.255.254", "shared"],
    ["169.254.169.254", "link_local"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "documentation"],
    ["198.18.0.1", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:169.254.169.254", "link_local"],
    ["::127.0.0.1", "reserved"],
    ["64:ff9b::a00:1", "private"],
    ["2002:a00:1::", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fe80::1", "link_local"],
    ["fe80::1%eth0", "link_local"],
    ["febf::1", "link_local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["not-an-ip", "invalid"],
  ])("%s is %s", (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255",
    "100.128.0.1",
    "172.32.0.1",
    "169.253.1.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
  ])("%s is public", (address) => {
    expect(classifyAddress(address)).toBe("public");
  });
});

describe("allow-list", () => {
  it("parses host and host:port entries, IPv6 in brackets", () => {
    expect(parseAllowedHosts(" 127.0.0.1:8080, Metadata.Internal ,[::1]:9000,::1,, ")).toEqual([
      { host: "127.0.0.1", port: 8080 },
      { host: "metadata.internal" },
      { host: "::1", port: 9000 },
      { host: "::1" },
    ]);
    expect(parseAllowedHosts(undefined)).toEqual([]);
  });

  it("matches host, and port when the entry names one", () => {
    const allowed = parseAllowedHosts("127.0.0.1:8080,metadata.internal,[::1]");
    expect(isHostAllowed(new URL("http://127.0.0.1:8080/x"), allowed)).toBe(true);
    expect(isHostAllowed(new URL("http://127.0.0.1:8081/x"), allowed)).toBe(false);
    expect(isHostAllowed(new URL("https://METADATA.internal/x"), allowed)).toBe(true);
    expect(isHostAllowed(new URL("http://[::1]:5/x"), allowed)).toBe(true);
    expect(isHostAllowed(new URL("http://10.0.0.1/x"), allowed)).toBe(false);
  });
});
