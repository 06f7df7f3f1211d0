import { fromBytea } from "../../src/db/bytes.js";
import type { Db } from "../../src/db/db.js";
import type { IndexerExtension } from "../../src/indexer/pipeline/extension.js";
import { blockRewardsExtension } from "../../src/indexer/stages/block-rewards/extension.js";
import { countersExtension } from "../../src/indexer/stages/counters/extension.js";
import { internalTransactionsExtension } from "../../src/indexer/stages/internal-transactions/extension.js";
import { statsExtension } from "../../src/indexer/stages/stats/extension.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { withdrawalsExtension } from "../../src/indexer/stages/withdrawals/extension.js";

/** The explorer's indexer parts in production order (token transfers feed the counters), without background workers. */
export function explorerExtensions(): IndexerExtension[] {
  return [
    createTokensExtension(),
    internalTransactionsExtension(),
    withdrawalsExtension(),
    blockRewardsExtension(),
    countersExtension(),
    statsExtension(),
  ];
}

export const EXPLORER_TABLES = [
  "internal_transactions",
  "address_counters",
  "chain_counters",
  "daily_counters",
  "daily_stats",
  "daily_active_accounts",
  "stats_accounts",
  "addresses",
  "withdrawals",
  "block_rewards",
  "token_transfers",
];

type Counters = Record<string, Record<string, string>>;

const hex = (v: Uint8Array) => fromBytea(v);

/**
 * Every counter recomputed from scratch over whole tables, written independently of the incremental SQL
 * (distinct counts by key rather than per-row deltas), to compare with what the indexer kept.
 */
export async function recomputedCounters(
  db: Db,
): Promise<{ address: Counters; chain: Record<string, string> }> {
  const address: Counters = {};
  const put = (rows: Array<{ a: Uint8Array; n: string | number }>, field: string) => {
    for (const r of rows) {
      const k = hex(r.a);
      address[k] ??= {};
      address[k][field] = String(r.n);
    }
  };
  // Blockscout's meanings: transactions sent or received (a contract's creation is not one of its transactions),
  // token transfers one per log (an ERC-1155 batch is one).
  put(
    await db.query(
      `select a, count(distinct hash) as n from (
         select from_address a, hash from transactions
         union all select to_address, hash from transactions where to_address is not null
       ) x group by a`,
    ),
    "transactions_count",
  );
  put(
    await db.query(
      `select contract_address a, count(*) as n from transactions
       where contract_address is not null and status <> 0 group by contract_address`,
    ),
    "created_count",
  );
  put(
    await db.query(
      `select a, count(distinct (block_number, log_index)) as n from (
         select from_address a, block_number, log_index from token_transfers
         union all select to_address, block_number, log_index from token_transfers
       ) x group by a`,
    ),
    "token_transfers_count",
  );
  put(
    await db.query("select from_address a, sum(gas_used) as n from transactions group by from_address"),
    "gas_used",
  );
  put(
    await db.query(
      "select to_address a, sum(gas_used) as n from transactions where to_address is not null group by to_address",
    ),
    "gas_used_incoming",
  );
  put(await db.query("select miner a, count(*) as n from blocks group by miner"), "validations_count");
  put(
    await db.query(
      `select a, count(distinct (block_number, transaction_index, index)) as n from (
         select from_address a, block_number, transaction_index, index, type from internal_transactions
         union all select to_address, block_number, transaction_index, index, type from internal_transactions
           where to_address is not null
         union all select created_contract_address, block_number, transaction_index, index, type
           from internal_transactions where created_contract_address is not null
       ) x where not (type = 'call' and index = 0) group by a`,
    ),
    "internal_transactions_count",
  );
  put(await db.query("select address a, count(*) as n from logs group by address"), "logs_count");
  put(
    await db.query("select address a, count(*) as n from withdrawals group by address"),
    "withdrawals_count",
  );
  // An address that only a recorded coin balance shows has a row of zeros (the top-accounts count orders list it).
  for (const r of await db.query<{ a: Uint8Array }>("select distinct address as a from coin_balance_changes"))
    address[hex(r.a)] ??= {};
  const fields = [
    "transactions_count",
    "created_count",
    "token_transfers_count",
    "gas_used",
    "gas_used_incoming",
    "validations_count",
    "internal_transactions_count",
    "logs_count",
    "withdrawals_count",
  ];
  for (const v of Object.values(address)) for (const f of fields) v[f] ??= "0";
  const one = async (sql: string) => String((await db.query<{ n: string }>(sql))[0]!.n);
  const chain: Record<string, string> = {
    blocks: await one("select count(*) as n from blocks"),
    transactions: await one("select count(*) as n from transactions"),
    gas_used: await one("select coalesce(sum(gas_used), 0) as n from blocks"),
    token_transfers: await one("select count(*) as n from token_transfers"),
    internal_transactions: await one(
      "select count(*) as n from internal_transactions where not (type = 'call' and index = 0)",
    ),
    logs: await one("select count(*) as n from logs"),
    withdrawals: await one("select count(*) as n from withdrawals"),
    withdrawals_sum: await one("select coalesce(sum(amount), 0) as n from withdrawals"),
    // Each address's latest recorded balance, summed (the counter is kept from the current-balance rows).
    coin_balance_sum: await one(
      `select coalesce(sum(value), 0) as n from (select distinct on (address) value from coin_balance_changes
       order by address, block_number desc) latest`,
    ),
    // Addresses with counters, and those only a recorded coin balance shows (a dev node's funded accounts).
    addresses: String(
      new Set([
        ...Object.keys(address),
        ...(await db.query<{ a: Uint8Array }>("select distinct address as a from coin_balance_changes")).map(
          (r) => hex(r.a),
        ),
      ]).size,
    ),
  };
  // Per UTC day of the blocks (grouped here, not in SQL): "blocks/transactions/gas used/fees".
  const days = new Map<string, [number, number, bigint, bigint]>();
  for (const b of await db.query<{
    timestamp: Date;
    transaction_count: number;
    gas_used: string;
    transaction_fees: string | null;
  }>(
    "select timestamp, transaction_count, gas_used::text as gas_used, transaction_fees::text as transaction_fees from blocks",
  )) {
    const day = b.timestamp.toISOString().slice(0, 10);
    const d = days.get(day) ?? [0, 0, 0n, 0n];
    days.set(day, [
      d[0] + 1,
      d[1] + Number(b.transaction_count),
      d[2] + BigInt(b.gas_used),
      d[3] + BigInt(b.transaction_fees ?? 0),
    ]);
  }
  for (const [day, [n, txs, gas, fees]] of days) chain[`day ${day}`] = `${n}/${txs}/${gas}/${fees}`;
  return { address, chain };
}

/** The counters the indexer kept, in the shape of `recomputedCounters`. */
export async function storedCounters(db: Db): Promise<{ address: Counters; chain: Record<string, string> }> {
  const address: Counters = {};
  for (const r of await db.query<Record<string, unknown> & { address: Uint8Array }>(
    "select * from address_counters",
  )) {
    const { address: a, ...rest } = r;
    address[hex(a)] = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
  }
  const chain: Record<string, string> = {};
  for (const r of await db.query<{ name: string; value: string }>("select name, value from chain_counters"))
    chain[r.name] = String(r.value);
  for (const r of await db.query<{
    day: string;
    blocks: string;
    transactions: string;
    gas: string;
    fees: string;
  }>(
    "select day::text as day, blocks, transactions, gas_used::text as gas, fees::text as fees from daily_counters",
  ))
    chain[`day ${r.day}`] = `${r.blocks}/${r.transactions}/${r.gas}/${r.fees}`;
  return { address, chain };
}

/** Every address the recomputation saw (counters or a recorded coin balance) must be in `addresses`, and no other. */
export async function addressesMatchCounters(db: Db): Promise<{ missing: number; extra: number }> {
  const [r] = await db.query<{ missing: string; extra: string }>(
    `select (select count(*) from (select address from address_counters union select address from coin_balance_changes) c
               where not exists (select 1 from addresses a where a.address = c.address)) as missing,
            (select count(*) from addresses a where not exists (select 1 from address_counters c where c.address = a.address)
               and not exists (select 1 from coin_balance_changes b where b.address = a.address)) as extra`,
  );
  return { missing: Number(r!.missing), extra: Number(r!.extra) };
}
