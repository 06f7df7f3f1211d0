import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import { deriveMediaUrls, type Gateways } from "../../token-workers/metadata/index.js";
import type { NftType } from "../nft-params.js";
import type { AddressObject } from "../objects/address-view.js";
import { isUnique, type TokenInstanceObject, tokenInstanceView } from "../objects/token-instance-view.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import type { CollectionInstanceRow, CollectionRow, NftRow } from "./query.js";

export type NftItem = TokenInstanceObject & { token_type: NftType; value: string };

/**
 * An NFT item's `value`. The frontend shows "Qty" as value / 10^decimals whenever the token has decimals, which only
 * an ERC-404 token has (1155 decimals are never read): an ERC-404 id held is one unit, 10^decimals in base units, so
 * that is what is sent; "1" would show as "Qty 0". Pure.
 */
export function nftItemValue(type: NftType, value: string, decimals: string | null): string {
  if (type === "ERC-721") return "1";
  if (type === "ERC-404" && decimals !== null && /^\d{1,3}$/.test(decimals))
    return (BigInt(value) * 10n ** BigInt(decimals)).toString();
  return value;
}

/** What every item of one /addresses/{h}/nft page shares, worked out once per page rather than once per item. */
export type NftPageContext = {
  /** The queried address as checksummed holder_address_hash. */
  holderHash: Address;
  /** Its address object, the owner of unique items. */
  owner: AddressObject;
  gateways: Partial<Gateways>;
  /** The token object of a row's contract (the same object for every item of that contract). */
  token: (row: NftRow) => TokenObject | null;
};

/**
 * One item of /addresses/{h}/nft: tokenInstanceView's fields plus token_type and value, built as one literal in the
 * same key order (a page has 50 of them, so no intermediate objects). Pure.
 */
export function nftItemView(row: NftRow, ctx: NftPageContext): NftItem {
  const unique = isUnique(row.token_type, row.id_supply);
  const media = deriveMediaUrls(row.metadata, ctx.gateways);
  return {
    id: row.token_id,
    metadata: row.metadata,
    owner: unique ? ctx.owner : null,
    token: ctx.token(row),
    external_app_url: media.external_app_url,
    animation_url: media.animation_url,
    image_url: media.image_url,
    media_url: media.media_url,
    media_type: null,
    thumbnails: null,
    is_unique: unique,
    holder_address_hash: ctx.holderHash,
    token_type: row.token_type,
    value: nftItemValue(row.token_type, row.value, row.t_decimals),
  };
}

/**
 * NftPageContext.token: tokenView once per contract of the page. Rows come grouped by contract, so most rows are
 * answered by comparing their 20 address bytes with the previous row's, without converting them to hex.
 */
export function pageTokenViews(): NftPageContext["token"] {
  const seen = new Map<string, TokenObject | null>();
  let lastBytes: Uint8Array | null = null;
  let last: TokenObject | null = null;
  return (row) => {
    if (lastBytes !== null && Buffer.compare(lastBytes, row.token_address) === 0) return last;
    const address = fromBytea(row.token_address);
    let t = seen.get(address);
    if (t === undefined) {
      t = row.t_address ? tokenView(tokenFactsFromRow(address, row)) : null;
      seen.set(address, t);
    }
    lastBytes = row.token_address;
    last = t;
    return t;
  };
}

export type NftNextPageParams = {
  items_count: number;
  token_contract_address_hash: string;
  token_id: string;
  token_type: NftType;
};

export type NftPage = { items: NftItem[]; next_page_params: NftNextPageParams | null };

// What JSON.stringify escapes in a string: quote, backslash, control characters and (lone) surrogates. Calling it on
// every one of a page's ~600 short strings costs more than this test.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * The JSON of an /addresses/{h}/nft page, as JSON.stringify would write it, but with each shared object (the
 * owner's address object, repeated in every unique item, and a contract's token object) serialised once per page:
 * they are the same instances on every item (see NftPageContext), and they are most of a page's bytes. Pure.
 */
export function serializeNftPage(page: NftPage): string {
  const shared = new Map<object, string>();
  const once = (v: object | null): string => {
    if (v === null) return "null";
    let s = shared.get(v);
    if (s === undefined) {
      s = JSON.stringify(v);
      shared.set(v, s);
    }
    return s;
  };
  const str = (v: string | null) =>
    v === null ? "null" : NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
  const items = page.items.map(
    (i) =>
      `{"id":${str(i.id)},"metadata":${JSON.stringify(i.metadata)},"owner":${once(i.owner)},"token":${once(i.token)},` +
      `"external_app_url":${str(i.external_app_url)},"animation_url":${str(i.animation_url)},` +
      `"image_url":${str(i.image_url)},"media_url":${str(i.media_url)},"media_type":${str(i.media_type)},` +
      `"thumbnails":${JSON.stringify(i.thumbnails)},"is_unique":${i.is_unique},` +
      `"holder_address_hash":${str(i.holder_address_hash)},"token_type":${str(i.token_type)},"value":${str(i.value)}}`,
  );
  return `{"items":[${items.join(",")}],"next_page_params":${JSON.stringify(page.next_page_params)}}`;
}

export type NftCollectionItem = {
  token: TokenObject | null;
  amount: string;
  token_instances: Array<TokenInstanceObject & { token_type: NftType; value: string }>;
};

export type NftCollectionsPage = {
  items: NftCollectionItem[];
  next_page_params: { items_count: number; token_contract_address_hash: string; token_type: NftType } | null;
};

/** The collections of a page, each with its instances (all held by `holder`, whose address object is `owner`). Pure. */
export function collectionItemsView(
  page: readonly CollectionRow[],
  instances: readonly CollectionInstanceRow[],
  o: { holder: Address; owner: AddressObject; gateways: Partial<Gateways> },
): NftCollectionItem[] {
  const byKey = new Map<string, CollectionInstanceRow[]>();
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
          owner: o.owner,
          holder: o.holder,
          gateways: o.gateways,
        }),
        token_type: i.token_type,
        value: nftItemValue(i.token_type, i.value, r.t_decimals),
      })),
    };
  });
}
