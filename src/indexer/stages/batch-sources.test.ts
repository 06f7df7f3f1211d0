import { describe, expect, it } from "vitest";
import type { CallFrame, FetchedBlock } from "../../chain/types.js";
import { committedFact } from "../pipeline/committed-fact.js";
import { mayCreateContracts } from "./core/derive.js";
import { rowSourcesOf } from "./counters/extension.js";
import { daySourcesOf } from "./stats/extension.js";

const A = `0x${"11".repeat(20)}` as const;
const B = `0x${"22".repeat(20)}` as const;

/** A block of transactions from A (to B unless `to` says otherwise), with their receipts and call roots. */
function block(
  txs: Array<{ to?: `0x${string}` | null; logs?: number; call?: CallFrame; authorizations?: number }>,
  extra: Partial<FetchedBlock> & { withdrawals?: number } = {},
): FetchedBlock {
  const { withdrawals, ...rest } = extra;
  return {
    block: {
      number: "0x1",
      transactions: txs.map((t) => ({
        from: A,
        to: t.to === undefined ? B : t.to,
        ...(t.authorizations ? { authorizationList: Array(t.authorizations).fill({}) } : {}),
      })),
      ...(withdrawals ? { withdrawals: Array(withdrawals).fill({}) } : {}),
    },
    receipts: txs.map((t) => ({ logs: Array(t.logs ?? 0).fill({}) })),
    calls: txs.map((t) => t.call ?? { type: "CALL", from: A, to: B }),
    extra: {},
    ...rest,
  } as unknown as FetchedBlock;
}

const transfer = block([{}]);

describe("what a batch can have rows in (the statements it can skip)", () => {
  it("a plain transfer has transactions and nothing else", () => {
    expect(rowSourcesOf([transfer])).toEqual({
      transactions: true,
      creations: false,
      logs: false,
      internals: false,
      withdrawals: false,
    });
    expect(daySourcesOf([transfer])).toEqual({
      transactions: true,
      creations: false,
      authorizations: false,
      rewards: false,
    });
    expect(mayCreateContracts([transfer])).toBe(false);
    expect(rowSourcesOf([block([])]).transactions).toBe(false);
  });

  it("finds a creation by a transaction or deep in a call tree", () => {
    expect(mayCreateContracts([transfer, block([{ to: null }])])).toBe(true);
    const deep: CallFrame = {
      type: "CALL",
      from: A,
      to: B,
      calls: [{ type: "STATICCALL", from: B, to: A, calls: [{ type: "CREATE2", from: A, to: B }] }],
    };
    expect(mayCreateContracts([block([{ call: deep }])])).toBe(true);
    expect(daySourcesOf([block([{ call: deep }])]).creations).toBe(true);
    // The counters' own creation member reads transactions.contract_address: only a transaction's creation.
    expect(rowSourcesOf([block([{ call: deep }])]).creations).toBe(false);
    expect(rowSourcesOf([block([{ to: null }])]).creations).toBe(true);
  });

  it("sees internal transactions, logs, withdrawals, authorizations and rewards", () => {
    const nested: CallFrame = { type: "CALL", from: A, to: B, calls: [{ type: "CALL", from: B, to: A }] };
    expect(rowSourcesOf([block([{ call: nested }])]).internals).toBe(true);
    expect(rowSourcesOf([block([{ call: { type: "CREATE", from: A, to: B } }])]).internals).toBe(true);
    expect(rowSourcesOf([block([{ logs: 2 }])]).logs).toBe(true);
    expect(rowSourcesOf([block([], { withdrawals: 1 })]).withdrawals).toBe(true);
    expect(daySourcesOf([block([{ authorizations: 1 }])]).authorizations).toBe(true);
    expect(
      daySourcesOf([block([], { rewards: [{ address: A, type: "block", reward: "0x1" }] } as never)]).rewards,
    ).toBe(true);
    // Without traces nothing is known of the calls: no internal transactions are written then either.
    expect(rowSourcesOf([block([{}], { calls: null })]).internals).toBe(false);
  });
});

describe("a fact believed once its batch commits", () => {
  it("is known after the commit of the batch that wrote it, not after a rollback or another batch's commit", () => {
    const fact = committedFact<number>();
    fact.wrote(10, 7);
    expect(fact.value()).toBeUndefined();
    // Another batch committed (history beside the head): not this write.
    fact.committed(5);
    expect(fact.value()).toBeUndefined();
    // The write's transaction rolled back; the retry commits.
    fact.wrote(10, 7);
    fact.committed(10);
    expect(fact.value()).toBe(7);
    fact.wrote(11, 8);
    fact.forget();
    fact.committed(11);
    expect(fact.value()).toBeUndefined();
  });
});
