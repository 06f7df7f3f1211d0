import { type Address, getAddress, type Hex } from "viem";
import type { MultichainChain } from "./chains.js";

// The multichain aggregator's messages (blockscout-rs multichain-aggregator.proto and cluster-explorer.proto) as its
// HTTP API writes them: snake_case fields, enums by name, 64-bit integers as strings, addresses checksummed.

export type AggregatorChain = { id: string; name: string; explorer_url: string; icon_url: string };

export type AggregatorAddress = {
  hash: Address;
  domain_info: null;
  contract_name: string | null;
  token_name: string | null;
  token_type: TokenTypeName;
  is_contract: boolean;
  is_verified_contract: boolean;
  is_token: boolean;
  chain_id: string;
};

export type HashType = "HASH_TYPE_BLOCK" | "HASH_TYPE_TRANSACTION";
export type AggregatorHash = { hash: Hex; hash_type: HashType; chain_id: string };
export type ChainBlockNumber = { chain_id: string; block_number: string };

export type AggregatorToken = {
  address: Address;
  icon_url: null;
  name: string | null;
  symbol: string | null;
  chain_id: string;
  is_verified_contract: boolean;
};

export type QuickSearchResponse = {
  addresses: AggregatorAddress[];
  blocks: AggregatorHash[];
  transactions: AggregatorHash[];
  block_numbers: ChainBlockNumber[];
  dapps: never[];
  tokens: AggregatorToken[];
  nfts: AggregatorAddress[];
  domains: never[];
};

export type Pagination = { page_token: string; page_size: number };
export type ListResponse<T> = { items: T[]; next_page_params: Pagination | null };

/** The cluster's AggregatedTokenInfo of a token found on one chain (one `chain_infos` entry). */
export type AggregatedTokenInfo = {
  address_hash: Address;
  circulating_market_cap: null;
  decimals: null;
  holders_count: null;
  icon_url: null;
  name: string | null;
  symbol: string | null;
  total_supply: string | null;
  type: TokenTypeName;
  exchange_rate: null;
  chain_infos: Record<
    string,
    { holders_count: null; total_supply: string | null; is_verified: boolean; contract_name: null }
  >;
};

export type ClusterQuickSearchResponse = Omit<QuickSearchResponse, "addresses" | "tokens" | "nfts"> & {
  addresses: GetAddressResponse[];
  tokens: AggregatedTokenInfo[];
  nfts: AggregatedTokenInfo[];
};

export function aggregatedTokenView(
  chainId: string,
  t: {
    address: Address;
    name: string | null;
    symbol: string | null;
    type: string | null;
    totalSupply: string | null;
    verified: boolean;
  },
): AggregatedTokenInfo {
  return {
    address_hash: getAddress(t.address),
    circulating_market_cap: null,
    // The explorer's search item carries neither (the token page has them).
    decimals: null,
    holders_count: null,
    icon_url: null,
    name: t.name,
    symbol: t.symbol,
    total_supply: t.totalSupply,
    type: tokenTypeName(t.type),
    exchange_rate: null,
    chain_infos: {
      [chainId]: {
        holders_count: null,
        total_supply: t.totalSupply,
        is_verified: t.verified,
        contract_name: null,
      },
    },
  };
}

/** GetAddressResponse.ChainInfo: the address on one chain. */
export type AddressChainInfo = {
  coin_balance: string;
  is_contract: boolean;
  is_verified: boolean;
  contract_name: string | null;
};

export type GetAddressResponse = {
  hash: Address;
  chain_infos: Record<string, AddressChainInfo>;
  has_tokens: boolean;
  has_interop_message_transfers: false;
  coin_balance: string;
  exchange_rate: null;
  domains: never[];
};

const TOKEN_TYPES = ["ERC_20", "ERC_721", "ERC_1155", "ERC_404", "ERC_7802", "ZRC_2", "ERC_7984"] as const;
export type TokenTypeName = `TOKEN_TYPE_${(typeof TOKEN_TYPES)[number] | "UNSPECIFIED" | "NATIVE"}`;

/** Blockscout's token type ("ERC-20") as the aggregator's enum name ("TOKEN_TYPE_ERC_20"). Pure. */
function tokenTypeName(type: string | null): TokenTypeName {
  const t = type?.replace("-", "_") as (typeof TOKEN_TYPES)[number] | undefined;
  return t && TOKEN_TYPES.includes(t) ? `TOKEN_TYPE_${t}` : "TOKEN_TYPE_UNSPECIFIED";
}

/** Token types the aggregator lists as NFTs. */
export const NFT_TYPES: ReadonlySet<string> = new Set(["ERC-721", "ERC-1155", "ERC-404"]);

export function chainView(c: MultichainChain): AggregatorChain {
  return { id: c.id, name: c.name, explorer_url: c.explorerUrl ?? "", icon_url: c.iconUrl ?? "" };
}

export function addressView(
  chainId: string,
  a: {
    hash: Address;
    contractName: string | null;
    isContract: boolean;
    isVerified: boolean;
    token: { name: string | null; type: string | null } | null;
  },
): AggregatorAddress {
  return {
    hash: getAddress(a.hash),
    domain_info: null,
    contract_name: a.contractName,
    token_name: a.token?.name ?? null,
    token_type: tokenTypeName(a.token?.type ?? null),
    is_contract: a.isContract,
    is_verified_contract: a.isVerified,
    is_token: a.token !== null,
    chain_id: chainId,
  };
}

export function hashView(chainId: string, hash: Hex, type: HashType): AggregatorHash {
  return { hash: hash.toLowerCase() as Hex, hash_type: type, chain_id: chainId };
}

export function tokenView(
  chainId: string,
  t: { address: Address; name: string | null; symbol: string | null; verified: boolean },
): AggregatorToken {
  return {
    address: getAddress(t.address),
    icon_url: null,
    name: t.name,
    symbol: t.symbol,
    chain_id: chainId,
    is_verified_contract: t.verified,
  };
}

/** The address across chains (the cluster's GetAddress): one chain info per chain it is on, balances summed. */
export function aggregatedAddressView(
  hash: Address,
  perChain: ReadonlyArray<{ chainId: string; info: AddressChainInfo; hasTokens: boolean }>,
): GetAddressResponse {
  const chain_infos: Record<string, AddressChainInfo> = {};
  let total = 0n;
  for (const c of perChain) {
    chain_infos[c.chainId] = c.info;
    total += BigInt(c.info.coin_balance);
  }
  return {
    hash: getAddress(hash),
    chain_infos,
    has_tokens: perChain.some((c) => c.hasTokens),
    has_interop_message_transfers: false,
    coin_balance: total.toString(),
    exchange_rate: null,
    domains: [],
  };
}

/**
 * How many of each entity a quick search keeps: `total` shared out evenly among the entities (what one leaves
 * unused goes to the others), at most `perEntity` each; as the aggregator's balance_entities. Pure.
 */
export function balancedCounts(lengths: readonly number[], total: number, perEntity: number): number[] {
  const want = lengths.map((n) => Math.min(n, perEntity));
  const out = want.map(() => 0);
  let left = total;
  let open = want.map((_, i) => i).filter((i) => want[i]! > 0);
  while (left > 0 && open.length > 0) {
    const share = Math.max(1, Math.floor(left / open.length));
    for (const i of open) {
      const take = Math.min(share, want[i]! - out[i]!, left);
      out[i]! += take;
      left -= take;
      if (left === 0) break;
    }
    open = open.filter((i) => out[i]! < want[i]!);
  }
  return out;
}
