import type { Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObject } from "../objects/address-facts.js";
import { NO_VERIFIED_CONTRACTS } from "../objects/verified-store.js";
import { PAGE_SIZE } from "../paging.js";
import {
  addressKnown,
  blockByHashHit,
  blockByNumberHit,
  contractsByName,
  type NameCursor,
  tokenByAddress,
  tokensByName,
  transactionHit,
  wordPrefixQuery,
} from "./query.js";
import {
  addressItem,
  blockItem,
  type RedirectResult,
  redirectView,
  type SearchItem,
  tokenItem,
  transactionItem,
} from "./view.js";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const NUMBER = /^[0-9]{1,15}$/;
const MIN_TEXT_LENGTH = 3;

/**
 * Blockscout's joint search over what Lookout indexes: an address (and the token at it), a transaction or block
 * hash, a block number, token names and symbols, verified contract names (each word of the query the prefix of a
 * word of the name). The first page (50) of results; searchPage pages on.
 */
export async function searchResults(
  deps: ExplorerDeps,
  q: string,
  after: NameCursor | null,
): Promise<{ items: SearchItem[]; next_page_params: SearchPageParams | null }> {
  const text = q.trim();
  if (!text) return { items: [], next_page_params: null };
  if (after) return searchPage(deps, text, after);
  const only = (items: SearchItem[]) => ({ items, next_page_params: null });
  const db = deps.db;
  if (ADDRESS.test(text)) {
    const address = text.toLowerCase() as Address;
    const [o, known, token] = await Promise.all([
      loadAddressObject(db, address, deps),
      addressKnown(db, address),
      tokenByAddress(db, address),
    ]);
    // The frontend's token item needs a name and symbol: a token without them is found as its address.
    const items: SearchItem[] = token
      .filter((t) => t.name !== null && t.symbol !== null)
      .map((t) => tokenItem(t, o.is_verified));
    if (known || o.is_contract || o.is_verified)
      items.push(addressItem(address, "address", o.name, o.is_contract, o.is_verified));
    return only(items);
  }
  if (HASH.test(text)) {
    const hash = text.toLowerCase() as Hex;
    const [txs, blocks] = await Promise.all([transactionHit(db, hash), blockByHashHit(db, hash)]);
    return only([...txs.map(transactionItem), ...blocks.map(blockItem)]);
  }
  return searchPage(deps, text, null);
}

/** The first page of results (`/search/quick`, `/search/check-redirect`). */
export async function search(deps: ExplorerDeps, q: string): Promise<SearchItem[]> {
  return (await searchResults(deps, q, null)).items;
}

/** Blockscout's next_page_params of a search page (the frontend's SearchResult type), from the page's last match. */
export type SearchPageParams = {
  address_hash: Address;
  block_hash: null;
  holders_count: number | null;
  inserted_at: null;
  item_type: "token" | "contract";
  items_count: number;
  name: string;
  q: string;
  transaction_hash: null;
};

/**
 * A page of `/search` for a text query: the block of that number (first page only), then the tokens, then the
 * verified contracts whose names match, resuming after `after` (keyset: each list is read from its index in
 * order, at most one page past the cursor).
 */
export async function searchPage(
  deps: ExplorerDeps,
  q: string,
  after: NameCursor | null,
): Promise<{ items: SearchItem[]; next_page_params: SearchPageParams | null }> {
  const text = q.trim();
  const db = deps.db;
  const entries: Array<{ item: SearchItem; cursor: NameCursor | null }> = [];
  if (!after && NUMBER.test(text))
    for (const b of await blockByNumberHit(db, Number(text)))
      entries.push({ item: blockItem(b), cursor: null });
  // Names are searched from three characters on, as Blockscout does (a shorter number is a block number only).
  const words = text.length >= MIN_TEXT_LENGTH ? wordPrefixQuery(text) : null;
  if (words) {
    const [tokens, contracts] = await Promise.all([
      after?.kind === "contract"
        ? []
        : tokensByName(db, words, PAGE_SIZE + 1, after?.kind === "token" ? after : null),
      contractsByName(db, words, PAGE_SIZE + 1, after?.kind === "contract" ? after : null),
    ]);
    const verified = await (deps.verified ?? NO_VERIFIED_CONTRACTS)(
      tokens.map((t) => fromBytea(t.address) as Address),
    );
    for (const t of tokens) {
      const address = fromBytea(t.address) as Address;
      entries.push({
        item: tokenItem(t, verified.has(address)),
        cursor: { kind: "token", holders: t.holders_count, name: t.name ?? "", address },
      });
    }
    for (const c of contracts) {
      const address = fromBytea(c.address) as Address;
      entries.push({
        item: addressItem(address, "contract", c.name, true, true),
        cursor: { kind: "contract", name: c.name, address },
      });
    }
  }
  const page = entries.slice(0, PAGE_SIZE);
  const last = page[page.length - 1]?.cursor;
  return {
    items: page.map((e) => e.item),
    next_page_params:
      entries.length > PAGE_SIZE && last
        ? {
            address_hash: last.address,
            block_hash: null,
            holders_count: last.kind === "token" ? last.holders : null,
            inserted_at: null,
            item_type: last.kind,
            items_count: PAGE_SIZE,
            name: last.name,
            q: text,
            transaction_hash: null,
          }
        : null,
  };
}

/** `/search/check-redirect`: where a query for exactly one address, transaction or block leads. */
export async function checkRedirect(deps: ExplorerDeps, q: string): Promise<RedirectResult> {
  const text = q.trim();
  if (ADDRESS.test(text)) return redirectView((await search(deps, text)).find((i) => i.type === "address"));
  if (HASH.test(text) || NUMBER.test(text))
    return redirectView(
      (await search(deps, text)).find((i) => i.type === "block" || i.type === "transaction"),
    );
  return redirectView(undefined);
}
