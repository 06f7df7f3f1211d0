import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { page } from "../paging.js";
import {
  type TokenListCursor,
  type TokenListFilter,
  type TokenListOrder,
  tokenColumns,
  tokenListPage,
} from "./query.js";

export type TokenListNextPage = {
  contract_address_hash: string;
  fiat_value: null;
  holders_count: string;
  is_name_null: boolean;
  items_count: number;
  market_cap: null;
  name: string | null;
};

/** GET /tokens: one page of token objects and upstream's next_page_params (the same keys in every order). */
export async function tokenList(
  db: Queryable,
  filter: TokenListFilter,
  cursor: TokenListCursor | null,
  order: TokenListOrder = "holders_desc",
): Promise<{ items: TokenObject[]; next_page_params: TokenListNextPage | null }> {
  return page({
    rows: await tokenListPage(db, filter, cursor, order),
    // Upstream's keys in alphabetical order, items_count among them.
    cursor: (last) => ({
      contract_address_hash: fromBytea(last.t_address!),
      fiat_value: null,
      holders_count: String(last.t_holders_count ?? 0),
      is_name_null: last.t_name === null,
      items_count: 0,
      market_cap: null,
      name: last.t_name,
    }),
    render: (rows) => rows.map((r) => tokenView(tokenFactsFromRow(fromBytea(r.t_address!), r))),
  });
}

/** GET /tokens/{a}: the token object, or null when no such token was indexed. */
export async function tokenObject(db: Queryable, address: Address): Promise<TokenObject | null> {
  const r = await tokenColumns(db, address);
  return r ? tokenView(tokenFactsFromRow(address, r)) : null;
}
