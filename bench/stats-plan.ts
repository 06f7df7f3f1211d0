/**
 * The plans of the statements `/api/v2/stats` runs (issue 36, M5: the home page must not scan `transactions`).
 * Opens the explorer bench's data set (bench/api-explorer-data.ts: rows made with SQL generate_series in a migrated
 * PostgreSQL database; EXPLORER_BENCH_TXS=600000 for the size, EXPLORER_BENCH_DB to name a database of
 * one's own), computes the home stats once through a recording wrapper of the database, then runs EXPLAIN
 * (ANALYZE, BUFFERS) of every statement it ran, with its parameters. Prints each plan, whether any plan holds a
 * sequential scan of `transactions`, and the load average.
 *
 *   EXPLORER_BENCH_TXS=600000 EXPLORER_BENCH_DB=my_stats_600k npx tsx bench/stats-plan.ts
 */
import { loadavg } from "node:os";
import type { Queryable } from "../src/db/db.js";
import { homeStats } from "../src/explorer/stats/service.js";
import { openDataSet } from "./api-explorer-data.js";

const { db, data } = await openDataSet(console.log);
const ran: Array<{ sql: string; params: readonly unknown[] }> = [];
const recording: Queryable = {
  query: (sql, params, options) => {
    ran.push({ sql, params: params ?? [] });
    return db.query(sql, params, options);
  },
  exec: (sql) => db.exec(sql),
};
const t0 = performance.now();
await homeStats(recording);
const firstMs = performance.now() - t0;
console.log(
  `data set: ${data.transactions} transactions; /stats computed in ${firstMs.toFixed(1)} ms (cold)`,
);
let seqScans = 0;
for (const { sql, params } of ran) {
  const plan = await db.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${sql}`, params);
  const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
  if (/Seq Scan on transactions/.test(text)) seqScans++;
  console.log(`\n-- ${sql.replace(/\s+/g, " ").trim()}\n-- params: ${JSON.stringify(params)}\n${text}`);
}
console.log(
  `\n${ran.length} statements; sequential scans of transactions: ${seqScans}; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
await db.close();
