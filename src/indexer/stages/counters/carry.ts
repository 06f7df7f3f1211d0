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

/**
 * The carried batches' rows the chain counters count, as `upsertChainCounters` (sql.ts) would count them in the
 * tables: so a trailing write does not read back what its batches just wrote (tens of thousands of rows a range).
 */
export type RowCounts = {
  transactions: number;
  tokenTransfers: number;
  internalTransactions: number;
  logs: number;
};

/** What the counters stage carries from its batches to its trailing write. */
export type CarriedCounters = { addresses: AddressFacts; rows: RowCounts };

const lower = (a: string) => a.toLowerCase();

/**
 * Adds the batch's address facts and row counts to `into` (new ones when undefined), from the rows the other stages
 * write for it, with the meanings of `addressFacts`, the balance sightings and the chain counters' counts in sql.ts,
 * term by term (test/indexer/trailing-carry.test.ts compares the two on a chain with every kind of row). Pure but
 * for `into`.
 */
export function foldCounters(
  into: CarriedCounters | undefined,
  batch: readonly FetchedBlock[],
): CarriedCounters {
  const carried: CarriedCounters = into ?? {
    addresses: new Map(),
    rows: { transactions: 0, tokenTransfers: 0, internalTransactions: 0, logs: 0 },
  };
  const facts = carried.addresses;
  const rows = carried.rows;
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
    rows.transactions += core.transactions.length;
    rows.logs += core.logs.length;
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
    const transfers = tokenLogsOf(fetched).transfers;
    // Every row counts (a batch's items too: the tokens stage writes this same list); an address's transfer count
    // counts the log once.
    rows.tokenTransfers += transfers.length;
    for (const x of transfers) {
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
      rows.internalTransactions++;
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
  return carried;
}

/**
 * The carried sums as the parameters of `ADD_COUNTERS_FROM_FACTS` after the range and the sign ($4 ...): one array
 * per column of the facts, in the order of its unnest, then the row counts.
 */
export function carriedParams({ addresses, rows }: CarriedCounters): unknown[] {
  return [
    ...factsParams(addresses),
    rows.transactions,
    rows.tokenTransfers,
    rows.internalTransactions,
    rows.logs,
  ];
}

/** The facts as parameters: one array per column, in the order of `ADD_COUNTERS_FROM_FACTS`' unnest. */
function factsParams(facts: AddressFacts): unknown[] {
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
