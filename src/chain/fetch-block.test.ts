import { describe, expect, it } from "vitest";
import { deriveBlockRewards } from "../indexer/stages/block-rewards/extension.js";
import { parityToCalls } from "./fetch-block.js";
import type { FetchedBlock, ParityTrace, RpcTransaction } from "./types.js";

const A = "0x00000000000000000000000000000000000000a1";
const B = "0x00000000000000000000000000000000000000b2";
const C = "0x00000000000000000000000000000000000000c3";
const MINER = "0x00000000000000000000000000000000000000ee";
const tx = (hash: string) => ({ hash }) as RpcTransaction;

// The shapes OpenEthereum/Nethermind/Erigon give in trace_block (anvil's own answer is compared with its callTracer
// in test/explorer-indexing.test.ts; these cover what anvil never produces: rewards, calls after a suicide).
const traces: ParityTrace[] = [
  {
    type: "call",
    action: { from: A, to: B, value: "0x10", gas: "0x5208", input: "0x", callType: "call" },
    result: { gasUsed: "0x100", output: "0x" },
    transactionPosition: 0,
    traceAddress: [],
  },
  {
    type: "create",
    action: { from: B, value: "0x0", gas: "0x100", init: "0x6000", creationMethod: "create2" },
    result: { address: C, code: "0x00", gasUsed: "0x50" },
    transactionPosition: 0,
    traceAddress: [0],
  },
  {
    type: "call",
    action: { from: C, to: A, value: "0x0", gas: "0x10", input: "0xabcd", callType: "staticcall" },
    error: "Reverted",
    result: null,
    transactionPosition: 0,
    traceAddress: [0, 0],
  },
  {
    type: "suicide",
    action: { address: B, refundAddress: A, balance: "0x7" },
    result: null,
    transactionPosition: 0,
    traceAddress: [1],
  },
  {
    type: "create",
    action: { from: A, value: "0x1", gas: "0x100", init: "0x60" },
    error: "Out of gas",
    result: null,
    transactionPosition: 1,
    traceAddress: [],
  },
  {
    type: "reward",
    action: { author: MINER, value: "0x1bc16d674ec80000", rewardType: "block" },
    traceAddress: [],
  },
  { type: "reward", action: { author: MINER, value: "0x10", rewardType: "uncle" }, traceAddress: [] },
];

describe("trace_block conversion", () => {
  it("rebuilds each transaction's call tree by trace address and keeps the rewards", () => {
    const { calls, rewards } = parityToCalls(traces, [tx("0x01"), tx("0x02")]);
    expect(calls).toEqual([
      {
        type: "CALL",
        from: A,
        to: B,
        value: "0x10",
        gas: "0x5208",
        gasUsed: "0x100",
        input: "0x",
        output: "0x",
        calls: [
          {
            type: "CREATE2",
            from: B,
            to: C,
            value: "0x0",
            gas: "0x100",
            gasUsed: "0x50",
            input: "0x6000",
            output: "0x00",
            calls: [
              {
                type: "STATICCALL",
                from: C,
                to: A,
                value: "0x0",
                gas: "0x10",
                input: "0xabcd",
                error: "Reverted",
              },
            ],
          },
          { type: "SELFDESTRUCT", from: B, to: A, value: "0x7" },
        ],
      },
      { type: "CREATE", from: A, value: "0x1", gas: "0x100", input: "0x60", error: "Out of gas" },
    ]);
    expect(rewards).toEqual([
      { address: MINER, type: "block", value: "0x1bc16d674ec80000" },
      { address: MINER, type: "uncle", value: "0x10" },
    ]);
    const rows = deriveBlockRewards([{ block: { number: "0x5" }, rewards } as unknown as FetchedBlock]);
    expect(rows).toEqual([
      { blockNumber: 5, address: MINER, type: "block", reward: "2000000000000000000" },
      { blockNumber: 5, address: MINER, type: "uncle", reward: "16" },
    ]);
  });

  it("refuses an answer whose traces do not form trees", () => {
    expect(() => parityToCalls([traces[2]!], [tx("0x01")])).toThrow(/before its parent/);
    expect(() => parityToCalls(traces.slice(0, 4), [tx("0x01"), tx("0x02")])).toThrow(/no top-level trace/);
  });
});
