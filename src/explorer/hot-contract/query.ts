import type { Address } from "viem";
import { everContractSql } from "../../chain-store/proxies.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type HotContractRow = {
  address: Uint8Array;
  transactions: string;
  gas_used: string;
  balance: string | null;
};

/** Blockscout's scales: minute slots for the hours, UTC days (today and the n days before) for the days. */
export const SCALES = { "5m": 300, "1h": 3600, "3h": 10800, "1d": 1, "7d": 7, "30d": 30 } as const;
export type Scale = keyof typeof SCALES;

export type HotContractsSort = { by: "transactions_count" | "total_gas_used"; order: "asc" | "desc" };
export type HotContractsCursor = { address: Address; transactions: string; gasUsed: string };

/**
 * Each order as ascending expressions (Blockscout's sorting, then its default: transactions descending, gas used
 * descending, the address ascending), so the cursor is one row comparison.
 */
const ORDERS: Record<string, readonly [string, string]> = {
  transactions_count_desc: ["-sum(h.transactions)", "-sum(h.gas_used)"],
  transactions_count_asc: ["sum(h.transactions)", "-sum(h.gas_used)"],
  total_gas_used_desc: ["-sum(h.gas_used)", "-sum(h.transactions)"],
  total_gas_used_asc: ["sum(h.gas_used)", "-sum(h.transactions)"],
};

/** The first slot of a scale at `now` (seconds): its minute slots, or its first UTC day. */
export function firstSlot(scale: Scale, now: number): { granularity: 60 | 86400; slot: number } {
  if (scale.endsWith("d")) return { granularity: 86400, slot: Math.floor(now / 86400) - SCALES[scale] };
  return { granularity: 60, slot: Math.floor((now - SCALES[scale]) / 60) };
}

/**
 * One page of hot contracts: the scale's slot rows of `hot_contracts` summed per recipient (a few rows each, not
 * the transactions), the recipients the index knows as contracts, in the order after the cursor.
 */
export function hotContractsPage(
  db: Queryable,
  scale: Scale,
  now: number,
  sort: HotContractsSort | null,
  after: HotContractsCursor | null,
  limit: number,
): Promise<HotContractRow[]> {
  const [first, second] = ORDERS[sort ? `${sort.by}_${sort.order}` : "transactions_count_desc"]!;
  const { granularity, slot } = firstSlot(scale, now);
  const params: unknown[] = [granularity, slot, limit];
  let keyset = "";
  if (after) {
    // The cursor's values in the order's expressions: a descending key compares negated.
    const value = (expr: string, v: string) => (expr.startsWith("-") ? `-${v}` : v);
    const v = (expr: string) =>
      value(expr, expr.includes("transactions") ? after.transactions : after.gasUsed);
    params.push(v(first), v(second), toBytea(after.address));
    keyset = ` and (${first}, ${second}, h.address) > ($4::numeric, $5::numeric, $6::bytea)`;
  }
  return db.query<HotContractRow>(
    `select p.address, p.transactions, p.gas_used, c.value::text as balance
     from (
       select h.address, sum(h.transactions)::text as transactions, sum(h.gas_used)::text as gas_used,
         ${first} as k1, ${second} as k2
       from hot_contracts h
       where h.granularity = $1 and h.slot >= $2
       group by h.address
       having ${everContractSql("h.address")}${keyset}
       order by ${first}, ${second}, h.address
       limit $3) p
     left join address_coin_balances c on c.address = p.address
     order by p.k1, p.k2, p.address`,
    params,
  );
}
