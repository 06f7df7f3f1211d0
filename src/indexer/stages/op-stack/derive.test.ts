import type { Address, Hash, Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { FetchedBlock, RpcReceipt, RpcTransaction } from "../../../chain/types.js";
import { deriveOpRows } from "./derive.js";

const h = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hash;
const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const q = (n: number | bigint) => `0x${n.toString(16)}` as Hex;

function block(txs: Array<{ tx: Partial<RpcTransaction>; receipt?: Partial<RpcReceipt> }>): FetchedBlock {
  const transactions = txs.map(({ tx }, i) => ({
    hash: h(i + 1),
    blockNumber: q(7),
    transactionIndex: q(i),
    from: a(1),
    to: a(2),
    value: "0x0" as Hex,
    nonce: "0x0" as Hex,
    gas: q(21000),
    input: "0x" as Hex,
    ...tx,
  }));
  const receipts = txs.map(({ receipt }, i) => ({
    transactionHash: h(i + 1),
    transactionIndex: q(i),
    blockHash: h(99),
    gasUsed: q(21000),
    cumulativeGasUsed: q(21000),
    logs: [],
    ...receipt,
  }));
  return {
    block: {
      number: q(7),
      hash: h(99),
      parentHash: h(98),
      timestamp: q(1),
      miner: a(0x11),
      gasUsed: q(0),
      gasLimit: q(0),
      transactions,
    },
    receipts,
    calls: null,
    extra: {},
  };
}

describe("OP-stack rows of a batch", () => {
  it("writes nothing for a chain of another family", () => {
    expect(deriveOpRows([block([{ tx: { type: "0x2" } }, { tx: {} }])], false)).toEqual([]);
  });

  it("keeps a deposit's source hash, mint and system flag as op-geth (true or absent) and anvil (a quantity) send it", () => {
    const rows = deriveOpRows(
      [
        block([
          {
            tx: { type: "0x7e", sourceHash: h(5), mint: q(10n ** 18n), isSystemTx: true },
            receipt: { depositNonce: q(9) },
          },
          { tx: { type: "0x7e", sourceHash: h(6) }, receipt: { type: "0x7E" } as Partial<RpcReceipt> },
          { tx: { type: "0x7e", sourceHash: h(7), mint: q(5), isSystemTx: "0x1" } },
        ]),
      ],
      false,
    );
    expect(rows.map((r) => [r.isDeposit, r.sourceHash, r.mint, r.isSystemTx, r.depositNonce])).toEqual([
      [true, h(5), (10n ** 18n).toString(), true, "9"],
      [true, h(6), "0", false, null],
      [true, h(7), "5", true, null],
    ]);
  });

  it("keeps the L1 fee members of a receipt, a malformed one out rather than stopping", () => {
    const [row] = deriveOpRows(
      [
        block([
          {
            tx: { type: "0x2" },
            receipt: {
              l1Fee: "0x28a79c8eeb3f",
              l1FeeScalar: "0.684",
              l1GasPrice: "0x3a77534c2",
              l1GasUsed: "not a quantity" as Hex,
              l1BaseFeeScalar: "0x558",
            },
          },
        ]),
      ],
      false,
    );
    expect(row).toMatchObject({
      isDeposit: false,
      l1Fee: "44700351261503",
      l1FeeScalar: "0.684",
      l1GasPrice: "15694378178",
      l1GasUsed: null,
      l1BaseFeeScalar: "1368",
      mint: null,
      isSystemTx: null,
    });
    const [weird] = deriveOpRows([block([{ tx: {}, receipt: { l1FeeScalar: "1e5" } }])], false);
    expect(weird?.l1FeeScalar).toBeNull();
  });

  it("gives every transaction of a known OP chain its row (the page's L1 fee members)", () => {
    expect(deriveOpRows([block([{ tx: { type: "0x2" } }, { tx: {} }])], true).length).toBe(2);
  });
});
