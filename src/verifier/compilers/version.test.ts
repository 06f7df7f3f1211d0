import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../errors/base.js";
import { solidityEvmVersions, vyperEvmVersions } from "./evm-versions.js";
import { compareVersions, displayVersion, parseVersion, resolveVersion } from "./version.js";

const known = [
  "0.8.26+commit.8a97fa7a",
  "0.8.26-nightly.2024.5.20+commit.1b2c3d4e",
  "0.8.24+commit.e11b9ed9",
  "0.4.26+commit.4563c3fc",
  "0.3.1",
].map((s) => ({ version: parseVersion(s)! }));

describe("versions", () => {
  it("parses and displays with a leading v", () => {
    expect(displayVersion(parseVersion("0.8.26+commit.8a97fa7a")!)).toBe("v0.8.26+commit.8a97fa7a");
    expect(displayVersion(parseVersion("v0.1.0-beta.17+commit.0671b7b")!)).toBe(
      "v0.1.0-beta.17+commit.0671b7b",
    );
    expect(parseVersion("latest")).toBeUndefined();
  });

  it("sorts releases after their nightlies and by number, not text", () => {
    const sorted = ["0.8.9+commit.e5eed63a", "0.8.10+commit.fc410830", "0.8.10-nightly.2021.11.8+commit.a"]
      .map((s) => parseVersion(s)!)
      .sort(compareVersions)
      .map(displayVersion);
    expect(sorted).toEqual([
      "v0.8.9+commit.e5eed63a",
      "v0.8.10-nightly.2021.11.8+commit.a",
      "v0.8.10+commit.fc410830",
    ]);
  });

  it("resolves without v, with a short or long commit, or without commit when unique", () => {
    const name = (s: string) => displayVersion(resolveVersion(s, known, "Solidity").version);
    expect(name("0.8.26+commit.8a97fa7a")).toBe("v0.8.26+commit.8a97fa7a");
    expect(name("v0.8.26+commit.8a97")).toBe("v0.8.26+commit.8a97fa7a");
    expect(name("0.8.26+commit.8a97fa7a0000")).toBe("v0.8.26+commit.8a97fa7a");
    expect(name("0.8.24")).toBe("v0.8.24+commit.e11b9ed9");
    expect(name("0.3.1")).toBe("v0.3.1");
    expect(name("0.8.26-nightly.2024.5.20+commit.1b2c")).toBe("v0.8.26-nightly.2024.5.20+commit.1b2c3d4e");
  });

  it("names a Vyper prerelease as its list does: v0.4.1b1, not v0.4.1-b1", () => {
    const vyper = ["0.4.1b1+commit.039d3692", "v0.4.1-rc2+commit.305813c9", "0.4.0rc6"].map((s) => ({
      version: parseVersion(s)!,
    }));
    const name = (s: string) => displayVersion(resolveVersion(s, vyper, "Vyper").version);
    expect(name("0.4.1b1")).toBe("v0.4.1b1+commit.039d3692");
    // A request may write the hyphen; the answer names the version as the list does.
    expect(name("v0.4.1-b1+commit.039d")).toBe("v0.4.1b1+commit.039d3692");
    expect(name("0.4.1rc2")).toBe("v0.4.1-rc2+commit.305813c9");
    expect(name("0.4.0-rc6")).toBe("v0.4.0rc6");
  });

  it("rejects unknown and malformed versions with InvalidInputError", () => {
    expect(() => resolveVersion("0.8.25+commit.b61c2a91", known, "Solidity")).toThrow(InvalidInputError);
    expect(() => resolveVersion("0.8.26+commit.ffff", known, "Solidity")).toThrow(InvalidInputError);
    expect(() => resolveVersion("soljson-latest", known, "Solidity")).toThrow(InvalidInputError);
  });
});

describe("EVM versions table", () => {
  const sol = (s: string) => solidityEvmVersions(parseVersion(s)!);
  it("follows the Solidity release history", () => {
    expect(sol("0.4.20+commit.3155dd80")).toEqual(["default"]);
    expect(sol("0.8.17+commit.8df45f5f")).not.toContain("paris");
    expect(sol("0.8.18+commit.87f61d96")).toContain("paris");
    expect(sol("0.8.23+commit.f704f362")).not.toContain("cancun");
    expect(sol("0.8.24+commit.e11b9ed9")).toContain("cancun");
    expect(sol("0.8.26+commit.8a97fa7a").at(-1)).toBe("default");
  });
  it("follows the Vyper release history", () => {
    const vy = (s: string) => vyperEvmVersions(parseVersion(s)!);
    expect(vy("0.3.7+commit.6020b8bb")).toContain("paris");
    expect(vy("0.3.7+commit.6020b8bb")).not.toContain("london");
    expect(vy("0.3.10+commit.91361694")).toEqual(["london", "paris", "shanghai", "cancun", "default"]);
    expect(vy("0.1.0-beta.17+commit.0671b7b")).toContain("byzantium");
  });
});
