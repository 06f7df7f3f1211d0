import type { Queryable } from "../../db/db.js";
import { averageBlockTimeMs } from "../transaction/query.js";
import { chainCounters, indexedRange, recentGas, sinceTotals } from "./query.js";
import { type HomeStats, type IndexingStatus, indexingStatusView, statsView } from "./view.js";

/** `/stats`: counters from chain_counters and indexer_state, never a count over a table. */
export async function homeStats(db: Queryable, now: Date = new Date()): Promise<HomeStats> {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const [counters, range, avg, today, gas] = await Promise.all([
    chainCounters(db),
    indexedRange(db),
    averageBlockTimeMs(db),
    sinceTotals(db, midnight),
    recentGas(db),
  ]);
  const indexedBlocks = range && range.last !== null ? range.last - range.start + 1 : 0;
  return statsView({ counters, indexedBlocks, averageBlockTimeMs: avg, today, recentGas: gas });
}

/**
 * `/main-page/indexing-status`. `caughtUp` comes from the running indexer when this process has one; a serve-only
 * process reports the stored index as complete (it has no gaps).
 */
export async function indexingStatus(db: Queryable, caughtUp?: () => boolean): Promise<IndexingStatus> {
  const range = await indexedRange(db);
  return indexingStatusView(caughtUp ? caughtUp() : true, !!range && range.last !== null);
}
