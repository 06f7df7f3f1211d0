import type { Address, Hash } from "viem";
import { describe, expect, it } from "vitest";
import type { PrestateDiffTrace } from "../../../chain/types.js";
import { balanceRows, changesFromPrestate } from "./derive.js";

const A = "0x00000000000000000000000000000000000000aa" as Address;
const B = "0x00000000000000000000000000000000000000bb" as Address;
const C = "0x00000000000000000000000000000000000000cc" as Address;
const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hash;
const hex = (n: bigint) => `0x${n.toString(16)}` as const;

describe("changesFromPrestate", () => {
  it("keeps the first pre and last post balance and the last changing transaction", () => {
    const traces: PrestateDiffTrace[] = [
      {
        txHash: tx(1),
        result: { pre: { [A]: { balance: hex(100n) } }, post: { [A]: { balance: hex(90n) } } },
      },
      // Nonce-only change: balance absent from post means unchanged; not an attribution.
      { txHash: tx(2), result: { pre: { [A]: { balance: hex(90n) } }, post: { [A]: {} } } },
      {
        txHash: tx(3),
        result: { pre: { [A]: { balance: hex(90n) } }, post: { [A]: { balance: hex(70n) } } },
      },
    ];
    expect(changesFromPrestate(traces).get(A)).toEqual({ start: 100n, end: 70n, tx: tx(3) });
  });

  it("treats an account missing from post as deleted and one missing from pre as new", () => {
    const traces: PrestateDiffTrace[] = [
      {
        txHash: tx(7),
        result: { pre: { [B]: { balance: hex(3000n) } }, post: { [C]: { balance: hex(3000n) } } },
      },
    ];
    const m = changesFromPrestate(traces);
    expect(m.get(B)).toEqual({ start: 3000n, end: 0n, tx: tx(7) });
    expect(m.get(C)).toEqual({ start: 0n, end: 3000n, tx: tx(7) });
  });

  it("lower-cases addresses and ignores unchanged balances", () => {
    const upper = "0x00000000000000000000000000000000000000AA";
    const m = changesFromPrestate([
      {
        txHash: tx(1),
        result: { pre: { [upper]: { balance: "0x5" } }, post: { [upper]: { balance: "0x5" } } },
      },
    ]);
    expect(m.size).toBe(0);
  });
});

describe("balanceRows", () => {
  const block = { number: 12, timestamp: 1_700_000_000 };
  it("lets read balances override trace values (rewards, withdrawals) but keeps the attribution", () => {
    const fromTxs = new Map([[A, { start: 100n, end: 90n, tx: tx(1) }]]);
    const rows = balanceRows(block, fromTxs, [
      { address: A, value: 95n, previous: 100n },
      { address: B, value: 50n, previous: 20n },
      { address: C, value: 5n, previous: 5n },
    ]);
    expect(rows).toEqual([
      {
        address: A,
        blockNumber: 12,
        value: "95",
        delta: "-5",
        transactionHash: tx(1),
        timestamp: 1_700_000_000,
      },
      {
        address: B,
        blockNumber: 12,
        value: "50",
        delta: "30",
        transactionHash: null,
        timestamp: 1_700_000_000,
      },
    ]);
  });

  it("uses inferred attribution in fallback mode and drops zero changes", () => {
    const rows = balanceRows(
      block,
      new Map(),
      [
        { address: A, value: 1n, previous: 2n },
        { address: B, value: 7n, previous: 7n },
      ],
      new Map([[A, tx(9)]]),
    );
    expect(rows.map((r) => [r.address, r.delta, r.transactionHash])).toEqual([[A, "-1", tx(9)]]);
  });
});
