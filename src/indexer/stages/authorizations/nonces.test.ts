import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { noncesFromDiffs } from "./extension.js";

const A = "0x00000000000000000000000000000000000000aa" as Address;
const B = "0x00000000000000000000000000000000000000bb" as Address;
const C = "0x00000000000000000000000000000000000000cc" as Address;
const D = "0x00000000000000000000000000000000000000dd" as Address;

describe("an authority's nonce at the start of a block, from the block's prestate diffs", () => {
  it("is the nonce before the first transaction that changed it, 0 for a new account, UNCHANGED for none", () => {
    const diffs: Parameters<typeof noncesFromDiffs>[0] = [
      { result: { pre: { "0x00000000000000000000000000000000000000AA": { nonce: 7 } }, post: {} } },
      { result: { pre: {}, post: { [B]: { nonce: 1 } } } },
      { result: { pre: { [A]: { nonce: 8 } }, post: {} } },
    ];
    const n = noncesFromDiffs(diffs, [A, B, C]);
    expect(n.get(A)).toBe(7n);
    expect(n.get(B)).toBe(0n);
    expect(n.get(C)).toBe(-1n);
  });

  it("leaves an address to the node when its first entry lacks the nonce", () => {
    const n = noncesFromDiffs([{ result: { pre: { [D]: { balance: "0x1" } as object }, post: {} } }], [D]);
    expect(n.has(D)).toBe(false);
  });
});
