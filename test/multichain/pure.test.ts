import { describe, expect, it } from "vitest";
import { decodePageToken, encodePageToken } from "../../src/multichain/page-token.js";
import { balancedCounts } from "../../src/multichain/view.js";

describe("multichain pure parts", () => {
  it("shares a quick search's total among the kinds, at most so many each", () => {
    expect(balancedCounts([10, 10, 10], 50, 5)).toEqual([5, 5, 5]);
    expect(balancedCounts([0, 3, 100], 50, 50)).toEqual([0, 3, 47]);
    expect(balancedCounts([40, 40], 50, 50)).toEqual([25, 25]);
    expect(balancedCounts([1, 40, 40], 50, 50)).toEqual([1, 25, 24]);
    expect(balancedCounts([], 50, 5)).toEqual([]);
  });

  it("writes page tokens as the aggregator's tuples and reads back only those", () => {
    const t = encodePageToken(["31337", "Test, Coin", "0xab"]);
    // base64url of a JSON array of strings, unpadded.
    expect(JSON.parse(Buffer.from(t, "base64url").toString())).toEqual(["31337", "Test, Coin", "0xab"]);
    expect(t).not.toMatch(/[=+/]/);
    expect(decodePageToken(t, 3)).toEqual(["31337", "Test, Coin", "0xab"]);
    expect(() => decodePageToken(t, 2)).toThrow(/expected 2 values/);
    expect(() => decodePageToken("!!", 1)).toThrow(/invalid page_token/);
    expect(() => decodePageToken(Buffer.from("[1]").toString("base64url"), 1)).toThrow(/expected 1 values/);
    expect(() => decodePageToken(Buffer.from("{}").toString("base64url"), 1)).toThrow(/invalid page_token/);
  });
});
