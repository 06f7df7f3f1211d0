import { loadavg } from "node:os";
import Fastify from "fastify";
import type { Db } from "../src/db/db.js";
import { lineCharts } from "../src/explorer/stats-service/catalogue.js";
import { STATS_SERVICE_PREFIX, statsServiceRoutes } from "../src/explorer/stats-service/routes.js";
import { UPSERT_DAILY_COUNTERS } from "../src/indexer/stages/counters/sql.js";
import { ADD_DAILY_STATS } from "../src/indexer/stages/stats/sql.js";
import { type DataSet, DB_NAME, openDataSet } from "./api-explorer-data.js";
import { replaceBenchmarkSection } from "./benchmarks-doc.js";

/**
 * bench:api, stats service part (`npm run bench:api -- stats`): every chart and counter of /stats-service/api/v1 on
 * the explorer bench's data set (`EXPLORER_BENCH_TXS` transactions, api-explorer-data.ts), answered from the day
 * rows the indexer keeps, against the baseline of computing the same figures per request with the raw statement over
 * blocks and transactions (what a per-request chart would cost; the stats service runs such statements on a
 * schedule). The day rows are filled once with the stats stage's own statement over the whole data set (its time is
 * reported: the cost of a backfill).
 */
const REQUESTS = Number(process.env.STATS_BENCH_REQUESTS ?? 40);
const END = Number.MAX_SAFE_INTEGER;
const day = "(b.timestamp at time zone 'UTC')::date";

/** The raw statements: each computes, per day over the whole history, what a family of charts shows. */
const BASELINES: Record<string, { charts: string[]; sql: string }> = {
  "transactions per day (count, fees, success, gas price, transfers)": {
    charts: [
      "newTxns",
      "txnsGrowth",
      "txnsFee",
      "averageTxnFee",
      "txnsSuccessRate",
      "averageGasPrice",
      "newNativeCoinTransfers",
    ],
    sql: `select ${day} as day, count(*), sum(t.gas_used * coalesce(t.effective_gas_price, t.gas_price, 0)),
            count(*) filter (where t.status = 1), avg(coalesce(t.effective_gas_price, t.gas_price)),
            count(*) filter (where t.value > 0)
          from transactions t join blocks b on b.number = t.block_number group by 1 order by 1`,
  },
  "blocks per day (count, size, gas)": {
    charts: [
      "newBlocks",
      "averageBlockSize",
      "averageGasLimit",
      "averageGasUsed",
      "networkUtilization",
      "gasUsedGrowth",
    ],
    sql: `select ${day} as day, count(*), avg(size), avg(gas_limit), avg(gas_used), sum(gas_used) / sum(gas_limit)
          from blocks b group by 1 order by 1`,
  },
  "active accounts per day (distinct senders)": {
    charts: ["activeAccounts"],
    sql: `select ${day} as day, count(distinct t.from_address)
          from transactions t join blocks b on b.number = t.block_number group by 1 order by 1`,
  },
  "new accounts per day (first transaction of each sender)": {
    charts: ["newAccounts", "accountsGrowth"],
    sql: `select ${day} as day, count(*) from (select from_address, min(block_number) as first from transactions
            group by from_address) f join blocks b on b.number = f.first group by 1 order by 1`,
  },
  "total accounts and completed transactions (counters)": {
    charts: ["/api/v1/counters"],
    sql: `select (select count(distinct from_address) from transactions), (select count(*) from transactions where status = 1)`,
  },
};

type Timing = { p50: number; p99: number };
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

export type StatsBenchResult = {
  data: DataSet;
  days: number;
  activeRows: number;
  backfillMs: number | null;
  load: { before: number; after: number };
  /** \`select 1\`'s round trip: what any answer reading the database costs at least on this machine now. */
  floor: Timing;
  endpoints: Array<{ path: string; bytes: number; floorP50: number } & Timing>;
  baselines: Array<{ name: string; charts: string[]; ms: number }>;
};

async function fillDayRows(db: Db): Promise<number | null> {
  const [s] = await db.query<{ last: string; counters: boolean; stats: boolean }>(
    `select (select last_block from indexer_state)::text as last,
       exists (select 1 from daily_counters) as counters, exists (select 1 from daily_stats) as stats`,
  );
  const last = Number(s!.last);
  if (!s!.counters) await db.query(UPSERT_DAILY_COUNTERS, [-1, last, 1]);
  if (s!.stats) return null;
  const t0 = performance.now();
  await db.query(ADD_DAILY_STATS, [-END, last, 1]);
  const ms = performance.now() - t0;
  for (const t of ["daily_counters", "daily_stats", "daily_active_accounts", "stats_accounts"])
    await db.exec(`vacuum analyze ${t}`);
  return ms;
}

export async function runStatsServiceBench(): Promise<StatsBenchResult> {
  const { db, data } = await openDataSet((m) => console.log(m));
  const before = loadavg()[0]!;
  const backfillMs = await fillDayRows(db);
  const app = Fastify();
  await app.register(statsServiceRoutes, { prefix: STATS_SERVICE_PREFIX, deps: { db, coinSymbol: "ETH" } });
  try {
    const paths = [
      "/api/v1/counters",
      "/api/v1/lines",
      "/api/v1/pages/main",
      "/api/v1/pages/transactions",
      "/api/v1/pages/contracts",
      "/api/v1/update-status",
      ...lineCharts("ETH")
        .filter((c) => !c.opStack)
        .flatMap((c) =>
          (c.resolutions ?? ["DAY", "MONTH"]).map((r) => `/api/v1/lines/${c.id}?resolution=${r}`),
        ),
    ];
    const endpoints: StatsBenchResult["endpoints"] = [];
    for (const path of paths) {
      const times: number[] = [];
      // The floor taken between the endpoint's requests: on a shared machine the load moves within seconds.
      const floor: number[] = [];
      let bytes = 0;
      for (let i = 0; i < REQUESTS + 3; i++) {
        const t0 = performance.now();
        const r = await app.inject({ method: "GET", url: `${STATS_SERVICE_PREFIX}${path}` });
        const ms = performance.now() - t0;
        if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${r.body}`);
        bytes = r.body.length;
        const t1 = performance.now();
        await db.query("select 1");
        if (i >= 3) {
          times.push(ms);
          floor.push(performance.now() - t1);
        }
      }
      endpoints.push({ path, bytes, p50: pct(times, 0.5), p99: pct(times, 0.99), floorP50: pct(floor, 0.5) });
      console.log(path, pct(times, 0.5).toFixed(2), "ms, floor", pct(floor, 0.5).toFixed(2), "ms");
    }
    // The floor: one round trip of a statement that reads nothing, on the same connection pool.
    const floor: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      await db.query("select 1");
      floor.push(performance.now() - t0);
    }
    const baselines: StatsBenchResult["baselines"] = [];
    for (const [name, b] of Object.entries(BASELINES)) {
      const t0 = performance.now();
      await db.query(b.sql);
      baselines.push({ name, charts: b.charts, ms: performance.now() - t0 });
      console.log(name, (performance.now() - t0).toFixed(0), "ms");
    }
    const [counts] = await db.query<{ days: string; active: string }>(
      "select (select count(*) from daily_stats)::text as days, (select count(*) from daily_active_accounts)::text as active",
    );
    return {
      data,
      days: Number(counts!.days),
      activeRows: Number(counts!.active),
      backfillMs,
      load: { before, after: loadavg()[0]! },
      floor: { p50: pct(floor, 0.5), p99: pct(floor, 0.99) },
      endpoints,
      baselines,
    };
  } finally {
    await app.close();
    await db.close();
  }
}

/** Replaces the "## Stats service API (charts and counters)" section of docs/benchmarks.md. */
export function writeStatsServiceSection(r: StatsBenchResult, machine: string): void {
  const n = (x: number) => x.toLocaleString("en-US");
  const rows = r.endpoints.map(
    (e) =>
      `| \`${e.path}\` | ${e.p50.toFixed(2)} | ${e.p99.toFixed(2)} | ${e.floorP50.toFixed(2)} | ${n(e.bytes)} |`,
  );
  const base = r.baselines.map(
    (b) => `| ${b.name} | ${b.charts.map((c) => `\`${c}\``).join(", ")} | ${n(Math.round(b.ms))} |`,
  );
  const section = `## Stats service API (charts and counters)

\`npm run bench:api -- stats\` (\`bench/api-stats-service.ts\`, data \`bench/api-explorer-data.ts\`, database
\`${DB_NAME}\`): ${n(r.data.transactions)} transactions in blocks of 100, one block every 12 s (${n(r.days)} UTC days,
${n(r.activeRows)} rows of daily_active_accounts). ${r.backfillMs != null ? `The day rows were filled with the stats stage's own statement over the whole data set in ${n(Math.round(r.backfillMs))} ms (what a backfill costs). ` : ""}Each
endpoint: ${REQUESTS} sequential requests through Fastify (\`inject\`, no network) after 3 warm-up ones; ${machine};
load average ${r.load.before.toFixed(1)} before, ${r.load.after.toFixed(1)} after (other jobs were running on the 2 cores).

| Endpoint | p50 ms | p99 ms | floor p50 ms (\`select 1\` between its requests) | bytes |
|---|---:|---:|---:|---:|
| (floor: \`select 1\`, one round trip, after the endpoints) | ${r.floor.p50.toFixed(2)} | ${r.floor.p99.toFixed(2)} | | |
${rows.join("\n")}

Baseline: the same figures computed per request from the raw tables (one run of the statement each):

| Raw statement | Charts it would serve | ms |
|---|---|---:|
${base.join("\n")}
`;
  replaceBenchmarkSection("## Stats service API (charts and counters)", section);
}
