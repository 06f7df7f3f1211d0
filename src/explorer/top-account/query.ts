import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type TopAccountRow = { address: Uint8Array; value: string; transactions_count: string };

/** Blockscout's sortings of the list (addresses_sorting); null: balance descending. */
export type TopAccountsSort = { by: "balance" | "transactions_count"; order: "asc" | "desc" };

/** The cursor of the list: the last item's balance, hash and (for the count orders) transaction count. */
export type TopAccountsCursor = { balance: string; hash: Address; transactionsCount: string | null };

/**
 * Each order's keys, all ascending expressions of its index (migrations 085, 101), so a page is one forward range
 * scan from the cursor's row. Blockscout's orders: balance descending (the default) or ascending, then the hash;
 * the transaction count either way, then the default.
 */
type Order = { keys: readonly string[]; values: (c: TopAccountsCursor) => Array<string | null> };

const ORDERS: Record<`${TopAccountsSort["by"]}_${TopAccountsSort["order"]}`, Order> = {
  balance_desc: {
    keys: ["(-b.value)", "b.address"],
    values: (c: TopAccountsCursor) => [`-${c.balance}`, c.hash],
  },
  balance_asc: { keys: ["b.value", "b.address"], values: (c: TopAccountsCursor) => [c.balance, c.hash] },
  transactions_count_desc: {
    keys: ["(-b.transactions_count)", "(-b.value)", "b.address"],
    values: (c: TopAccountsCursor) => [`-${c.transactionsCount}`, `-${c.balance}`, c.hash],
  },
  transactions_count_asc: {
    keys: ["b.transactions_count", "(-b.value)", "b.address"],
    values: (c: TopAccountsCursor) => [c.transactionsCount, `-${c.balance}`, c.hash],
  },
};

const TYPES = ["numeric", "bytea"] as const;

/**
 * Addresses with a positive balance in Blockscout's order, after the cursor (a count order needs the cursor's
 * count; without it the page starts from the top), with the transaction count kept beside the balance.
 */
export function topAccountsPage(
  db: Queryable,
  sort: TopAccountsSort | null,
  after: TopAccountsCursor | null,
  limit: number,
): Promise<TopAccountRow[]> {
  const o = ORDERS[sort ? (`${sort.by}_${sort.order}` as const) : "balance_desc"];
  const params: unknown[] = [limit];
  let where = "";
  if (after && (o.keys.length === 2 || after.transactionsCount !== null)) {
    const values = o.values(after);
    const types: readonly string[] = o.keys.length === 2 ? TYPES : ["int8", ...TYPES];
    const placeholders = values.map((v, i) => {
      params.push(types[i] === "bytea" ? toBytea(v!) : v);
      return `$${params.length}::${types[i]}`;
    });
    where = ` and (${o.keys.join(", ")}) > (${placeholders.join(", ")})`;
  }
  return db.query<TopAccountRow>(
    `select b.address, b.value::text as value, b.transactions_count::text as transactions_count
     from address_coin_balances b
     where b.value > 0${where}
     order by ${o.keys.join(", ")}
     limit $1`,
    params,
  );
}
