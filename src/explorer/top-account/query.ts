import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type TopAccountRow = { address: Uint8Array; value: string; transactions_count: string };

/** Blockscout's sortings of the list (addresses_sorting); null: balance descending. */
export type TopAccountsSort = { by: "balance" | "transactions_count"; order: "asc" | "desc" };

/** The cursor of the list: the last item's balance, hash and (for the count orders) transaction count. */
export type TopAccountsCursor = { balance: string; hash: Address; transactionsCount: string | null };

/**
 * Each order's keys and how a page reads them, so a page is one range scan of one index from the cursor's row.
 * Blockscout's orders: balance descending (the default) or ascending, then the hash (migration 101's indexes of
 * address_coin_balances); the transaction count either way, then the default. The count is kept in address_counters
 * alone (migration 153), so the count orders walk its index ((-transactions_count), address), forward for
 * descending and backward for ascending, and read each balance by primary key, keeping the positive ones: ties of
 * the count go by hash (ascending in the descending order, descending in the ascending one), not by balance first
 * as Blockscout's do, since no index holds both the count and the balance.
 */
type Order = {
  /** The row the page starts after is the one whose keys are greater (less with `backward`). */
  keys: readonly string[];
  types: readonly string[];
  values: (c: TopAccountsCursor) => Array<string | null>;
  backward?: boolean;
  /** Reads the count orders from address_counters (else address_coin_balances). */
  byCount?: boolean;
};

const ORDERS: Record<`${TopAccountsSort["by"]}_${TopAccountsSort["order"]}`, Order> = {
  balance_desc: {
    keys: ["(-b.value)", "b.address"],
    types: ["numeric", "bytea"],
    values: (c) => [`-${c.balance}`, c.hash],
  },
  balance_asc: {
    keys: ["b.value", "b.address"],
    types: ["numeric", "bytea"],
    values: (c) => [c.balance, c.hash],
  },
  transactions_count_desc: {
    keys: ["(-n.transactions_count)", "n.address"],
    types: ["int8", "bytea"],
    values: (c) => [`-${c.transactionsCount}`, c.hash],
    byCount: true,
  },
  transactions_count_asc: {
    keys: ["(-n.transactions_count)", "n.address"],
    types: ["int8", "bytea"],
    values: (c) => [`-${c.transactionsCount}`, c.hash],
    backward: true,
    byCount: true,
  },
};

/**
 * Addresses with a positive balance in Blockscout's order (ties of the count orders aside, see `ORDERS`), after the
 * cursor (a count order needs the cursor's count; without it the page starts from the top), each with its
 * transaction count.
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
  if (after && (!o.byCount || after.transactionsCount !== null)) {
    const placeholders = o.values(after).map((v, i) => {
      params.push(o.types[i] === "bytea" ? toBytea(v!) : v);
      return `$${params.length}::${o.types[i]}`;
    });
    where = ` and (${o.keys.join(", ")}) ${o.backward ? "<" : ">"} (${placeholders.join(", ")})`;
  }
  const order = o.keys.map((k) => (o.backward ? `${k} desc` : k)).join(", ");
  return db.query<TopAccountRow>(
    o.byCount
      ? `select n.address, b.value::text as value, n.transactions_count::text as transactions_count
         from address_counters n join address_coin_balances b on b.address = n.address
         where b.value > 0${where}
         order by ${order}
         limit $1`
      : `select b.address, b.value::text as value,
           coalesce((select n.transactions_count from address_counters n where n.address = b.address), 0)::text
             as transactions_count
         from address_coin_balances b
         where b.value > 0${where}
         order by ${order}
         limit $1`,
    params,
  );
}
