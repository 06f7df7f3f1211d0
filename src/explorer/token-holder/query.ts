import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { type AddressFactColumns, addressFactsSubquery } from "../objects/address-facts.js";
import { PAGE_LIMIT } from "../paging.js";

/** The keyset of a holders page: upstream's (value, address_hash), and the id for per-id rows. */
export type HolderCursor = { value: bigint; holder: Address; tokenId: bigint | null };
export type HolderRow = { holder: Uint8Array; value: string; token_id: string | null };

/** Above every stored value, holder and id: the first page's cursor, so every page is one keyset range scan. */
const TOP = { value: "1e100", holder: Buffer.alloc(21, 0xff), tokenId: "1e100" };

/**
 * GET /tokens/{h}/holders as one statement: the token's type (none: unknown token) and the page of its holders
 * with the address facts of each (addressFactsSubquery columns). Per-holder balances (ERC-20 and ERC-404 fungible
 * balances, ERC-721 id counts) or, for ERC-1155, one row per (holder, id), by value then holder descending, as
 * upstream lists its current token balances: the branch of the token's type is one backward range scan of its
 * (token, value, holder[, id]) index after the cursor; the others are cut by the type test before they scan.
 */
export const HOLDERS_PAGE_SQL = `select t.type, h.holder, h.value::text as value, h.token_id::text as token_id,
    f.o_is_contract, f.o_token_name, f.o_proxy_type, f.o_implementation
  from tokens t
  left join lateral (
    (select holder, value, null::numeric as token_id from token_fungible_balances
      where t.type in ('ERC-20', 'ERC-404') and token_address = $1 and value > 0
        and (value, holder) < ($2::numeric, $3::bytea)
      order by value desc, holder desc limit $5)
    union all
    (select holder, value, null::numeric from token_erc721_balances
      where t.type = 'ERC-721' and token_address = $1 and value > 0
        and (value, holder) < ($2::numeric, $3::bytea)
      order by value desc, holder desc limit $5)
    union all
    (select holder, value, token_id from token_holdings
      where t.type = 'ERC-1155' and token_address = $1 and value > 0
        and (value, holder, token_id) < ($2::numeric, $3::bytea, $4::numeric)
      order by value desc, holder desc, token_id desc limit $5)
  ) h on true
  left join lateral ${addressFactsSubquery("h.holder")} f on true
  where t.address = $1
  order by h.value desc, h.holder desc, h.token_id desc`;

export type HoldersPageRow = AddressFactColumns & {
  type: string;
  holder: Uint8Array | null;
  value: string | null;
  token_id: string | null;
};

/** The page (up to PAGE_LIMIT rows) and the token's type; null when no such token was indexed. */
export async function holdersPage(
  db: Queryable,
  token: Address,
  cursor: HolderCursor | null,
): Promise<{ type: string; rows: Array<HolderRow & AddressFactColumns> } | null> {
  const rows = await db.query<HoldersPageRow>(
    HOLDERS_PAGE_SQL,
    [
      toBytea(token),
      cursor ? cursor.value.toString() : TOP.value,
      cursor ? toBytea(cursor.holder) : TOP.holder,
      cursor ? (cursor.tokenId?.toString() ?? TOP.tokenId) : TOP.tokenId,
      PAGE_LIMIT,
    ],
    { prepare: true },
  );
  const first = rows[0];
  if (!first) return null;
  return {
    type: first.type,
    rows: rows.filter((r): r is HoldersPageRow & HolderRow & { holder: Uint8Array } => r.holder !== null),
  };
}

/** GET /tokens/{h}/instances/{id}/holders: the id's holders by value then holder descending. */
export function instanceHoldersPage(
  db: Queryable,
  token: Address,
  tokenId: bigint,
  cursor: HolderCursor | null,
): Promise<HolderRow[]> {
  return db.query<HolderRow>(
    `select holder, value::text as value, token_id::text as token_id from token_holdings
     where token_address = $1 and token_id = $2 and value > 0
       and ($3::numeric is null or (value, holder) < ($3::numeric, $4::bytea))
     order by value desc, holder desc limit $5`,
    [
      toBytea(token),
      tokenId.toString(),
      cursor ? cursor.value.toString() : null,
      cursor ? toBytea(cursor.holder) : null,
      PAGE_LIMIT,
    ],
  );
}
