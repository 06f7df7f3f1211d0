import type { Address, Hash, Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { FetchedBlock } from "../../../chain/types.js";
import { creditedOutsideTransactions, touchedByTransactions } from "./touched.js";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const h = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hash;
const q = (n: number) => `0x${n.toString(16)}` as Hex;

function block(): FetchedBlock {
  const tx = (i: number, from: Address, to: Address | null, value: number) => ({
    hash: h(i),
    blockNumber: q(5),
    transactionIndex: q(i),
    from,
    to,
    value: q(value),
    nonce: q(0),
    gas: q(100000),
    input: "0x" as Hex,
  });
  const receipt = (i: number, status: number, contractAddress: Address | null = null) => ({
    transactionHash: h(i),
    transactionIndex: q(i),
    blockHash: h(99),
    status: q(status),
    gasUsed: q(21000),
    cumulativeGasUsed: q(21000),
    effectiveGasPrice: q(2),
    contractAddress,
    logs: [],
  });
  return {
    block: {
      number: q(5),
      hash: h(99),
      parentHash: h(98),
      timestamp: q(1),
      miner: addr(0xfee),
      gasUsed: q(0),
      gasLimit: q(0),
      baseFeePerGas: q(1),
      transactions: [tx(1, addr(1), addr(2), 10), tx(2, addr(3), addr(4), 10), tx(3, addr(1), null, 5)],
      withdrawals: [{ index: q(0), validatorIndex: q(0), address: addr(0x77), amount: q(1) }],
    },
    receipts: [receipt(1, 1), receipt(2, 0), receipt(3, 1, addr(0xc0))],
    calls: [
      {
        type: "CALL",
        from: addr(1),
        to: addr(2),
        value: q(10),
        calls: [
          { type: "CALL", from: addr(2), to: addr(8), value: q(4) },
          { type: "CALL", from: addr(2), to: addr(9), value: q(4), error: "reverted" },
        ],
      },
      { type: "CALL", from: addr(3), to: addr(4), value: q(10) },
      { type: "CREATE", from: addr(1), to: addr(0xc0), value: q(5) },
    ],
    extra: {},
  };
}

describe("touchedByTransactions (fallback attribution)", () => {
  it("maps senders, recipients, internal transfers, creations and the fee recipient to their last transaction", () => {
    const m = touchedByTransactions(block());
    expect(m.get(addr(1))).toBe(h(3));
    expect(m.get(addr(2))).toBe(h(1));
    expect(m.get(addr(8))).toBe(h(1));
    expect(m.has(addr(9))).toBe(false); // failed internal call
    expect(m.get(addr(3))).toBe(h(2)); // failed transaction: fees
    expect(m.has(addr(4))).toBe(false); // value of a failed transaction never arrived
    expect(m.get(addr(0xc0))).toBe(h(3));
    expect(m.get(addr(0xfee))).toBe(h(3));
  });

  it("lists the fee recipient and withdrawal recipients as credited outside transactions", () => {
    expect(creditedOutsideTransactions(block())).toEqual([addr(0xfee), addr(0x77)]);
  });
});
