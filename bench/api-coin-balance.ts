import { type ChildProcess, execFile, fork } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { migrate } from "../src/db/migrate.js";
import { createPostgresDb } from "../src/db/pg.js";
import { COIN_BALANCE_PAGE_SQL } from "../src/explorer/coin-balance/query.js";
import { packagePath } from "../src/util/package-root.js";
import type { LoadResult } from "./api-load.js";

/**
 * bench:api, coin balance part. A dedicated PostgreSQL database (`lookout_bench`) is filled once with
 * generate_series: 1,000,000 addresses with 9 changes each plus one heavy address with 1,000,000 changes
 * (10,000,000 rows). The Lookout application and a bare node:http baseline (same SQL, same driver) then serve
 * the heavy address's first page and a deep page (10,000 pages in) under the same load, each in its own process.
 */
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "lookout_bench";
const HEAVY = `0x5ca1ab1e${"00".repeat(16)}`;
const HEAVY_CHANGES = 1_000_000;
const ADDRESSES = 1_000_000;
const CHANGES_PER_ADDRESS = 9;
const DEEP_CURSOR = HEAVY_CHANGES / 2;

const execFileP = promisify(execFile);

function benchUrl(): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
}

async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [DB_NAME]);
  if (exists.rowCount === 0) await admin.query(`create database ${DB_NAME}`);
  await admin.end();
}

/** Creates our tables (core + coin balances only: the benchmark needs no other engineer's migration). */
async function migrateBench(url: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "lookout-bench-mig-"));
  for (const f of ["001_core.sql", "002_coin_balances.sql"])
    copyFileSync(packagePath(`src/db/migrations/${f}`), join(dir, f));
  const db = await createPostgresDb(url);
  await migrate(db, dir);
  await db.close();
}

/** Fills coin_balance_changes once; indexes are dropped during the load and rebuilt (far faster than per row). */
async function fill(url: string, log: (s: string) => void): Promise<{ rows: number; addresses: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query("create table if not exists bench_fill (rows int8 not null, addresses int8 not null)");
  const done = await c.query<{ rows: string; addresses: string }>("select rows, addresses from bench_fill");
  if (done.rows[0]) {
    await c.end();
    return { rows: Number(done.rows[0].rows), addresses: Number(done.rows[0].addresses) };
  }
  const t0 = Date.now();
  log("filling lookout_bench (10M rows; once)...");
  await c.query("set synchronous_commit = off");
  await c.query("set maintenance_work_mem = '512MB'");
  await c.query("truncate coin_balance_changes");
  await c.query("alter table coin_balance_changes drop constraint coin_balance_changes_pkey");
  await c.query("drop index coin_balance_changes_block_rows_idx");
  // The heavy address: one change per block 1..1M, +1000 wei each, every other one made by a transaction.
  await c.query(
    `insert into coin_balance_changes (address, block_number, value, delta, transaction_hash, block_timestamp)
     select $1::bytea, n, 1000000000000000000 + n * 1000, case when n = 1 then 1000000000000000000 + 1000 else 1000 end,
       case when n % 2 = 0 then decode(md5(n::text) || md5((-n)::text), 'hex') end,
       to_timestamp(1600000000 + n * 12)
     from generate_series(1, $2::int8) n`,
    [Buffer.from(HEAVY.slice(2), "hex"), HEAVY_CHANGES],
  );
  // 1M ordinary addresses with 9 changes each, spread over the same block range.
  await c.query(
    `insert into coin_balance_changes (address, block_number, value, delta, transaction_hash, block_timestamp)
     select decode(lpad(to_hex(i), 40, '0'), 'hex'), j * 100000 + i % 100000,
       (i::numeric * j) * 1000000000000, case when j = 1 then i::numeric * 1000000000000 else i::numeric * 1000000000000 end,
       decode(md5(i::text) || md5(j::text), 'hex'), to_timestamp(1600000000 + (j * 100000 + i % 100000) * 12)
     from generate_series(1, $1::int8) i, generate_series(1, $2::int8) j`,
    [ADDRESSES, CHANGES_PER_ADDRESS],
  );
  log(`  rows inserted in ${((Date.now() - t0) / 1000).toFixed(0)} s; building indexes...`);
  // The same definitions as migrations 002 and 182.
  await c.query("alter table coin_balance_changes add primary key (address, block_number)");
  await c.query(
    "create index coin_balance_changes_block_rows_idx on coin_balance_changes (block_number) where delta <> 0",
  );
  await c.query("vacuum analyze coin_balance_changes");
  const rows = HEAVY_CHANGES + ADDRESSES * CHANGES_PER_ADDRESS;
  await c.query("insert into bench_fill values ($1, $2)", [rows, ADDRESSES + 1]);
  await c.end();
  log(`  filled in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return { rows, addresses: ADDRESSES + 1 };
}

async function startServer(
  kind: "lookout" | "baseline",
  url: string,
): Promise<{ port: number; child: ChildProcess }> {
  const child = fork(packagePath("bench/api-coin-balance-server.ts"), [kind, url], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
  return { port, child };
}

async function load(url: string, o: { concurrency: number; durationMs: number; warmupMs: number }) {
  const { stdout } = await execFileP(
    process.execPath,
    [
      "--import",
      "tsx",
      packagePath("bench/api-load.ts"),
      url,
      String(o.concurrency),
      String(o.durationMs),
      String(o.warmupMs),
    ],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as LoadResult;
}

async function explainDeep(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const r = await c.query(
    `explain (analyze, buffers, costs off, timing off, summary off) ${COIN_BALANCE_PAGE_SQL}`,
    [Buffer.from(HEAVY.slice(2), "hex"), DEEP_CURSOR, 51],
  );
  await c.end();
  return r.rows.map((x) => x["QUERY PLAN"]).join("\n");
}

export type CoinBalanceBenchResult = {
  rows: number;
  addresses: number;
  heavyChanges: number;
  concurrency: number;
  durationMs: number;
  rounds: number;
  results: Record<"first" | "deep", Record<"lookout" | "baseline", LoadResult>>;
  /** Medians of per-round ratios (adjacent measurements, so background load mostly cancels out). */
  ratios: { firstThroughput: number; deepThroughput: number; deepOverFirstP50: number };
  plan: string;
};

const median = (xs: LoadResult[]): LoadResult => {
  const m = (f: (r: LoadResult) => number) => {
    const v = xs.map(f).sort((a, b) => a - b);
    const mid = Math.floor(v.length / 2);
    return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  };
  return {
    requests: m((r) => r.requests),
    rps: m((r) => r.rps),
    p50: m((r) => r.p50),
    p99: m((r) => r.p99),
    errors: m((r) => r.errors),
  };
};

export async function runCoinBalanceBench(
  o: {
    concurrency?: number;
    durationMs?: number;
    warmupMs?: number;
    rounds?: number;
    log?: (s: string) => void;
  } = {},
): Promise<CoinBalanceBenchResult> {
  const log = o.log ?? ((s: string) => console.log(s));
  const opts = {
    concurrency: o.concurrency ?? 16,
    durationMs: o.durationMs ?? 2000,
    warmupMs: o.warmupMs ?? 1500,
  };
  const rounds = o.rounds ?? 8;
  await ensureDatabase();
  const url = benchUrl();
  await migrateBench(url);
  const filled = await fill(url, log);
  const servers = {
    lookout: await startServer("lookout", url),
    baseline: await startServer("baseline", url),
  };
  try {
    const paths = {
      first: `/api/v2/addresses/${HEAVY}/coin-balance-history`,
      deep: `/api/v2/addresses/${HEAVY}/coin-balance-history?block_number=${DEEP_CURSOR}&items_count=50`,
    };
    // Both servers must answer the same bytes before their speed means anything.
    for (const p of Object.values(paths)) {
      const [a, b] = await Promise.all(
        [servers.lookout, servers.baseline].map((s) =>
          fetch(`http://127.0.0.1:${s.port}${p}`).then((r) => r.json()),
        ),
      );
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`lookout and baseline differ on ${p}`);
    }
    // The machine is shared: short measurements, the four combinations interleaved and rotated each round,
    // medians reported, so drifting background load hits every combination alike.
    const combos = (["first", "deep"] as const).flatMap((page) =>
      (["lookout", "baseline"] as const).map((kind) => ({ page, kind })),
    );
    const samples: Record<string, LoadResult[]> = {};
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < combos.length; i++) {
        const { page, kind } = combos[(i + round) % combos.length]!;
        const r = await load(`http://127.0.0.1:${servers[kind].port}${paths[page]}`, opts);
        log(
          `  round ${round + 1} ${page} ${kind}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}`,
        );
        const key = `${page}/${kind}`;
        samples[key] = [...(samples[key] ?? []), r];
      }
    }
    const results = {
      first: { lookout: median(samples["first/lookout"]!), baseline: median(samples["first/baseline"]!) },
      deep: { lookout: median(samples["deep/lookout"]!), baseline: median(samples["deep/baseline"]!) },
    };
    const perRound = (f: (i: number) => number) => {
      const v = Array.from({ length: rounds }, (_, i) => f(i)).sort((a, b) => a - b);
      const mid = Math.floor(v.length / 2);
      return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
    };
    const at = (key: string, i: number) => samples[key]![i]!;
    const ratios = {
      firstThroughput: perRound((i) => at("first/lookout", i).rps / at("first/baseline", i).rps),
      deepThroughput: perRound((i) => at("deep/lookout", i).rps / at("deep/baseline", i).rps),
      deepOverFirstP50: perRound((i) => at("deep/lookout", i).p50 / at("first/lookout", i).p50),
    };
    return {
      ...filled,
      heavyChanges: HEAVY_CHANGES,
      ...opts,
      rounds,
      results,
      ratios,
      plan: await explainDeep(url),
    };
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
  }
}

/** Replaces (or appends) the "Coin balance history API" section of docs/benchmarks.md. */
export function writeCoinBalanceSection(r: CoinBalanceBenchResult, machine: string): void {
  const file = packagePath("docs/benchmarks.md");
  const f = (x: number, d = 2) => x.toFixed(d);
  const { first, deep } = r.results;
  const row = (name: string, x: LoadResult) =>
    `| ${name} | ${f(x.rps, 0)} | ${f(x.p50)} | ${f(x.p99)} | ${x.errors} |`;
  const section = `## Coin balance history API

\`npm run bench:api\` (coin balance part, \`bench/api-coin-balance.ts\`), ${new Date().toISOString().slice(0, 10)}, ${machine}.

Data: PostgreSQL database \`lookout_bench\`, ${r.rows.toLocaleString("en-US")} rows in \`coin_balance_changes\` over
${r.addresses.toLocaleString("en-US")} addresses; the measured address holds ${r.heavyChanges.toLocaleString("en-US")} changes.
Load: ${r.concurrency} keep-alive connections from a separate process, ${r.durationMs / 1000} s per measurement after a warm-up,
${r.rounds} rounds with the four combinations interleaved and rotated, medians of each figure shown
(the 2-core machine was shared with other jobs during the run, so single runs vary by up to 2x). Deep page: \`block_number=${DEEP_CURSOR}\` (about page ${(r.heavyChanges - DEEP_CURSOR) / 50} of the address).
Baseline: the same SQL and the same driver (node-postgres, pool of 10) behind bare \`node:http\`, no framework, no validation,
same JSON (checked byte-equal before measuring).

| GET /api/v2/addresses/{heavy}/coin-balance-history | req/s | p50 ms | p99 ms | errors |
|---|---|---|---|---|
${row("first page, Lookout", first.lookout)}
${row("first page, baseline", first.baseline)}
${row("deep page, Lookout", deep.lookout)}
${row("deep page, baseline", deep.baseline)}

- Throughput of Lookout against the baseline (median of per-round ratios): first page ${f(100 * r.ratios.firstThroughput, 0)} %,
  deep page ${f(100 * r.ratios.deepThroughput, 0)} % (goal: at least 80 %).
- Deep page against first page (Lookout, p50, median of per-round ratios): ${f(r.ratios.deepOverFirstP50)}x (goal: at most 1.2x).

The deep page's plan (one backward range scan of the primary key, stopped after 51 rows):

\`\`\`
${r.plan}
\`\`\`
`;
  const old = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = old.indexOf("## Coin balance history API");
  let next: string;
  if (start < 0) next = `${old.trimEnd()}\n\n${section}`;
  else {
    const end = old.indexOf("\n## ", start + 1);
    next = old.slice(0, start) + section + (end < 0 ? "" : old.slice(end + 1));
  }
  writeFileSync(file, next.endsWith("\n") ? next : `${next}\n`);
}
