import { describe, expect, it } from "vitest";
import { type CoinTx, coinChanges, minerProfit, tokenChanges, valueFrames } from "./replay.js";

const tx = (o: Partial<CoinTx> & { from: string }): CoinTx => ({
  to: null,
  value: 0n,
  failed: false,
  gasUsed: 21_000n,
  price: 10n,
  maxFeePerGas: null,
  maxPriorityFeePerGas: null,
  ...o,
});
const block = { miner: "m", baseFeePerGas: 7n };

describe("state changes: replay within a block", () => {
  it("pays the miner the priority fee: capped by what the max fee leaves above the base fee", () => {
    expect(minerProfit(tx({ from: "a", maxFeePerGas: 20n, maxPriorityFeePerGas: 2n }), block)).toBe(42_000n);
    expect(minerProfit(tx({ from: "a", maxFeePerGas: 8n, maxPriorityFeePerGas: 5n }), block)).toBe(21_000n);
    // Legacy: the gas price offers both; without a base fee the miner gets all of it.
    expect(minerProfit(tx({ from: "a", price: 10n }), block)).toBe(63_000n);
    expect(minerProfit(tx({ from: "a", price: 10n }), { miner: "m", baseFeePerGas: null })).toBe(210_000n);
  });

  it("replays the block's earlier transactions before this one; a failed one moves only its fee", () => {
    const first = tx({ from: "a", to: "b", value: 100n });
    const failed = tx({ from: "b", to: "c", value: 50n, failed: true });
    const own = tx({ from: "b", to: "c", value: 30n, price: 7n });
    const before = new Map<string, bigint | null>([
      ["b", 1_000_000n],
      ["c", 5n],
      ["m", 0n],
    ]);
    const changes = coinChanges(
      [first, failed, own].map((t) => ({ tx: t, frames: [] })),
      block,
      before,
    );
    const bBefore = 1_000_000n + 100n - 210_000n;
    expect(changes).toEqual([
      { address: "b", before: bBefore, after: bBefore - 30n - 147_000n, change: -147_030n, isMiner: false },
      { address: "c", before: 5n, after: 35n, change: 30n, isMiner: false },
      // The miner had 3 × 21,000 from the earlier two; this one paid it nothing above the base fee.
    ]);
    expect(changes.find((c) => c.address === "m")).toBeUndefined();
  });

  it("OP stack: a deposit's mint reaches its sender even when it reverts; others pay the L1 fee beside gas", () => {
    const deposit = tx({ from: "d", to: "e", value: 40n, price: 0n, mint: 100n });
    const reverted = tx({ from: "f", to: "e", value: 40n, price: 0n, mint: 7n, failed: true });
    const spend = tx({ from: "d", to: "e", value: 10n, price: 1n, extraFee: 500n });
    const before = new Map<string, bigint | null>([
      ["d", 0n],
      ["e", 0n],
      ["f", 0n],
      ["m", 0n],
    ]);
    const changes = coinChanges(
      [deposit, reverted, spend].map((t) => ({ tx: t, frames: [] })),
      { miner: "m", baseFeePerGas: 1n },
      before,
    );
    expect(changes).toEqual([
      { address: "d", before: 60n, after: 60n - 10n - 21_000n - 500n, change: -21_510n, isMiner: false },
      { address: "e", before: 40n, after: 50n, change: 10n, isMiner: false },
    ]);
    const alone = coinChanges([{ tx: reverted, frames: [] }], block, before);
    expect(alone).toEqual([{ address: "f", before: 0n, after: 7n, change: 7n, isMiner: false }]);
  });

  it("moves value of frames, not of delegatecalls nor of failed subtrees; unknown balances keep their change", () => {
    const frames = valueFrames([
      { callType: "call", from: "x", to: "y", value: 5n, error: null, traceAddress: [0] },
      { callType: "delegatecall", from: "x", to: "z", value: 9n, error: null, traceAddress: [1] },
      { callType: "call", from: "x", to: "w", value: 0n, error: "reverted", traceAddress: [2] },
      { callType: "call", from: "w", to: "v", value: 4n, error: null, traceAddress: [2, 0] },
      { callType: "call", from: "x", to: "u", value: 3n, error: null, traceAddress: [20] },
    ]);
    expect(frames).toEqual([
      { from: "x", to: "y", value: 5n },
      { from: "x", to: "u", value: 3n },
    ]);
    const own = tx({ from: "a", to: "x", value: 10n, price: 0n });
    const changes = coinChanges(
      [{ tx: own, frames }],
      block,
      new Map([
        ["x", null],
        ["y", 1n],
        ["u", 0n],
        ["a", 10n],
      ]),
    );
    expect(changes).toEqual([
      { address: "a", before: 10n, after: 0n, change: -10n, isMiner: false },
      { address: "u", before: 0n, after: 3n, change: 3n, isMiner: false },
      { address: "x", before: null, after: null, change: 2n, isMiner: false },
      { address: "y", before: 1n, after: 6n, change: 5n, isMiner: false },
    ]);
  });

  it("counts ERC-721 by ids, ERC-1155 per id, fungible by amount, after the block's earlier transfers", () => {
    const earlier = [{ token: "t", kind: "fungible" as const, id: null, from: "a", to: "b", amount: 4n }];
    const own = [
      { token: "t", kind: "fungible" as const, id: null, from: "b", to: "c", amount: 6n },
      { token: "n", kind: "erc721" as const, id: "7", from: "a", to: "b", amount: 1n },
      { token: "n", kind: "erc721" as const, id: "8", from: "a", to: "b", amount: 1n },
      { token: "e", kind: "id" as const, id: "1", from: "a", to: "b", amount: 5n },
    ];
    const changes = tokenChanges(
      earlier,
      own,
      new Map<string, bigint | null>([
        ["b|t|", 2n],
        ["c|t|", 0n],
        ["a|n|", 3n],
        ["b|n|", null],
        ["a|e|1", 5n],
        ["b|e|1", 0n],
      ]),
    );
    expect(Object.fromEntries(changes)).toEqual({
      "b|t|": { before: 6n, after: 0n, change: -6n },
      "c|t|": { before: 0n, after: 6n, change: 6n },
      "a|n|": { before: 3n, after: 1n, change: -2n },
      "b|n|": { before: null, after: null, change: 2n },
      "a|e|1": { before: 5n, after: 0n, change: -5n },
      "b|e|1": { before: 0n, after: 5n, change: 5n },
    });
  });
});
