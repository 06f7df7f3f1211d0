import type { Address } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { TokenMetadata } from "../../token-workers/metadata/index.js";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObject } from "../objects/address-facts.js";
import { NFT_TYPES, type NftType } from "../objects/nft-params.js";
import { isUnique, type TokenInstanceObject, tokenInstanceView } from "../objects/token-instance-view.js";
import {
  TOKEN_COLUMNS,
  type TokenColumns,
  type TokenObject,
  tokenFactsFromRow,
  tokenView,
} from "../objects/token-view.js";
import { PAGE_LIMIT, page } from "../paging.js";
import { nftItemValue } from "./view.js";

export type CollectionCursor = { tokenAddress: Address; tokenType: NftType };

export type NftCollectionItem = {
  token: TokenObject | null;
  amount: string;
  token_instances: Array<TokenInstanceObject & { token_type: NftType; value: string }>;
};

export type NftCollectionsPage = {
  items: NftCollectionItem[];
  next_page_params: { items_count: number; token_contract_address_hash: string; token_type: NftType } | null;
};

type CollectionRow = TokenColumns & { token_type: NftType; token_address: Uint8Array; amount: string };
type InstanceRow = {
  token_address: Uint8Array;
  token_type: NftType;
  token_id: string;
  value: string;
  metadata: TokenMetadata | null;
  id_supply: string | null;
};

/**
 * GET /addresses/{h}/nft/collections: the holder's NFT contracts (type order, then contract), ≤ 9 instances each.
 * `amount` is the number of distinct ids held, as upstream counts it (for ERC-721 that is also its balance).
 */
export async function nftCollectionsPage(
  db: Queryable,
  holder: Address,
  types: readonly NftType[],
  cursor: CollectionCursor | null,
  deps: Omit<ExplorerDeps, "db">,
): Promise<NftCollectionsPage> {
  const cursorRank = cursor ? NFT_TYPES.indexOf(cursor.tokenType) : -1;
  const ranked = types.filter((t) => NFT_TYPES.indexOf(t) >= cursorRank);
  if (!ranked.length) return { items: [], next_page_params: null };
  const rows = await db.query<CollectionRow>(
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
  return page({
    rows,
    // Upstream's keys in alphabetical order, items_count first.
    cursor: (last) => ({
      items_count: 0,
      token_contract_address_hash: fromBytea(last.token_address),
      token_type: last.token_type,
    }),
    render: (page) => collectionItems(db, holder, page, deps),
  });
}

/** The collections of a page with up to 9 of the holder's instances each (one statement for all). */
async function collectionItems(
  db: Queryable,
  holder: Address,
  page: readonly CollectionRow[],
  deps: Omit<ExplorerDeps, "db">,
): Promise<NftCollectionItem[]> {
  const instances = await db.query<InstanceRow>(
    `select c.a as token_address, c.k as token_type, h.token_id::text as token_id, h.value::text as value, i.metadata,
       case when c.k = 'ERC-721' then null else (select sum(s.value) from token_holdings s
         where s.token_address = c.a and s.token_id = h.token_id and s.value > 0)::text end as id_supply
     from unnest($2::bytea[], $3::text[]) as c(a, k)
     cross join lateral (select token_id, value from token_holdings where holder = $1 and token_type = c.k
       and token_address = c.a and value > 0 order by token_id desc limit 9) h
     left join token_instances i on i.token_address = c.a and i.token_id = h.token_id`,
    [toBytea(holder), page.map((r) => r.token_address), page.map((r) => r.token_type)],
  );
  const owner = await loadAddressObject(db, holder, deps);
  const byKey = new Map<string, InstanceRow[]>();
  for (const i of instances) {
    const k = `${i.token_type}|${fromBytea(i.token_address)}`;
    byKey.set(k, [...(byKey.get(k) ?? []), i]);
  }
  return page.map((r): NftCollectionItem => {
    const address = fromBytea(r.token_address);
    return {
      token: r.t_address ? tokenView(tokenFactsFromRow(address, r)) : null,
      amount: r.amount,
      token_instances: (byKey.get(`${r.token_type}|${address}`) ?? []).map((i) => ({
        ...tokenInstanceView({
          id: i.token_id,
          metadata: i.metadata,
          token: null,
          unique: isUnique(i.token_type, i.id_supply),
          owner,
          holder,
          gateways: deps.gateways ?? {},
        }),
        token_type: i.token_type,
        value: nftItemValue(i.token_type, i.value, r.t_decimals),
      })),
    };
  });
}
