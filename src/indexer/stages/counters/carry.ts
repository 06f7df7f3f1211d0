import type { FetchedBlock } from "../../../chain/types.js";
import { toBytea } from "../../../db/bytes.js";
import { coreRowsOf } from "../core/extension.js";
import { tokenLogsOf } from "../core/token-logs.js";
import { balanceChangesOfBlock, internalTransactionsOf } from "../stage-data.js";

/** One address's facts over the carried batches: what it adds to each counter, and the least block it is seen in. */
type Facts = {
  txs: number;
  created: number;
  transfers: number;
  gas: bigint;
  gasIn: bigint;
  validations: number;
  internals: number;
  logs: number;
  withdrawals: number;
  block: number;
};

/** Per address (lower-case 0x-hex), its facts: the sums `facts` (sql.ts) gives for the same blocks, in memory. */
export type AddressFacts = Map<string, Facts>;

const lower = (a: string) => a.toLowerCase();

/**
 * Adds the batch's address facts to `into` (a new map when undefined), from the rows the other stages write for it,
 * with the meanings of `addressFacts` and the balance sightings in sql.ts, term by term (test/indexer/
 * trailing-stages.test.ts compares the two on a chain with every kind of row). Pure but for `into`.
 */
export function foldAddressFacts(
  into: AddressFacts | undefined,
  batch: readonly FetchedBlock[],
): AddressFacts {
  const facts: AddressFacts = into ?? new Map();
  /** The facts of `key` (a lower-case address). */
  const at = (key: string, block: number): Facts => {
    let f = facts.get(key);
    if (!f) {
      f = {
        txs: 0,
        created: 0,
        transfers: 0,
        gas: 0n,
        gasIn: 0n,
        validations: 0,
        internals: 0,
        logs: 0,
        withdrawals: 0,
        block,
      };
      facts.set(key, f);
    } else if (block < f.block) f.block = block;
    return f;
  };
  for (const fetched of batch) {
    const blockNumber = Number(fetched.block.number);
    const core = coreRowsOf(fetched);
    for (const b of core.blocks) at(lower(b.miner), b.number).validations++;
    for (const t of core.transactions) {
      const gas = BigInt(t.gasUsed);
      const from = lower(t.from);
      const sender = at(from, t.blockNumber);
      sender.txs++;
      sender.gas += gas;
      if (t.to !== null) {
        const to = lower(t.to);
        const recipient = at(to, t.blockNumber);
        if (to !== from) recipient.txs++;
        recipient.gasIn += gas;
      }
      if (t.contractAddress !== null && t.status !== 0) at(lower(t.contractAddress), t.blockNumber).created++;
    }
    for (const x of tokenLogsOf(fetched).transfers) {
      if (x.batchIndex !== 0) continue;
      // Decoded from topics: lower-case already.
      at(x.from, x.blockNumber).transfers++;
      const recipient = at(x.to, x.blockNumber);
      if (x.to !== x.from) recipient.transfers++;
    }
    for (const l of core.logs) at(lower(l.address), l.blockNumber).logs++;
    for (const x of internalTransactionsOf(fetched)) {
      // A transaction's top-level call is the transaction itself.
      if (x.type === "call" && x.index === 0) continue;
      const from = lower(x.from);
      at(from, x.blockNumber).internals++;
      const to = x.to === null ? null : lower(x.to);
      if (to !== null) {
        const recipient = at(to, x.blockNumber);
        if (to !== from) recipient.internals++;
      }
      if (x.createdContract !== null) {
        const created = lower(x.createdContract);
        const f = at(created, x.blockNumber);
        if (created !== from && created !== to) f.internals++;
      }
    }
    for (const w of fetched.block.withdrawals ?? []) at(lower(w.address), blockNumber).withdrawals++;
    // Balance sightings: seen, nothing counted (the rows' addresses are lower-case).
    for (const c of balanceChangesOfBlock(fetched).rows) at(c.address, c.blockNumber);
  }
  return facts;
}

/**
 * The facts as the parameters of `addCountersFromFacts` after the range and the sign ($4 ...): one array per
 * column, in the order of its unnest.
 */
export function factsParams(facts: AddressFacts): unknown[] {
  const n = facts.size;
  const address = new Array<Buffer>(n);
  const ints = Array.from({ length: 7 }, () => new Array<number>(n));
  const gas = new Array<string>(n);
  const gasIn = new Array<string>(n);
  const block = new Array<number>(n);
  let i = 0;
  for (const [a, f] of facts) {
    address[i] = toBytea(a);
    ints[0]![i] = f.txs;
    ints[1]![i] = f.created;
    ints[2]![i] = f.transfers;
    ints[3]![i] = f.validations;
    ints[4]![i] = f.internals;
    ints[5]![i] = f.logs;
    ints[6]![i] = f.withdrawals;
    gas[i] = f.gas.toString();
    gasIn[i] = f.gasIn.toString();
    block[i] = f.block;
    i++;
  }
  return [address, ...ints, gas, gasIn, block];
}
