import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { TokenMetadata } from "../../token-workers/metadata/index.js";
import { NFT_TYPES, type NftCursor, type NftType } from "../nft-params.js";
import { type AddressFactColumns, addressFactsSubquery } from "../objects/address-facts.js";
import { TOKEN_COLUMNS, type TokenColumns } from "../objects/token-view.js";
import { PAGE_LIMIT } from "../paging.js";

export type NftRow = TokenColumns &
  AddressFactColumns & {
    token_type: NftType;
    token_address: Uint8Array;
    token_id: string;
    value: string;
    metadata: Record<string, unknown> | null;
    /** Sum of all holders' balances of this id (ERC-1155/ERC-404), for is_unique. */
    id_supply: string | null;
  };

/**
 * One statement for a page, with the holder's address facts (o_* columns, the same on every row) joined so the
 * owner object costs no round trip of its own: a UNION ALL of index-ordered segments, each LIMIT 51, so every segment is one range scan
 * of token_holdings' primary key (holder, type, contract, id) however deep the cursor is. Within the cursor's type the
 * keyset condition `contract > c OR (contract = c AND id < i)` is split into its two ranges for the same reason.
 */
export function nftPageQuery(
  holder: Address,
  types: readonly NftType[],
  cursor: NftCursor | null,
  limit = PAGE_LIMIT,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [toBytea(holder), limit];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const base = (rank: number, type: NftType, extra: string, order: string) =>
    `(select ${rank} as r, token_type, token_address, token_id, value from token_holdings
      where holder = $1 and token_type = '${type}' and value > 0${extra} order by ${order} limit $2)`;
  const segments: string[] = [];
  const cursorRank = cursor ? NFT_TYPES.indexOf(cursor.tokenType) : -1;
  for (const type of types) {
    const rank = NFT_TYPES.indexOf(type);
    if (rank < cursorRank) continue;
    if (cursor && rank === cursorRank) {
      const a = p(toBytea(cursor.tokenAddress));
      const i = p(cursor.tokenId.toString());
      segments.push(
        base(rank * 2, type, ` and token_address = ${a} and token_id < ${i}::numeric`, "token_id desc"),
        base(rank * 2 + 1, type, ` and token_address > ${a}`, "token_address, token_id desc"),
      );
    } else {
      segments.push(base(rank * 2, type, "", "token_address, token_id desc"));
    }
  }
  if (!segments.length) return { sql: "select 1 where false", params: [] };
  const sql = `select h.token_type, h.token_address, h.token_id::text as token_id, h.value::text as value, i.metadata,
      case when h.token_type = 'ERC-721' then null else
        (select sum(s.value) from token_holdings s where s.token_address = h.token_address and s.token_id = h.token_id
           and s.value > 0)::text end as id_supply,
      ${TOKEN_COLUMNS}, o.*
    from (select * from (${segments.join(" union all ")}) u order by r, token_address, token_id desc limit $2) h
    left join token_instances i on i.token_address = h.token_address and i.token_id = h.token_id
    left join tokens t on t.address = h.token_address
    cross join ${addressFactsSubquery("$1")} o
    order by h.r, h.token_address, h.token_id desc`;
  return { sql, params };
}

export async function queryNftPage(
  db: Queryable,
  holder: Address,
  types: readonly NftType[],
  cursor: NftCursor | null,
): Promise<NftRow[]> {
  const { sql, params } = nftPageQuery(holder, types, cursor);
  if (!params.length) return [];
  return db.query<NftRow>(sql, params, { prepare: true });
}

export type CollectionCursor = { tokenAddress: Address; tokenType: NftType };
export type CollectionRow = TokenColumns & { token_type: NftType; token_address: Uint8Array; amount: string };
export type CollectionInstanceRow = {
  token_address: Uint8Array;
  token_type: NftType;
  token_id: string;
  value: string;
  metadata: TokenMetadata | null;
  id_supply: string | null;
};

/**
 * GET /addresses/{h}/nft/collections: up to PAGE_LIMIT of the holder's NFT contracts of the `ranked` types (type
 * order, then contract) after the cursor (`cursorRank`: the cursor type's index in NFT_TYPES); `amount` is the
 * number of distinct ids held.
 */
export function collectionRows(
  db: Queryable,
  holder: Address,
  ranked: readonly NftType[],
  cursor: CollectionCursor | null,
  cursorRank: number,
): Promise<CollectionRow[]> {
  return db.query<CollectionRow>(
    `select c.token_type, c.token_address, c.amount::text as amount, ${TOKEN_COLUMNS}
     from (select token_type, token_address, count(*) as amount,
             array_position(array['ERC-721','ERC-1155','ERC-404'], token_type) as r
           from token_holdings where holder = $1 and token_type = any($2::text[]) and value > 0
           group by token_type, token_address) c
     left join tokens t on t.address = c.token_address
     where ($3::int4 is null or (c.r, c.token_address) > ($3::int4, $4::bytea))
     order by c.r, c.token_address limit $5`,
    [
      toBytea(holder),
      ranked,
      cursor ? cursorRank + 1 : null,
      cursor ? toBytea(cursor.tokenAddress) : null,
      PAGE_LIMIT,
    ],
  );
}

/** Up to 9 of the holder's instances of each collection of a page (one statement for all). */
export function collectionInstances(
  db: Queryable,
  holder: Address,
  page: readonly CollectionRow[],
): Promise<CollectionInstanceRow[]> {
  return db.query<CollectionInstanceRow>(
    `select c.a as token_address, c.k as token_type, h.token_id::text as token_id, h.value::text as value, i.metadata,
       case when c.k = 'ERC-721' then null else (select sum(s.value) from token_holdings s
         where s.token_address = c.a and s.token_id = h.token_id and s.value > 0)::text end as id_supply
     from unnest($2::bytea[], $3::text[]) as c(a, k)
     cross join lateral (select token_id, value from token_holdings where holder = $1 and token_type = c.k
       and token_address = c.a and value > 0 order by token_id desc limit 9) h
     left join token_instances i on i.token_address = c.a and i.token_id = h.token_id`,
    [toBytea(holder), page.map((r) => r.token_address), page.map((r) => r.token_type)],
  );
}
