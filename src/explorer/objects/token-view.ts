import type { Address } from "viem";
import { checksummed } from "./checksum.js";

/** A tokens row as the explorer reads it (numerics as decimal strings). */
export type TokenFacts = {
  address: Address;
  type: string | null;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  totalSupply: string | null;
  holdersCount: number | null;
};

/** Blockscout's token object (TokenView "token.json", newest names). Pure. */
export type TokenObject = {
  address_hash: Address;
  circulating_market_cap: null;
  /** Market data upstream takes from its exchange-rate sources; Lookout has none. */
  circulating_supply: null;
  decimals: string | null;
  exchange_rate: null;
  holders_count: string | null;
  icon_url: null;
  name: string | null;
  reputation: "ok";
  symbol: string | null;
  total_supply: string | null;
  type: string | null;
  volume_24h: null;
};

export function tokenView(t: TokenFacts): TokenObject {
  return {
    address_hash: checksummed(t.address),
    circulating_market_cap: null,
    circulating_supply: null,
    decimals: t.decimals,
    exchange_rate: null,
    holders_count: t.holdersCount === null ? null : String(Math.max(0, t.holdersCount)),
    icon_url: null,
    name: t.name,
    reputation: "ok",
    symbol: t.symbol,
    total_supply: t.totalSupply,
    type: t.type,
    volume_24h: null,
  };
}

/** SQL columns that `tokenFactsFromRow` reads, for a `tokens` alias `t`. */
export const TOKEN_COLUMNS =
  "t.address as t_address, t.type as t_type, t.name as t_name, t.symbol as t_symbol, t.decimals::text as t_decimals, t.total_supply::text as t_total_supply, t.holders_count as t_holders_count";

export type TokenColumns = {
  t_address: Uint8Array | null;
  t_type: string | null;
  t_name: string | null;
  t_symbol: string | null;
  t_decimals: string | null;
  t_total_supply: string | null;
  t_holders_count: number | string | null;
};

export function tokenFactsFromRow(address: Address, r: TokenColumns): TokenFacts {
  return {
    address,
    type: r.t_type,
    name: r.t_name,
    symbol: r.t_symbol,
    decimals: r.t_decimals,
    totalSupply: r.t_total_supply,
    holdersCount: r.t_holders_count === null ? null : Number(r.t_holders_count),
  };
}
