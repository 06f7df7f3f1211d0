import type { Queryable } from "../../db/db.js";
import { averageBlockTimeMs } from "../transaction/query.js";
import {
  chainCounters,
  dayTotals,
  gasPricePercentiles,
  indexedRange,
  newestBaseFee,
  recentGas,
  transactionsSince,
} from "./query.js";
import {
  type GasPrices,
  gasPricesView,
  type HomeStats,
  type IndexingStatus,
  indexingStatusView,
  statsView,
  type TransactionsStats,
  transactionsStatsView,
} from "./view.js";

/** `/stats`: counters from chain_counters and indexer_state, never a count over a table. */
export async function homeStats(db: Queryable, now: Date = new Date()): Promise<HomeStats> {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const [counters, range, avg, today, gas, oracle] = await Promise.all([
    chainCounters(db),
    indexedRange(db),
    averageBlockTimeMs(db),
    dayTotals(db, midnight),
    recentGas(db),
    gasPrices(db, () => now.getTime()),
  ]);
  const indexedBlocks = range?.indexed ?? 0;
  const updateInMs = Math.max(0, oracle.at + GAS_PRICES_TTL_MS - now.getTime());
  return statsView({
    counters,
    indexedBlocks,
    averageBlockTimeMs: avg,
    today,
    recentGas: gas,
    gas: { prices: oracle.prices, updatedAt: new Date(oracle.at), updateInMs },
  });
}

/** Blockscout's defaults: the oracle reads the newest 200 blocks with transactions and is refreshed every 30 s. */
export const GAS_PRICE_BLOCKS = 200;
export const GAS_PRICES_TTL_MS = 30_000;

/**
 * Per database, one computation at a time shared by every caller and served again until `ttlMs` has passed since it
 * started; a failed computation is not kept.
 */
function perDatabase<T>(ttlMs: number, compute: (db: Queryable, at: number) => Promise<T>) {
  const cache = new WeakMap<Queryable, { at: number; value: Promise<T> }>();
  return (db: Queryable, at: number, ttl = ttlMs): Promise<T> => {
    const hit = cache.get(db);
    if (hit && at - hit.at < ttl) return hit.value;
    const value = compute(db, at);
    cache.set(db, { at, value });
    value.catch(() => cache.get(db)?.value === value && cache.delete(db));
    return value;
  };
}

const oracle = perDatabase(GAS_PRICES_TTL_MS, async (db, at) => {
  const [blocks, baseFee, avg] = await Promise.all([
    gasPricePercentiles(db, GAS_PRICE_BLOCKS),
    newestBaseFee(db),
    averageBlockTimeMs(db),
  ]);
  return { at, prices: gasPricesView(blocks, baseFee, avg) };
});

/**
 * The gas price oracle, computed at most once per TTL per database (its statement reads the transactions of up to
 * 200 blocks), whatever the request rate; concurrent requests share one computation.
 */
export function gasPrices(
  db: Queryable,
  now: () => number = Date.now,
): Promise<{ at: number; prices: GasPrices }> {
  return oracle(db, now());
}

/**
 * `/main-page/indexing-status`. `caughtUp` comes from the running indexer when this process has one (a serve-only
 * process takes the head as reached); history catching up beside the head is read from the checkpoint row.
 */
export async function indexingStatus(db: Queryable, caughtUp?: () => boolean): Promise<IndexingStatus> {
  const range = await indexedRange(db);
  return indexingStatusView(caughtUp ? caughtUp() : true, range ?? { indexed: 0, span: 0 });
}

const DAY_MS = 24 * 3600 * 1000;
/** How long a computed `/transactions/stats` answer is served again (Blockscout refreshes its cache periodically). */
export const TRANSACTION_STATS_TTL_MS = 30_000;
const dayStats = perDatabase(TRANSACTION_STATS_TTL_MS, (db, at) =>
  transactionsSince(db, new Date(at - DAY_MS)).then(transactionsStatsView),
);

/**
 * `/transactions/stats`: the last 24 hours' transactions and fees, cached per database for a few seconds so that
 * a day's range of transactions is summed at most once per TTL, whatever the request rate.
 */
export function transactionsStats(
  db: Queryable,
  now: () => number = Date.now,
  ttlMs = TRANSACTION_STATS_TTL_MS,
): Promise<TransactionsStats> {
  return dayStats(db, now(), ttlMs);
}
