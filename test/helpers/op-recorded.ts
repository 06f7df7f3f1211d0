/**
 * Recorded OP Mainnet transactions and receipts, and a small chain built around them for a JSON-RPC replay server
 * (test/explorer/op-receipts.test.ts): the L1 fee members anvil's receipts lack, as real nodes sent them.
 *
 * Where they come from (each MIT-licensed; the alloy crates are "MIT OR Apache-2.0"):
 * - wevm/viem, src/op-stack/formatters.test.ts (commit 0912a29d5c7abbea5238d6f7c3d750f07d479ace), Copyright (c)
 *   2023-present weth, LLC: the L1-attributes deposit 0x97f8e79b… of block 105847831 and the receipt of 0x4d8f0ebd… of
 *   block 106812538 (Bedrock: `l1FeeScalar` "0.684"). viem keeps them as formatted values (bigints, "eip1559"); here
 *   they are written back in the node's JSON-RPC form, value for value.
 * - alloy-rs/op-alloy, crates/rpc-types/src/receipt.rs (commit a93a08a021e80db8133f5f7fdccbb5639bc68d45), the
 *   op-alloy contributors: the receipt of the deposit 0xb7c74afd… of block 114290569, Ecotone members. Its
 *   `operatorFeeScalar`, `operatorFeeConstant` and `daFootprintGasScalar` of 0x1 were added by that test's authors
 *   (Isthmus/Jovian members), not recorded from the chain.
 * - alloy-rs/alloy, crates/rpc-types-any/src/transaction/receipt.rs (commit
 *   e1b4bf79c608e24728398b130a4ced0eb7dddb93), the alloy contributors: the receipt of 0x2bc7cb46… of block 121258977
 *   (Fjord: `l1BaseFeeScalar`, `l1BlobBaseFee`, `l1BlobBaseFeeScalar`, no `l1FeeScalar`).
 *
 * The MIT licence's permission notice: Permission is hereby granted, free of charge, to any person obtaining a copy of
 * this software and associated documentation files (the "Software"), to deal in the Software without restriction,
 * including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following
 * conditions: The above copyright notice and this permission notice shall be included in all copies or substantial
 * portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
 *
 * Generated here (`replayChain`): the three blocks that carry them (numbers 0-2, hashes, timestamps, base fees), the
 * transaction objects of the three receipts (from, to, type, gas price as their receipts say; inputs empty), the
 * receipt of the viem deposit, and each receipt's block hash, number and index rewritten to the block it is in.
 */
import { type Hex, keccak256, toHex } from "viem";
import type { RpcBlock, RpcReceipt, RpcTransaction } from "../../src/chain/types.js";

export const VIEM_DEPOSIT_TRANSACTION = {
  blockHash: "0x7c04fe001ea0efd91d5eea232e6936a2b94af8d238e56f0e025d264a55e65a58",
  blockNumber: "0x64f1c17",
  from: "0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001",
  gas: "0xf4240",
  gasPrice: "0x0",
  hash: "0x97f8e79b683df44ae2cc2e9f6eeebd2febdd6f0aeda71f184e6b297cbe7f620b",
  input:
    "0x015d8eb900000000000000000000000000000000000000000000000000000000010b62c6000000000000000000000000000000000000000000000000000000006492119f000000000000000000000000000000000000000000000000000000078e016aff6b099ac98f4d1e69a45ad7bccba81386deddee0569412aafb388d8c1510f9e0800000000000000000000000000000000000000000000000000000000000000020000000000000000000000006887246668a3b87f54deb3b94ba47a6f63f3298500000000000000000000000000000000000000000000000000000000000000bc00000000000000000000000000000000000000000000000000000000000a6fe0",
  mint: "0x0",
  nonce: "0x9599f",
  r: "0x0",
  s: "0x0",
  v: "0x0",
  sourceHash: "0x3fd7eb0bfa68ab126d745d17de615819430e1a6e922f65e5c06418569eb8dee1",
  to: "0x4200000000000000000000000000000000000015",
  transactionIndex: "0x0",
  type: "0x7e",
  value: "0x0",
} as const;

export const VIEM_BEDROCK_RECEIPT = {
  blockHash: "0x7f9f15ca4806d8f8deb2c73e82a2a153a2de668118e14e27a96cd672936449f0",
  blockNumber: "0x65dd47a",
  contractAddress: null,
  cumulativeGasUsed: "0x15d9bc",
  effectiveGasPrice: "0x3a",
  from: "0x24476ac81915c512b0e13207aa917923fba4a16a",
  gasUsed: "0x37d6f",
  l1Fee: "0x28a79c8eeb3f",
  l1FeeScalar: "0.684",
  l1GasPrice: "0x3a77534c2",
  l1GasUsed: "0x1044",
  logs: [
    {
      address: "0xdd69db25f6d620a7bad3023c5d32761d353d3de9",
      topics: [
        "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "0x00000000000000000000000024476ac81915c512b0e13207aa917923fba4a16a",
        "0x0000000000000000000000000000000000000000000000000000000000000000",
      ],
      data: "0x000000000000000000000000000000000000000000000000008e1bc9bf040000",
      logIndex: "0x13",
      blockHash: "0x7f9f15ca4806d8f8deb2c73e82a2a153a2de668118e14e27a96cd672936449f0",
      blockNumber: "0x65dd47a",
      transactionHash: "0x4d8f0ebd260ea5ac2e11886cdd0af8cba982b21d9f9c1efad808212c6d6a65d3",
      transactionIndex: "0xa",
      removed: false,
    },
    {
      address: "0x81e792e5a9003cc1c8bf5569a00f34b65d75b017",
      topics: ["0xdf21c415b78ed2552cc9971249e32a053abce6087a0ae0fbf3f78db5174a3493"],
      data: "0x000000000000000000000000000000000000000000000000000031a1add99f8b",
      logIndex: "0x14",
      blockHash: "0x7f9f15ca4806d8f8deb2c73e82a2a153a2de668118e14e27a96cd672936449f0",
      blockNumber: "0x65dd47a",
      transactionHash: "0x4d8f0ebd260ea5ac2e11886cdd0af8cba982b21d9f9c1efad808212c6d6a65d3",
      transactionIndex: "0xa",
      removed: false,
    },
    {
      address: "0x4d73adb72bc3dd368966edd0f0b2148401a178e2",
      topics: ["0xb0c632f55f1e1b3b2c3d82f41ee4716bb4c00f0f5d84cdafc141581bb8757a4f"],
      data: "0x00000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000002200010000000000000000000000000000000000000000000000000000000000030d40000000000000000000000000000000000000000000000000000000000000",
      logIndex: "0x15",
      blockHash: "0x7f9f15ca4806d8f8deb2c73e82a2a153a2de668118e14e27a96cd672936449f0",
      blockNumber: "0x65dd47a",
      transactionHash: "0x4d8f0ebd260ea5ac2e11886cdd0af8cba982b21d9f9c1efad808212c6d6a65d3",
      transactionIndex: "0xa",
      removed: false,
    },
    {
      address: "0xa0cc33dd6f4819d473226257792afe230ec3c67f",
      topics: ["0x4e41ee13e03cd5e0446487b524fdc48af6acf26c074dacdbdfb6b574b42c8146"],
      data: "0x000000000000000000000000000000000000000000000000000000000000009a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000014000000000000000000000000dd69db25f6d620a7bad3023c5d32761d353d3de90000000000000000000000000000000000000000000000000000000124c9d6c5",
      logIndex: "0x16",
      blockHash: "0x7f9f15ca4806d8f8deb2c73e82a2a153a2de668118e14e27a96cd672936449f0",
      blockNumber: "0x65dd47a",
      transactionHash: "0x4d8f0ebd260ea5ac2e11886cdd0af8cba982b21d9f9c1efad808212c6d6a65d3",
      transactionIndex: "0xa",
      removed: false,
    },
    {
      address: "0x4d73adb72bc3dd368966edd0f0b2148401a178e2",
      topics: ["0xe9bded5f24a4168e4f3bf44e00298c993b22376aad8c58c7dda9718a54cbea82"],
      data: "0x000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000d40000000000049d1a006fdd69db25f6d620a7bad3023c5d32761d353d3de9009a4f7a67464b5976d7547c860109e4432d50afb38e00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000008e1bc9bf040000000000000000000000000000000000000000000000000000000000000000001424476ac81915c512b0e13207aa917923fba4a16a000000000000000000000000000000000000000000000000",
      logIndex: "0x17",
      blockHash: "0x7f9f15ca4806d8f8deb2c73e82a2a153a2de668118e14e27a96cd672936449f0",
      blockNumber: "0x65dd47a",
      transactionHash: "0x4d8f0ebd260ea5ac2e11886cdd0af8cba982b21d9f9c1efad808212c6d6a65d3",
      transactionIndex: "0xa",
      removed: false,
    },
    {
      address: "0xdd69db25f6d620a7bad3023c5d32761d353d3de9",
      topics: [
        "0x39a4c66499bcf4b56d79f0dde8ed7a9d4925a0df55825206b2b8531e202be0d0",
        "0x000000000000000000000000000000000000000000000000000000000000009a",
        "0x00000000000000000000000024476ac81915c512b0e13207aa917923fba4a16a",
      ],
      data: "0x0000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000008e1bc9bf040000000000000000000000000000000000000000000000000000000000000000001424476ac81915c512b0e13207aa917923fba4a16a000000000000000000000000",
      logIndex: "0x18",
      blockHash: "0x7f9f15ca4806d8f8deb2c73e82a2a153a2de668118e14e27a96cd672936449f0",
      blockNumber: "0x65dd47a",
      transactionHash: "0x4d8f0ebd260ea5ac2e11886cdd0af8cba982b21d9f9c1efad808212c6d6a65d3",
      transactionIndex: "0xa",
      removed: false,
    },
  ],
  logsBloom:
    "0x00000000000000004000000000000000000040000000021000000000000010102000000000000000000080000010000000000000000000000000000000000000004000000000000000000008000008000000000000000000000000000000000000040000060000000080100000000800000000000000000000000010000100000000000400000000000000000000000000000000280000000000000000000000000000004000020000000004000000008000000000000000000000000010000000001002000008000000000000000000000000000000000000000000000020001000800000000000000000002000100000010000000000000000000000000000",
  status: "0x1",
  to: "0xdd69db25f6d620a7bad3023c5d32761d353d3de9",
  transactionHash: "0x4d8f0ebd260ea5ac2e11886cdd0af8cba982b21d9f9c1efad808212c6d6a65d3",
  transactionIndex: "0xa",
  type: "0x2",
} as const;

export const OP_ALLOY_ECOTONE_DEPOSIT_RECEIPT = {
  blockHash: "0x9e6a0fb7e22159d943d760608cc36a0fb596d1ab3c997146f5b7c55c8c718c67",
  blockNumber: "0x6cfef89",
  contractAddress: null,
  cumulativeGasUsed: "0xfa0d",
  depositNonce: "0x8a2d11",
  effectiveGasPrice: "0x0",
  from: "0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001",
  gasUsed: "0xfa0d",
  logs: [],
  logsBloom:
    "0x00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
  status: "0x1",
  to: "0x4200000000000000000000000000000000000015",
  transactionHash: "0xb7c74afdeb7c89fb9de2c312f49b38cb7a850ba36e064734c5223a477e83fdc9",
  transactionIndex: "0x0",
  type: "0x7e",
  l1GasPrice: "0x3ef12787",
  l1GasUsed: "0x1177",
  l1Fee: "0x5bf1ab43d",
  l1BaseFeeScalar: "0x1",
  l1BlobBaseFee: "0x600ab8f05e64",
  l1BlobBaseFeeScalar: "0x1",
  operatorFeeScalar: "0x1",
  operatorFeeConstant: "0x1",
  daFootprintGasScalar: "0x1",
} as const;

export const ALLOY_FJORD_RECEIPT = {
  status: "0x1",
  cumulativeGasUsed: "0xf1740",
  logs: [
    {
      address: "0x4200000000000000000000000000000000000006",
      topics: [
        "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "0x0000000000000000000000005112996d3ae99f0b5360cea1a620ffcd78e8ff83",
        "0x00000000000000000000000077e7c5cbeaad915cf5462064b02984e16a902e67",
      ],
      data: "0x000000000000000000000000000000000000000000000000001c66f6e8b40c00",
      blockHash: "0x88e07a0d797b84bd122d6993a6faf5a59ada7f40c181c553c191dd400d3d1583",
      blockNumber: "0x73a43e1",
      transactionHash: "0x2bc7cb4648e847712e39abd42178e35214a70bb15c568d604687661b9539b4c2",
      transactionIndex: "0x9",
      logIndex: "0x16",
      removed: false,
    },
  ],
  logsBloom:
    "0x00000000000000000000000000000000000000000000000000040000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000000000008000000100000000000000000100000000000000000000010000020000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000002000000000000000000001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
  type: "0x0",
  transactionHash: "0x2bc7cb4648e847712e39abd42178e35214a70bb15c568d604687661b9539b4c2",
  transactionIndex: "0x9",
  blockHash: "0x88e07a0d797b84bd122d6993a6faf5a59ada7f40c181c553c191dd400d3d1583",
  blockNumber: "0x73a43e1",
  gasUsed: "0x85b9",
  effectiveGasPrice: "0x3ac9e84",
  from: "0x5112996d3ae99f0b5360cea1a620ffcd78e8ff83",
  to: "0x4200000000000000000000000000000000000006",
  contractAddress: null,
  l1BaseFeeScalar: "0x558",
  l1BlobBaseFee: "0x1",
  l1BlobBaseFeeScalar: "0xc5fc5",
  l1Fee: "0x105d4b2024",
  l1GasPrice: "0x5d749a07e",
  l1GasUsed: "0x800",
} as const;

type Json = Record<string, unknown>;
const hashOf = (label: string) => keccak256(toHex(`lookout-op-replay-${label}`));
const q = (n: number | bigint) => toHex(n);

export type ReplayChain = { chainId: number; blocks: RpcBlock[]; receipts: RpcReceipt[][] };

/** A transaction object for a recorded receipt whose transaction was not recorded (what its receipt tells). */
function txFor(r: Json, extra: Json = {}): Json {
  return {
    hash: r.transactionHash,
    from: r.from,
    to: r.to,
    type: r.type,
    gas: q(BigInt(r.gasUsed as Hex) * 2n),
    gasPrice: r.effectiveGasPrice,
    value: "0x0",
    input: "0x",
    nonce: "0x0",
    ...extra,
  };
}

/** Three blocks of OP Mainnet chain id 10: an empty one, then two holding a deposit and a recorded receipt each. */
export function replayChain(): ReplayChain {
  const depositReceipt: Json = {
    type: "0x7e",
    status: "0x1",
    cumulativeGasUsed: "0xb1b5",
    gasUsed: "0xb1b5",
    effectiveGasPrice: "0x0",
    from: VIEM_DEPOSIT_TRANSACTION.from,
    to: VIEM_DEPOSIT_TRANSACTION.to,
    contractAddress: null,
    depositNonce: VIEM_DEPOSIT_TRANSACTION.nonce,
    logs: [],
    transactionHash: VIEM_DEPOSIT_TRANSACTION.hash,
  };
  const content: Array<Array<{ tx: Json; receipt: Json }>> = [
    [],
    [
      { tx: { ...VIEM_DEPOSIT_TRANSACTION }, receipt: depositReceipt },
      {
        tx: txFor(VIEM_BEDROCK_RECEIPT, { maxFeePerGas: "0x3a", maxPriorityFeePerGas: "0x8" }),
        receipt: VIEM_BEDROCK_RECEIPT,
      },
    ],
    [
      {
        tx: txFor(OP_ALLOY_ECOTONE_DEPOSIT_RECEIPT, {
          gas: "0xf4240",
          gasPrice: "0x0",
          mint: "0x0",
          sourceHash: hashOf("source-2-0"),
          nonce: OP_ALLOY_ECOTONE_DEPOSIT_RECEIPT.depositNonce,
        }),
        receipt: OP_ALLOY_ECOTONE_DEPOSIT_RECEIPT,
      },
      { tx: txFor(ALLOY_FJORD_RECEIPT), receipt: ALLOY_FJORD_RECEIPT },
    ],
  ];
  const baseFees = [null, 0x32n, 0x3ac9e00n];
  const blocks: RpcBlock[] = [];
  const receipts: RpcReceipt[][] = [];
  content.forEach((items, n) => {
    const hash = hashOf(`block-${n}`);
    const where = { blockHash: hash, blockNumber: q(n) };
    const txs = items.map(({ tx }, i) => ({ ...tx, ...where, transactionIndex: q(i) }));
    const rs: Json[] = items.map(({ receipt }, i) => ({
      ...receipt,
      ...where,
      transactionIndex: q(i),
      logs: ((receipt.logs as Json[]) ?? []).map((l) => ({ ...l, ...where, transactionIndex: q(i) })),
    }));
    const gasUsed = rs.reduce((s, r) => s + BigInt(r.gasUsed as Hex), 0n);
    blocks.push({
      number: q(n),
      hash,
      parentHash: n === 0 ? `0x${"0".repeat(64)}` : blocks[n - 1]!.hash,
      timestamp: q(1_700_000_000 + 2 * n),
      miner: "0x4200000000000000000000000000000000000011",
      gasUsed: q(gasUsed),
      gasLimit: q(30_000_000),
      ...(baseFees[n] == null ? {} : { baseFeePerGas: q(baseFees[n]!) }),
      size: q(1000),
      nonce: "0x0000000000000000",
      difficulty: "0x0",
      extraData: "0x",
      stateRoot: hashOf(`state-${n}`),
      uncles: [],
      withdrawals: [],
      transactions: txs as unknown as RpcTransaction[],
    } as RpcBlock);
    receipts.push(rs as unknown as RpcReceipt[]);
  });
  return { chainId: 10, blocks, receipts };
}
