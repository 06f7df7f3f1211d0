import { describe, expect, it } from "vitest";
import type { FetchedBlock, RpcBlock } from "../../../chain/types.js";
import { deriveWithdrawals } from "./extension.js";

const block = (number: number, withdrawals: RpcBlock["withdrawals"]): FetchedBlock =>
  ({
    block: { number: `0x${number.toString(16)}`, withdrawals } as RpcBlock,
    receipts: [],
    calls: null,
    extra: {},
  }) as FetchedBlock;

describe("withdrawals", () => {
  it("turns the node's gwei amounts into wei and keeps the global and validator indexes", () => {
    const rows = deriveWithdrawals([
      block(17034870, [
        // Shapes as mainnet's first withdrawal block gives them (amounts in gwei, hex quantities).
        {
          index: "0x0",
          validatorIndex: "0x4fb4",
          address: "0x8ae6d3d4c4a9e3b4f3ba6b1e8a8f5fd1d3c3a4c0",
          amount: "0xa3f2b7",
        },
        {
          index: "0x1",
          validatorIndex: "0x4fb5",
          address: "0x8ae6d3d4c4a9e3b4f3ba6b1e8a8f5fd1d3c3a4c0",
          amount: "0x1bf08eb000",
        },
      ]),
      block(17034871, undefined),
    ]);
    expect(rows).toEqual([
      {
        blockNumber: 17034870,
        index: "0",
        validatorIndex: "20404",
        address: "0x8ae6d3d4c4a9e3b4f3ba6b1e8a8f5fd1d3c3a4c0",
        amount: (0xa3f2b7n * 10n ** 9n).toString(),
      },
      {
        blockNumber: 17034870,
        index: "1",
        validatorIndex: "20405",
        address: "0x8ae6d3d4c4a9e3b4f3ba6b1e8a8f5fd1d3c3a4c0",
        // 120 ETH: a full exit
        amount: (120n * 10n ** 18n).toString(),
      },
    ]);
  });
});
