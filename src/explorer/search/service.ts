import type { Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { type AddressDeps, loadAddressFacts, NO_VERIFIED_CONTRACTS } from "../address/query.js";
import { PAGE_SIZE } from "../paging.js";
import {
  addressKnown,
  blockByHashHit,
  blockByNumberHit,
  contractsByName,
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

export type SearchDeps = AddressDeps & { db: Queryable };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const NUMBER = /^[0-9]{1,15}$/;
const MIN_TEXT_LENGTH = 3;

/**
 * Blockscout's joint search over what Lookout indexes: an address (and the token at it), a transaction or block
 * hash, a block number, token names and symbols, verified contract names (each word of the query the prefix of a
 * word of the name). At most one page (50) of results.
 */
export async function search(deps: SearchDeps, q: string): Promise<SearchItem[]> {
  const text = q.trim();
  if (!text) return [];
  const db = deps.db;
  if (ADDRESS.test(text)) {
    const address = text.toLowerCase() as Address;
    const [facts, known, token] = await Promise.all([
      loadAddressFacts(db, [address], deps),
      addressKnown(db, address),
      tokenByAddress(db, address),
    ]);
    const f = facts.get(address)!;
    // The frontend's token item needs a name and symbol: a token without them is found as its address.
    const items: SearchItem[] = token
      .filter((t) => t.name !== null && t.symbol !== null)
      .map((t) => tokenItem(t, f.isVerified));
    if (known || f.isContract || f.isVerified)
      items.push(addressItem(address, "address", f.verifiedName ?? f.tokenName, f.isContract, f.isVerified));
    return items;
  }
  if (HASH.test(text)) {
    const hash = text.toLowerCase() as Hex;
    const [txs, blocks] = await Promise.all([transactionHit(db, hash), blockByHashHit(db, hash)]);
    return [...txs.map(transactionItem), ...blocks.map(blockItem)];
  }
  const items: SearchItem[] = [];
  if (NUMBER.test(text)) items.push(...(await blockByNumberHit(db, Number(text))).map(blockItem));
  // Names are searched from three characters on, as Blockscout does (a shorter number is a block number only).
  const words = text.length >= MIN_TEXT_LENGTH ? wordPrefixQuery(text) : null;
  if (!words) return items;
  const [tokens, contracts] = await Promise.all([
    tokensByName(db, words, PAGE_SIZE),
    contractsByName(db, words, PAGE_SIZE),
  ]);
  const verified = await (deps.verified ?? NO_VERIFIED_CONTRACTS)(
    tokens.map((t) => fromBytea(t.address) as Address),
  );
  items.push(...tokens.map((t) => tokenItem(t, verified.has(fromBytea(t.address) as Address))));
  items.push(
    ...contracts.map((c) => addressItem(fromBytea(c.address) as Address, "contract", c.name, true, true)),
  );
  return items.slice(0, PAGE_SIZE);
}

/** `/search/check-redirect`: where a query for exactly one address, transaction or block leads. */
export async function checkRedirect(deps: SearchDeps, q: string): Promise<RedirectResult> {
  const text = q.trim();
  if (ADDRESS.test(text)) return redirectView((await search(deps, text)).find((i) => i.type === "address"));
  if (HASH.test(text) || NUMBER.test(text))
    return redirectView(
      (await search(deps, text)).find((i) => i.type === "block" || i.type === "transaction"),
    );
  return redirectView(undefined);
}
