import type { FetchedBlock } from "../../../chain/types.js";
import { toBytea } from "../../../db/bytes.js";
import { coreRowsOf } from "../core/extension.js";
import { balanceChangesOfBlock } from "../stage-data.js";
import { ATTRIBUTES_DEPOSITOR } from "./sql.js";

const OP_DEPOSIT = 126;

/** One UTC day's sums of the carried batches: the transactions' and creations' facts of sql.ts, term by term. */
type DaySums = {
  successful: number;
  operational: number;
  gasPriceSum: bigint;
  priced: number;
  nativeTransfers: number;
  contracts: number;
  /** The balance steps of the day whose previous balance is a change of the same range (see `firsts`). */
  supplyChange: bigint;
  holdersChange: number;
};

/**
 * What the stats stage's trailing write carries: per UTC day (`YYYY-MM-DD`) its sums; per day and sender (key
 * `day:address`) the sender's first block that day (the active and new accounts); each address's first balance
 * change of the range (its step's previous balance is the stored one, read by the write) and its latest balance.
 */
export type StatsCarry = {
  days: Map<string, DaySums>;
  sent: Map<string, { day: string; address: string; firstBlock: number }>;
  firsts: Array<{ day: string; address: string; value: string }>;
  latest: Map<string, bigint>;
};

/** The stats service's holder: at least 0.001 of the coin (sql.ts); the zero address's coins are burnt. */
const HOLDER_MIN = 10n ** 15n;
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
const holder = (v: bigint) => (v >= HOLDER_MIN ? 1 : 0);

/** The UTC day of Unix seconds, as PostgreSQL's `(timestamp at time zone 'UTC')::date` gives it. */
const utcDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Adds the batch's transactions, creations and balance changes to `into` (new when undefined). Pure but for `into`. */
export function foldDayFacts(into: StatsCarry | undefined, batch: readonly FetchedBlock[]): StatsCarry {
  const carry: StatsCarry = into ?? { days: new Map(), sent: new Map(), firsts: [], latest: new Map() };
  for (const fetched of batch) {
    const { blocks, transactions, creations } = coreRowsOf(fetched);
    const block = blocks[0]!;
    const day = utcDay(block.timestamp);
    let sums = carry.days.get(day);
    if (!sums) {
      sums = {
        successful: 0,
        operational: 0,
        gasPriceSum: 0n,
        priced: 0,
        nativeTransfers: 0,
        contracts: 0,
        supplyChange: 0n,
        holdersChange: 0,
      };
      carry.days.set(day, sums);
    }
    sums.contracts += creations.length;
    for (const t of transactions) {
      const from = t.from.toLowerCase();
      if (t.status === 1) sums.successful++;
      if (!(t.type === OP_DEPOSIT && from === ATTRIBUTES_DEPOSITOR)) sums.operational++;
      const price = t.effectiveGasPrice ?? t.gasPrice;
      if (price !== null) {
        sums.gasPriceSum += BigInt(price);
        sums.priced++;
      }
      if (t.value !== "0") sums.nativeTransfers++;
      const key = `${day}:${from}`;
      const seen = carry.sent.get(key);
      if (!seen) carry.sent.set(key, { day, address: from, firstBlock: t.blockNumber });
      else if (t.blockNumber < seen.firstBlock) seen.firstBlock = t.blockNumber;
    }
    // The block's balance changes (one an address, lower-case), in block order: a step from the address's
    // previous balance to this one (`BALANCE_STEPS` in sql.ts).
    for (const c of balanceChangesOfBlock(fetched).rows) {
      const value = BigInt(c.value);
      const previous = carry.latest.get(c.address);
      carry.latest.set(c.address, value);
      if (previous === undefined) {
        carry.firsts.push({ day, address: c.address, value: c.value });
        continue;
      }
      if (c.address !== ZERO_ADDRESS) sums.supplyChange += value - previous;
      sums.holdersChange += holder(value) - holder(previous);
    }
  }
  return carry;
}

/** The carried sums as `ADD_DAILY_STATS_FROM_CARRY`'s parameters after the range and the sign ($4 ...). */
export function dayFactsParams({ days, sent, firsts }: StatsCarry): unknown[] {
  const senders = [...sent.values()];
  const sums = [...days.values()];
  return [
    senders.map((s) => s.day),
    senders.map((s) => toBytea(s.address)),
    senders.map((s) => s.firstBlock),
    [...days.keys()],
    // In the order of CARRIED_DAY_COLUMNS.
    sums.map((d) => d.successful),
    sums.map((d) => d.operational),
    sums.map((d) => d.gasPriceSum.toString()),
    sums.map((d) => d.priced),
    sums.map((d) => d.nativeTransfers),
    sums.map((d) => d.contracts),
    sums.map((d) => d.supplyChange.toString()),
    sums.map((d) => d.holdersChange),
    firsts.map((f) => f.day),
    firsts.map((f) => toBytea(f.address)),
    firsts.map((f) => f.value),
  ];
}
