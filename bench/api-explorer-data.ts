import pg from "pg";
import type { Address } from "viem";
import type { Db } from "../src/db/db.js";
import { migrate } from "../src/db/migrate.js";
import { createPostgresDb } from "../src/db/pg.js";

/**
 * The explorer benchmark's data set, generated with SQL straight into the real tables (no chain, no indexer):
 * `txs` transactions in blocks of 100, senders and recipients spread over 1,000,000 addresses, except the busy
 * address, which sends every 20th transaction and receives every 40th (7.5 % of all); txs / 10 ERC-20 token
 * transfers of one token, a quarter of them from or to the busy address. Counters (address_counters,
 * chain_counters) are filled from the generated rows, as the indexer would have kept them.
 */
export const BUSY = `0x${"b0".repeat(20)}` as Address;
export const QUIET = `0x${"0".repeat(36)}1234` as Address;
export const TOKEN = `0x${"70".repeat(20)}` as Address;
const PER_BLOCK = 100;
const CHUNK = 1_000_000;

const hexBytes = (a: string) => `'\\x${a.slice(2)}'::bytea`;
const addr = (expr: string) => `decode(lpad(to_hex(${expr}), 40, '0'), 'hex')`;

/**
 * Runs `load` with the table's indexes and constraints dropped and rebuilds them after (bulk loading into indexed
 * tables is several times slower). The definitions are read back from the catalogue, so they stay the migrations'.
 */
async function withoutIndexes(db: Db, tables: string[], load: () => Promise<void>): Promise<void> {
  const constraints = await db.query<{ t: string; name: string; def: string }>(
    `select conrelid::regclass::text as t, conname as name, pg_get_constraintdef(oid) as def from pg_constraint
     where conrelid::regclass::text = any($1) and contype in ('p', 'u')`,
    [tables],
  );
  const indexes = await db.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes where tablename = any($1)
       and indexname not in (select conname from pg_constraint where conrelid::regclass::text = any($1))`,
    [tables],
  );
  for (const i of indexes) await db.exec(`drop index ${i.name}`);
  for (const c of constraints) await db.exec(`alter table ${c.t} drop constraint ${c.name}`);
  await load();
  await db.exec("set maintenance_work_mem = '512MB'");
  for (const c of constraints) await db.exec(`alter table ${c.t} add constraint ${c.name} ${c.def}`);
  for (const i of indexes) await db.exec(i.def);
}

export async function generateExplorerData(
  db: Db,
  txs: number,
  log: (m: string) => void = () => {},
): Promise<{
  transactions: number;
  tokenTransfers: number;
  busyTransactions: number;
  busyTransfers: number;
}> {
  const blocks = Math.ceil(txs / PER_BLOCK);
  const transfers = Math.floor(txs / 10);
  await db.exec("set synchronous_commit = off");
  await db.exec(`
    insert into indexer_state (id, chain_id, start_block, start_hash, last_block, last_hash)
      values (1, 31337, 0, sha256(int8send(0)), ${blocks - 1}, sha256(int8send(${blocks - 1})));
    insert into tokens (address, type, name, symbol, decimals, total_supply, holders_count, first_block,
      properties_fetched_at, supply_stale)
      values (${hexBytes(TOKEN)}, 'ERC-20', 'Bench Token', 'BT', 18, 1e27, 1000000, 0, now(), false);`);
  await withoutIndexes(db, ["blocks", "transactions", "token_transfers"], async () => {
    await db.exec(`
      insert into blocks (number, hash, parent_hash, timestamp, miner, gas_used, gas_limit, base_fee_per_gas, size,
        transaction_count, transaction_fees, burnt_fees, priority_fees, internal_transactions_indexed)
      select n, sha256(int8send(n)), sha256(int8send(n - 1)), to_timestamp(1700000000 + n * 12),
        ${addr("1 + n % 16")}, ${PER_BLOCK} * 21000, 30000000, 1000000000, 20000, ${PER_BLOCK},
        ${PER_BLOCK} * 21000 * 2000000000::numeric, ${PER_BLOCK} * 21000 * 1000000000::numeric,
        ${PER_BLOCK} * 21000 * 1000000000::numeric, false
      from generate_series(0::int8, ${blocks - 1}) n`);
    log(`${blocks} blocks`);
    for (let lo = 0; lo < txs; lo += CHUNK) {
      const hi = Math.min(txs, lo + CHUNK) - 1;
      await db.exec(`
        insert into transactions (hash, block_number, index, from_address, to_address, value, nonce, gas, gas_price,
          max_fee_per_gas, max_priority_fee_per_gas, type, input, status, gas_used, cumulative_gas_used,
          effective_gas_price, contract_address, block_hash, has_token_transfers)
        select sha256(int8send(g + 1000000000000)), g / ${PER_BLOCK}, g % ${PER_BLOCK},
          case when g % 20 = 0 then ${hexBytes(BUSY)} else ${addr("1000 + (g * 7919) % 1000000")} end,
          case when g % 40 = 1 then ${hexBytes(BUSY)} else ${addr("1000 + (g * 104729) % 1000000")} end,
          g % 1000 * 1000000000000, g / 1000, 21000, 2000000000, 3000000000, 1000000000, 2, '\\x'::bytea, 1, 21000,
          21000 * (g % ${PER_BLOCK} + 1), 2000000000, null, sha256(int8send(g / ${PER_BLOCK})), g % 10 = 0
        from generate_series(${lo}::int8, ${hi}) g`);
      log(`transactions ${hi + 1} / ${txs}`);
    }
    await db.exec(`
      insert into token_transfers (block_number, log_index, batch_index, transaction_hash, token_address, kind,
        from_address, to_address, token_id, amount)
      select (g * 10) / ${PER_BLOCK}, (g * 10) % ${PER_BLOCK}, 0, sha256(int8send(g * 10 + 1000000000000)),
        ${hexBytes(TOKEN)}, 'ERC-20',
        case when g % 8 = 0 then ${hexBytes(BUSY)} else ${addr("1000 + (g * 7919) % 1000000")} end,
        case when g % 8 = 4 then ${hexBytes(BUSY)} else ${addr("1000 + (g * 104729) % 1000000")} end,
        null, g % 1000 * 1000000000000000
      from generate_series(0::int8, ${transfers - 1}) g`);
    log(`${transfers} token transfers`);
  });
  log("indexes rebuilt");
  // The quiet address: one transaction, for the counters' O(1) check.
  await db.exec(
    `update transactions set to_address = ${hexBytes(QUIET)} where block_number = 0 and index = 2`,
  );
  const [busy] = await db.query<{ txs: string; tts: string }>(
    `select (select count(*) from transactions where from_address = $1 or to_address = $1)::text as txs,
            (select count(*) from token_transfers where from_address = $1 or to_address = $1)::text as tts`,
    [Buffer.from(BUSY.slice(2), "hex")],
  );
  await db.exec(`
    insert into address_counters (address, transactions_count, token_transfers_count, gas_used)
      values (${hexBytes(BUSY)}, ${busy!.txs}, ${busy!.tts}, ${Math.ceil(txs / 20)}::numeric * 21000),
             (${hexBytes(QUIET)}, 1, 0, 0);
    insert into chain_counters (name, value) values ('blocks', ${blocks}), ('transactions', ${txs}),
      ('addresses', 1000001), ('gas_used', ${txs}::numeric * 21000), ('token_transfers', ${transfers});`);
  // As autovacuum would have by now on an indexed database: statistics, and the visibility map that lets the
  // planner use index-only scans (one statement each: VACUUM cannot run in the implicit transaction of a batch).
  for (const t of [
    "blocks",
    "transactions",
    "token_transfers",
    "tokens",
    "address_counters",
    "chain_counters",
  ])
    await db.exec(`vacuum analyze ${t}`);
  return {
    transactions: txs,
    tokenTransfers: transfers,
    busyTransactions: Number(busy!.txs),
    busyTransfers: Number(busy!.tts),
  };
}

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const TXS = Number(process.env.EXPLORER_BENCH_TXS ?? 10_000_000);
/** EXPLORER_BENCH_DB names another database (a branch's own copy on a shared server). */
export const DB_NAME = process.env.EXPLORER_BENCH_DB ?? `lookout_bench_explorer_${TXS}`;

export type DataSet = Awaited<ReturnType<typeof generateExplorerData>> & { generatedSeconds: number | null };

/** The benchmark database, migrated, generated on first use and kept (a marker row says it is complete). */
export async function openDataSet(log: (m: string) => void): Promise<{ db: Db; data: DataSet }> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [DB_NAME]);
  if (exists.rowCount === 0) await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  const db = await createPostgresDb(u.toString());
  await migrate(db);
  await db.exec("create table if not exists bench_fill (data jsonb not null)");
  const [done] = await db.query<{ data: DataSet }>("select data from bench_fill");
  if (done) return { db, data: { ...done.data, generatedSeconds: null } };
  // An interrupted earlier generation: start over.
  await db.exec(
    "truncate blocks, transactions, token_transfers, tokens, address_counters, chain_counters, indexer_state",
  );
  const t0 = Date.now();
  const generated = await generateExplorerData(db, TXS, (m) =>
    log(`explorer bench: ${((Date.now() - t0) / 1000).toFixed(0)} s: ${m}`),
  );
  const data = { ...generated, generatedSeconds: (Date.now() - t0) / 1000 };
  await db.query("insert into bench_fill (data) values ($1)", [JSON.stringify(data)]);
  return { db, data };
}

if (process.argv[1]?.endsWith("api-explorer-data.ts")) {
  const { db, data } = await openDataSet(console.log);
  console.log(JSON.stringify(data));
  await db.close();
}
