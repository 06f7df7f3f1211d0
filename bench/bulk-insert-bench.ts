/**
 * bench:bulk-insert: the batch's insert-only rows (blocks, transactions, logs, contract creations, internal
 * transactions) of a busy chain (bench/busy-chain.ts) written by COPY and by the `unnest` inserts, rounds A B B A in
 * one run, on PostgreSQL and on PGlite, each round into a freshly migrated database (same tables, same indexes).
 * Reports ms per 1,000 transactions of each way: the choice of bulkInsert (src/indexer/stages/core/bulk-insert.ts).
 *
 *   npm run bench:bulk-insert -- [--transactions 15000] [--batch-size 25] [--pglite-transactions 3750]
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { detectCapabilities } from "../src/chain/capabilities.js";
import { fetchBlock } from "../src/chain/fetch-block.js";
import { createRpc } from "../src/chain/rpc.js";
import type { FetchedBlock } from "../src/chain/types.js";
import type { Db, Queryable } from "../src/db/db.js";
import { migrate } from "../src/db/migrate.js";
import { createPgliteDb } from "../src/db/pglite.js";
import { deriveCoreRows } from "../src/indexer/stages/core/derive.js";
import { writeCoreRows } from "../src/indexer/stages/core/store.js";
import { deriveInternalTransactions } from "../src/indexer/stages/internal-transactions/derive.js";
import { writeInternalTransactions } from "../src/indexer/stages/internal-transactions/store.js";
import { freshDatabase } from "./busy-bench.js";
import { serveBusyChain } from "./busy-chain.js";

const { values } = parseArgs({
  options: {
    transactions: { type: "string", default: "15000" },
    "pglite-transactions": { type: "string", default: "3750" },
    "batch-size": { type: "string", default: "25" },
  },
});
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const log = (s: string) => process.stderr.write(`${s}\n`);

async function fetchBatches(transactions: number, batchSize: number): Promise<FetchedBlock[][]> {
  const { url, head } = await serveBusyChain(transactions);
  const rpc = createRpc({ url, batchSize: 100, timeoutMs: 60_000, retries: 5, concurrency: 4 });
  const caps = await detectCapabilities(rpc, { traces: "auto" });
  const blocks: FetchedBlock[] = [];
  for (let n = 1; n <= head; n += 25)
    blocks.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(25, head - n + 1) }, (_, i) => fetchBlock(rpc, n + i, caps)),
      )),
    );
  const batches: FetchedBlock[][] = [];
  for (let i = 0; i < blocks.length; i += batchSize) batches.push(blocks.slice(i, i + batchSize));
  return batches;
}

/** The connection without `copyFrom`: the writers use their unnest inserts. */
const unnestOnly = (tx: Queryable): Queryable => ({
  query: (sql, params, options) => tx.query(sql, params, options),
  exec: (sql) => tx.exec(sql),
});

/** Writes every batch in its own transaction; ms of the writes (deriving the rows is not counted). */
async function writeAll(db: Db, batches: FetchedBlock[][], copy: boolean): Promise<number> {
  let ms = 0;
  for (const batch of batches) {
    const core = deriveCoreRows(batch);
    const internal = deriveInternalTransactions(batch);
    const start = performance.now();
    await db.transaction(async (tx) => {
      const q = copy ? tx : unnestOnly(tx);
      await writeCoreRows(q, core);
      await writeInternalTransactions(q, internal);
    });
    ms += performance.now() - start;
  }
  return ms;
}

const TABLES = ["blocks", "transactions", "logs", "contract_creations", "internal_transactions"];

/** Heap + TOAST + indexes of each table the writes fill. */
async function tableBytes(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const [r] = await db.query<{ b: string }>("select pg_total_relation_size($1::regclass)::text as b", [t]);
    out[t] = Number(r!.b);
  }
  return out;
}

async function rounds(
  kind: string,
  open: () => Promise<{ db: Db; drop(): Promise<void> }>,
  transactions: number,
) {
  const batches = await fetchBatches(transactions, Number(values["batch-size"]));
  const count = batches.flat().reduce((s, b) => s + b.block.transactions.length, 0);
  const per1000: Record<string, number[]> = { copy: [], unnest: [] };
  const bytes: Record<string, Record<string, number>> = {};
  for (const copy of [true, false, false, true]) {
    const { db, drop } = await open();
    try {
      const ms = await writeAll(db, batches, copy);
      per1000[copy ? "copy" : "unnest"]!.push(Math.round((ms / count) * 1000));
      if (db.kind === "postgres") bytes[copy ? "copy" : "unnest"] = await tableBytes(db);
    } finally {
      await drop();
    }
    log(`${kind} ${copy ? "COPY" : "unnest"}: ${per1000[copy ? "copy" : "unnest"]!.at(-1)} ms / 1,000 tx`);
  }
  return { transactions: count, ms_per_1000_tx: per1000, ...(Object.keys(bytes).length ? { bytes } : {}) };
}

async function main() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let n = 0;
  const openPg = async () => {
    const name = `lookout_bench_bulk_${process.pid}_${n++}`;
    const { db } = await freshDatabase(admin, adminUrl, name);
    return {
      db,
      async drop() {
        await db.close();
        await admin.query(`drop database if exists ${name} with (force)`);
      },
    };
  };
  const openPglite = async () => {
    const db = await createPgliteDb();
    await migrate(db);
    return { db, drop: () => db.close() };
  };
  try {
    const postgres = await rounds("PostgreSQL", openPg, Number(values.transactions));
    const pglite = await rounds("PGlite", openPglite, Number(values["pglite-transactions"]));
    const load = (await import("node:fs"))
      .readFileSync("/proc/loadavg", "utf8")
      .split(" ")
      .slice(0, 3)
      .join(" ");
    process.stdout.write(`${JSON.stringify({ load_average: load, postgres, pglite }, null, 2)}\n`);
  } finally {
    await admin.end();
  }
  process.exit(0);
}

main().catch((e) => {
  log(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
