import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type TokenRow = {
  address: Uint8Array;
  type: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  total_supply: string | null;
  cataloged: boolean;
};

export async function tokenByAddress(db: Queryable, token: Address): Promise<TokenRow | null> {
  const [r] = await db.query<TokenRow>(
    `select address, type, name, symbol, decimals::text as decimals, total_supply::text as total_supply,
       properties_fetched_at is not null as cataloged
     from tokens where address = $1`,
    [toBytea(token)],
  );
  return r ?? null;
}

/**
 * A token's holders by balance, highest first, offset-paged: a backward scan of the (token_address, value, holder)
 * index of the standard's balance table (ERC-1155: one row per holder and id, as Blockscout's current balances).
 */
export function tokenHolders(
  db: Queryable,
  token: Address,
  type: string,
  page: number,
  offset: number,
): Promise<Array<{ holder: Uint8Array; value: string }>> {
  const table =
    type === "ERC-721"
      ? "token_erc721_balances where token_address = $1 and value > 0"
      : type === "ERC-1155"
        ? "token_holdings where token_address = $1 and value > 0"
        : "token_fungible_balances where token_address = $1 and value > 0";
  return db.query(
    `select holder, value::text as value from ${table} order by value desc, holder desc offset $2 limit $3`,
    [toBytea(token), (page - 1) * offset, offset],
  );
}
