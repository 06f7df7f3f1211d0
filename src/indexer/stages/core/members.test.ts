import { describe, expect, it } from "vitest";
import type { FetchedBlock, RpcBlock, RpcReceipt, RpcTransaction } from "../../../chain/types.js";
import { deriveCoreRows } from "./derive.js";
import { unknownMembers } from "./members.js";

const HASH = `0x${"aa".repeat(32)}` as const;
const BLOCK = `0x${"bb".repeat(32)}` as const;

describe("members Lookout does not know", () => {
  it("keeps the unknown members of a transaction and its receipt, nothing for known ones", () => {
    const tx = {
      hash: HASH,
      type: "0x2",
      nonce: "0x1",
      gas: "0x5208",
      blobs: ["0x00"],
      mint: "0x5",
      sealHash: "0x7",
    };
    const receipt = {
      transactionHash: HASH,
      status: "0x1",
      logs: [],
      l1Fee: "0x10",
      depositNonce: "0x3",
      rollupFee: "0x10",
      sealIndex: "0x3",
    };
    expect(unknownMembers(tx as unknown as RpcTransaction, receipt as unknown as RpcReceipt)).toEqual({
      // OP-stack members are known (the op-stack stage keeps them); invented ones are kept as they came.
      transaction: { sealHash: "0x7" },
      receipt: { rollupFee: "0x10", sealIndex: "0x3" },
    });
    expect(
      unknownMembers({ hash: HASH } as unknown as RpcTransaction, { logs: [] } as unknown as RpcReceipt),
    ).toBeNull();
  });

  it("stores a transaction of an unknown type that lacks the members every known type has", () => {
    // Only what identifies it: no nonce, value, gas, input, price; a receipt without gas figures or logs.
    const tx = {
      hash: HASH,
      type: "0x55",
      from: "0x00000000000000000000000000000000000000aa",
      payload: "0x01",
    };
    const receipt = { transactionHash: HASH, blockHash: BLOCK, status: "0x1" };
    const block = {
      number: "0x5",
      hash: BLOCK,
      parentHash: BLOCK,
      timestamp: "0x1",
      miner: "0x00000000000000000000000000000000000000bb",
      gasUsed: "0x0",
      gasLimit: "0x1c9c380",
      transactions: [tx],
    } as unknown as RpcBlock;
    const fetched: FetchedBlock = {
      block,
      receipts: [receipt as unknown as RpcReceipt],
      calls: null,
      extra: {},
    };
    const rows = deriveCoreRows([fetched]);
    expect(rows.transactions[0]).toMatchObject({
      type: 0x55,
      nonce: 0,
      value: "0",
      gas: "0",
      input: "0x",
      gasUsed: "0",
      to: null,
      unknownMembers: JSON.stringify({ transaction: { payload: "0x01" } }),
    });
    expect(rows.blocks[0]).toMatchObject({
      transactionCount: 1,
      blobTransactionCount: 0,
      blobGasPrice: null,
    });
  });
});
