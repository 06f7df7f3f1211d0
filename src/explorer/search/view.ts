import { type Address, getAddress, type Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import { usecTimestamp } from "../timestamp.js";
import type { BlockHit, TokenHit, TxHit } from "./query.js";

/** Blockscout's search result items (SearchView.prepare_search_result), the kinds Lookout can find. */
export type SearchItem =
  | {
      type: "address" | "contract";
      name: string | null;
      address_hash: Address;
      url: string;
      is_smart_contract_verified: boolean;
      ens_info: null;
      certified: false;
      priority: number;
      reputation: "ok";
      is_smart_contract_address: boolean;
    }
  | {
      type: "token";
      name: string | null;
      symbol: string | null;
      address_hash: Address;
      token_url: string;
      address_url: string;
      icon_url: null;
      token_type: string | null;
      is_smart_contract_verified: boolean;
      exchange_rate: null;
      total_supply: string | null;
      circulating_market_cap: null;
      is_verified_via_admin_panel: false;
      certified: false;
      priority: number;
      reputation: "ok";
      is_smart_contract_address: true;
    }
  | {
      type: "block";
      block_number: number;
      block_hash: Hex;
      url: string;
      timestamp: string;
      block_type: "block";
      priority: number;
    }
  | { type: "transaction"; transaction_hash: Hex; url: string; timestamp: string; priority: number };

export function addressItem(
  address: Address,
  kind: "address" | "contract",
  name: string | null,
  isContract: boolean,
  verified: boolean,
): SearchItem {
  const hash = getAddress(address);
  return {
    type: kind,
    name,
    address_hash: hash,
    url: `/address/${hash}`,
    is_smart_contract_verified: verified,
    ens_info: null,
    certified: false,
    priority: 0,
    reputation: "ok",
    is_smart_contract_address: isContract,
  };
}

/**
 * An ERC-404's supply in whole units: the most NFTs it can hold (one per whole unit). The frontend shows a non-ERC-20
 * token's `total_supply` as "Items N"; the raw ERC-20 supply (5 tokens of 18 decimals) would read
 * "Items 5,000,000,000,000,000,000". Search items only: `/tokens/{h}` keeps the raw supply, as Blockscout's.
 */
export function wholeUnits(raw: string | null, decimals: string | null): string | null {
  if (raw === null || !/^\d+$/.test(raw)) return raw;
  const d = decimals !== null && /^\d+$/.test(decimals) ? Number(decimals) : 0;
  return d > 0 && d <= 255 ? (BigInt(raw) / 10n ** BigInt(d)).toString() : raw;
}

export function tokenItem(t: TokenHit, verified: boolean): SearchItem {
  const hash = getAddress(fromBytea(t.address));
  return {
    type: "token",
    name: t.name,
    symbol: t.symbol,
    address_hash: hash,
    token_url: `/token/${hash}`,
    address_url: `/address/${hash}`,
    icon_url: null,
    token_type: t.type,
    is_smart_contract_verified: verified,
    exchange_rate: null,
    total_supply: t.type === "ERC-404" ? wholeUnits(t.total_supply, t.decimals) : t.total_supply,
    circulating_market_cap: null,
    is_verified_via_admin_panel: false,
    certified: false,
    priority: 2,
    reputation: "ok",
    is_smart_contract_address: true,
  };
}

export function blockItem(b: BlockHit): SearchItem {
  const hash = fromBytea(b.hash);
  return {
    type: "block",
    block_number: b.number,
    block_hash: hash,
    url: `/block/${hash}`,
    timestamp: usecTimestamp(b.timestamp),
    block_type: "block",
    priority: 3,
  };
}

export function transactionItem(t: TxHit): SearchItem {
  const hash = fromBytea(t.hash);
  return {
    type: "transaction",
    transaction_hash: hash,
    url: `/tx/${hash}`,
    timestamp: usecTimestamp(t.timestamp),
    priority: 3,
  };
}

export type RedirectResult = {
  redirect: boolean;
  type: "address" | "block" | "transaction" | null;
  parameter: string | null;
};

/** check-redirect's answer from the first search item that names one page. Pure. */
export function redirectView(item: SearchItem | undefined): RedirectResult {
  if (!item) return { redirect: false, type: null, parameter: null };
  switch (item.type) {
    case "block":
      return { redirect: true, type: "block", parameter: item.block_hash };
    case "transaction":
      return { redirect: true, type: "transaction", parameter: item.transaction_hash };
    default:
      return { redirect: true, type: "address", parameter: item.address_hash };
  }
}
