import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { TOKEN_COLUMNS, type TokenColumns } from "../objects/token-view.js";

/** One current token balance as Blockscout keeps it (address_current_token_balances). */
export type TokenBalanceRow = TokenColumns & {
  token_address: Uint8Array;
  token_id: string | null;
  value: string;
};

export const TOKEN_TYPES = ["ERC-20", "ERC-721", "ERC-1155", "ERC-404"] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

/**
 * Every current balance of a holder of the given token types, in Blockscout's shapes: fungible balances (ERC-20,
 * ERC-404's fungible side) per token, ERC-721 as one row per collection whose value is the number of ids held,
 * ERC-1155 per id. Each part is a range of the holder's primary-key or page index.
 */
export function tokenBalances(
  db: Queryable,
  holder: Address,
  types: readonly TokenType[],
): Promise<TokenBalanceRow[]> {
  return db.query<TokenBalanceRow>(
    `select f.token_address, null::text as token_id, f.value::text as value, ${TOKEN_COLUMNS}
       from token_fungible_balances f join tokens t on t.address = f.token_address
       where f.holder = $1 and f.value > 0 and t.type = any($2::text[]) and t.type in ('ERC-20', 'ERC-404')
     union all
     select h.token_address, null::text, count(*)::text, ${TOKEN_COLUMNS}
       from token_holdings h join tokens t on t.address = h.token_address
       where h.holder = $1 and h.token_type = 'ERC-721' and h.value > 0 and 'ERC-721' = any($2::text[])
       group by h.token_address, t.address
     union all
     select h.token_address, h.token_id::text, h.value::text, ${TOKEN_COLUMNS}
       from token_holdings h join tokens t on t.address = h.token_address
       where h.holder = $1 and h.token_type = 'ERC-1155' and h.value > 0 and 'ERC-1155' = any($2::text[])`,
    [toBytea(holder), types],
  );
}

/** Number of current balances, counted up to `cap` (Blockscout's tab counters stop at 51). */
export async function tokenBalancesCountUpTo(db: Queryable, holder: Address, cap: number): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from (
       (select 1 from token_fungible_balances where holder = $1 and value > 0 limit $2)
       union all
       (select 1 from (select distinct token_address from token_holdings
          where holder = $1 and token_type = 'ERC-721' and value > 0 limit $2) d)
       union all
       (select 1 from token_holdings where holder = $1 and token_type = 'ERC-1155' and value > 0 limit $2)
     ) x`,
    [toBytea(holder), cap],
  );
  return Math.min(cap, row?.n ?? 0);
}

/**
 * The tokens whose balances of `holders` changed in blocks `from..to` (they sent or received them), with the last
 * block that changed them and the ids that moved (NFTs): one range of each per-role transfers index per holder.
 */
export function rangeChangedTokens(
  db: Queryable,
  holders: readonly Address[],
  from: number,
  to: number,
): Promise<
  Array<{ holder: Uint8Array; token_address: Uint8Array; block_number: number; token_ids: string[] | null }>
> {
  return db.query(
    `select holder, token_address, max(block_number)::int8 as block_number,
       array_agg(distinct token_id::text) filter (where token_id is not null) as token_ids from (
       select from_address as holder, token_address, block_number, token_id from token_transfers
         where from_address = any($1::bytea[]) and block_number between $2 and $3
       union all
       select to_address, token_address, block_number, token_id from token_transfers
         where to_address = any($1::bytea[]) and block_number between $2 and $3) x
     group by holder, token_address`,
    [holders.map(toBytea), from, to],
  );
}

/** The token columns of each of `tokens` (primary-key probes), as rows without a balance. */
export function tokenColumnsOf(
  db: Queryable,
  tokens: readonly Uint8Array[],
): Promise<Array<TokenColumns & { token_address: Uint8Array }>> {
  return db.query(
    `select t.address as token_address, ${TOKEN_COLUMNS} from tokens t where t.address = any($1::bytea[])`,
    [tokens],
  );
}
