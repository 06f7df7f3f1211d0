import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type TopAccountRow = { address: Uint8Array; value: string; transactions_count: string | null };

/** The (balance, hash) cursor of the top-accounts list. */
export type TopAccountsCursor = { balance: string; hash: Address };

/**
 * Addresses with a positive balance, richest first, ties by hash (as Blockscout orders its top accounts), after the
 * cursor: one range scan of address_coin_balances_value_idx, one counter probe per row.
 */
export function topAccountsPage(
  db: Queryable,
  after: TopAccountsCursor | null,
  limit: number,
): Promise<TopAccountRow[]> {
  return db.query<TopAccountRow>(
    `select b.address, b.value::text as value, c.transactions_count::text as transactions_count
     from address_coin_balances b
     left join address_counters c on c.address = b.address
     where b.value > 0
       and ($1::numeric is null or b.value < $1 or (b.value = $1 and b.address > $2))
     order by b.value desc, b.address
     limit $3`,
    [after?.balance ?? null, after ? toBytea(after.hash) : null, limit],
  );
}
