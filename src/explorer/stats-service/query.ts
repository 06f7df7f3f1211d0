import { INDEXED_CHAIN_ID_SQL } from "../../chain-store/checkpoint.js";
import { DAILY_STATS_COLUMNS } from "../../chain-store/daily-stats.js";
import type { Queryable } from "../../db/db.js";
import type { DayRow } from "./catalogue.js";

/**
 * Every day's row up to `to` (inclusive), ascending: the counters stage's daily_counters, the stats stage's
 * daily_stats and the contracts verified that day (verified_contracts_daily, kept with the verified rows). One row per
 * day of the chain's history (thousands at most), read by key; a day with a verification but no block has a row too,
 * so the verified contracts' growth ends at their total.
 */
export async function dayRows(db: Queryable, to?: string): Promise<DayRow[]> {
  return db.query<DayRow>(
    `with verified as (
       select day, contracts from verified_contracts_daily
       where chain_id = ${INDEXED_CHAIN_ID_SQL} and ($1::date is null or day <= $1::date))
     select coalesce(d.day, v.day)::text as day, coalesce(d.blocks, 0)::text as blocks,
       coalesce(d.transactions, 0)::text as transactions, coalesce(d.gas_used, 0)::text as gas_used,
       coalesce(d.fees, 0)::text as fees,
       ${DAILY_STATS_COLUMNS.filter((c) => c !== "blocks")
         .map((c) => `coalesce(s.${c}, 0)::text as ${c}`)
         .join(", ")},
       coalesce(v.contracts, 0)::text as verified_contracts
     from (select * from daily_counters where $1::date is null or day <= $1::date) d
       left join daily_stats s on s.day = d.day
       full join verified v on v.day = d.day
     order by 1`,
    [to ?? null],
  );
}

/** Whether the chain carries OP-stack deposits (its operational-transaction charts apply). */
export async function hasOpDeposits(db: Queryable): Promise<boolean> {
  const rows = await db.query("select 1 from op_transactions where is_deposit limit 1");
  return rows.length > 0;
}

/** The chain-wide counters the counters stage keeps (blocks, transactions, addresses). */
export async function chainCounters(db: Queryable): Promise<Map<string, string>> {
  const rows = await db.query<{ name: string; value: string }>(
    "select name, value::text as value from chain_counters where name in ('blocks', 'transactions', 'addresses')",
  );
  return new Map(rows.map((r) => [r.name, r.value]));
}

/** The chain's verified contracts (the store's counter) and those verified since `since`. */
export async function verifiedCounts(db: Queryable, since: Date): Promise<{ total: string; recent: string }> {
  const [r] = await db.query<{ total: string | null; recent: string }>(
    `select (select value::text from smart_contract_counters
             where name = 'verified:' || ${INDEXED_CHAIN_ID_SQL}) as total,
            (select count(*)::text from verified_contracts
             where chain_id = ${INDEXED_CHAIN_ID_SQL} and verified_at >= $1) as recent`,
    [since],
  );
  return { total: r?.total ?? "0", recent: r?.recent ?? "0" };
}

/** Contracts created in the blocks since `since` (one probe of the timestamp index, one range of creations). */
export async function contractsSince(db: Queryable, since: Date): Promise<string> {
  const [r] = await db.query<{ n: string }>(
    `select count(*)::text as n from contract_creations
     where block_number >= (select number from blocks where timestamp >= $1 order by timestamp, number limit 1)`,
    [since],
  );
  return r?.n ?? "0";
}
