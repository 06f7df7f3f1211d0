import type { Address, Hex } from "viem";
import { fromBytea } from "../db/bytes.js";
import { InvalidInputError } from "../errors/base.js";
import { addressDetails } from "../explorer/address/service.js";
import { PAGE_LIMIT } from "../explorer/paging.js";
import {
  addressKnown,
  blockByHashHit,
  blockByNumberHit,
  contractsByName,
  transactionHit,
  wordPrefixQuery,
} from "../explorer/search/query.js";
import { search } from "../explorer/search/service.js";
import type { SearchItem } from "../explorer/search/view.js";
import { tokenListPage } from "../explorer/token/query.js";
import { type ChainSource, compareChainIds, explorerDepsOf, type MultichainChain } from "./chains.js";
import { type FanOutLimits, overChains } from "./fan-out.js";
import { decodePageToken, encodePageToken } from "./page-token.js";
import {
  type AddressChainInfo,
  type AggregatedTokenInfo,
  type AggregatorAddress,
  type AggregatorHash,
  type AggregatorToken,
  addressView,
  aggregatedAddressView,
  aggregatedTokenView,
  balancedCounts,
  type ChainBlockNumber,
  type ClusterQuickSearchResponse,
  type GetAddressResponse,
  hashView,
  type ListResponse,
  NFT_TYPES,
  type QuickSearchResponse,
  tokenView,
} from "./view.js";

export type MultichainDeps = {
  chains: ChainSource;
  limits: FanOutLimits;
  /** Told of each chain left out of an answer (failed or too slow). */
  onMissing?: (chain: MultichainChain, err: unknown) => void;
};

/** An answer and the chains it lacks (failed or too slow: reported, never failing the whole answer). */
export type Answer<T> = { body: T; missing: string[] };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const UINT = /^[0-9]+$/;
/** The aggregator's shortest text query (MIN_QUERY_LENGTH). */
const MIN_QUERY_LENGTH = 3;
/** The aggregator's quick search: 50 items in all, 5 per kind unless unlimited per chain. */
const QUICK_SEARCH_TOTAL = 50;
const QUICK_SEARCH_PER_KIND = 5;
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

async function sortedChains(deps: MultichainDeps): Promise<MultichainChain[]> {
  return [...(await deps.chains())].sort((a, b) => compareChainIds(a.id, b.id));
}

/** The chains a `chain_id` filter names (repeated or comma-separated; all when absent), in chain-id order. */
async function filteredChains(
  deps: MultichainDeps,
  chainId: string | readonly string[] | undefined,
): Promise<MultichainChain[]> {
  const chains = await sortedChains(deps);
  const ids = (typeof chainId === "string" ? [chainId] : (chainId ?? []))
    .flatMap((v) => v.split(","))
    .filter((v) => v !== "");
  if (ids.length === 0) return chains;
  const wanted = new Set<string>();
  for (const v of ids) {
    if (!/^-?[0-9]{1,19}$/.test(v))
      throw new InvalidInputError(`invalid value ${v}: invalid digit found in string`, { field: "chain_id" });
    const id = BigInt(v).toString();
    if (!chains.some((c) => c.id === id))
      throw new InvalidInputError(`invalid cluster chain id: ${id}`, { field: "chain_id" });
    wanted.add(id);
  }
  return chains.filter((c) => wanted.has(c.id));
}

/** `page_size` as the aggregator normalizes it: 50 when absent, within 1..100. */
export function pageSize(raw: string | undefined): number {
  if (raw === undefined || raw === "") return DEFAULT_PAGE_SIZE;
  if (!UINT.test(raw)) throw new InvalidInputError(`invalid page_size: ${raw}`, { field: "page_size" });
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Number(raw)));
}

export async function listChains(deps: MultichainDeps) {
  return sortedChains(deps);
}

// ---- quick search ----------------------------------------------------------------------------------------------

type ChainHits = {
  addresses: AggregatorAddress[];
  tokenInfos: AggregatedTokenInfo[];
  nftInfos: AggregatedTokenInfo[];
  blocks: AggregatorHash[];
  transactions: AggregatorHash[];
  block_numbers: ChainBlockNumber[];
  tokens: AggregatorToken[];
  nfts: AggregatorAddress[];
};

const noHits = (): ChainHits => ({
  addresses: [],
  tokenInfos: [],
  nftInfos: [],
  blocks: [],
  transactions: [],
  block_numbers: [],
  tokens: [],
  nfts: [],
});

/** One chain's search results (the explorer's own search) as the aggregator's entities. Pure. */
function chainHits(chainId: string, items: readonly SearchItem[], byHash: boolean): ChainHits {
  const out = noHits();
  const tokens = items.filter((i) => i.type === "token");
  for (const i of items) {
    switch (i.type) {
      case "address": {
        const t = tokens.find((x) => x.address_hash === i.address_hash);
        out.addresses.push(
          addressView(chainId, {
            hash: i.address_hash,
            contractName: i.is_smart_contract_verified ? i.name : null,
            isContract: i.is_smart_contract_address,
            isVerified: i.is_smart_contract_verified,
            token: t ? { name: t.name, type: t.token_type } : null,
          }),
        );
        break;
      }
      case "token": {
        out.tokens.push(
          tokenView(chainId, {
            address: i.address_hash,
            name: i.name,
            symbol: i.symbol,
            verified: i.is_smart_contract_verified,
          }),
        );
        const info = aggregatedTokenView(chainId, {
          address: i.address_hash,
          name: i.name,
          symbol: i.symbol,
          type: i.token_type,
          totalSupply: i.total_supply,
          verified: i.is_smart_contract_verified,
        });
        out.tokenInfos.push(info);
        if (i.token_type && NFT_TYPES.has(i.token_type)) out.nftInfos.push(info);
        if (i.token_type && NFT_TYPES.has(i.token_type))
          out.nfts.push(
            addressView(chainId, {
              hash: i.address_hash,
              contractName: null,
              isContract: true,
              isVerified: i.is_smart_contract_verified,
              token: { name: i.name, type: i.token_type },
            }),
          );
        break;
      }
      case "block":
        if (byHash) out.blocks.push(hashView(chainId, i.block_hash, "HASH_TYPE_BLOCK"));
        else out.block_numbers.push({ chain_id: chainId, block_number: String(i.block_number) });
        break;
      case "transaction":
        out.transactions.push(hashView(chainId, i.transaction_hash, "HASH_TYPE_TRANSACTION"));
        break;
      // Verified contracts found by name: the aggregator's quick search finds addresses by hash (and domain) only.
      case "contract":
        break;
    }
  }
  return out;
}

/** Keeps the first item of each chain (the lists come in chain-id order, each chain's best first). Pure. */
function onePerChain<T>(items: readonly T[], chainOf: (item: T) => string | undefined): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const id = chainOf(i) ?? "";
    return !seen.has(id) && seen.add(id);
  });
}

/**
 * The aggregator's limits of a quick search, in place: one item of each kind per chain (unless unlimited per chain),
 * then 50 items in all shared among the kinds, at most 5 each (50 unlimited).
 */
function limitKinds<K extends string>(
  lists: Record<K, unknown[]>,
  kinds: readonly K[],
  chainOf: (kind: K, item: unknown) => string | undefined,
  unlimitedPerChain: boolean,
): void {
  if (!unlimitedPerChain) for (const k of kinds) lists[k] = onePerChain(lists[k], (i) => chainOf(k, i));
  const counts = balancedCounts(
    kinds.map((k) => lists[k].length),
    QUICK_SEARCH_TOTAL,
    unlimitedPerChain ? QUICK_SEARCH_TOTAL : QUICK_SEARCH_PER_KIND,
  );
  kinds.forEach((k, i) => {
    lists[k].length = counts[i]!;
  });
}

/** The explorer's search of every chain at once, as the aggregator's entities, in chain-id order. */
async function searchEveryChain(deps: MultichainDeps, text: string): Promise<Answer<ChainHits>> {
  const chains = await sortedChains(deps);
  const r = await overChains(chains, (c) => search(explorerDepsOf(c), text), deps.limits, deps.onMissing);
  const all = noHits();
  const byHash = HASH.test(text);
  for (const { chain, value } of r.answers) {
    const hits = chainHits(chain.id, value, byHash);
    for (const k of Object.keys(all) as Array<keyof ChainHits>) (all[k] as unknown[]).push(...hits[k]);
  }
  return { body: all, missing: r.missing };
}

const emptySearch = () => ({ blocks: [], transactions: [], block_numbers: [], dapps: [], domains: [] });

/**
 * `/search:quick`: the explorer's search of every chain at once, merged into the aggregator's entities in chain-id
 * order: one of each kind per chain and 5 per kind (unless `unlimited_per_chain`), 50 in all. Addresses one per
 * chain they are on.
 */
export async function quickSearch(
  deps: MultichainDeps,
  q: string,
  unlimitedPerChain: boolean,
): Promise<Answer<QuickSearchResponse>> {
  const text = q.trim();
  const body: QuickSearchResponse = { ...emptySearch(), addresses: [], tokens: [], nfts: [] };
  if (text === "") return { body, missing: [] };
  const { body: hits, missing } = await searchEveryChain(deps, text);
  const kinds = ["addresses", "blocks", "transactions", "block_numbers", "tokens", "nfts"] as const;
  for (const k of kinds) (body[k] as unknown[]) = hits[k];
  limitKinds(
    body as unknown as Record<(typeof kinds)[number], unknown[]>,
    kinds,
    (_k, i) => (i as { chain_id: string }).chain_id,
    unlimitedPerChain,
  );
  return { body, missing };
}

/**
 * The cluster's `/search:quick`: the same search with an address as one answer across chains (its chain infos)
 * and tokens as the cluster's aggregated token infos.
 */
export async function clusterQuickSearch(
  deps: MultichainDeps,
  q: string,
  unlimitedPerChain: boolean,
): Promise<Answer<ClusterQuickSearchResponse>> {
  const text = q.trim();
  const body: ClusterQuickSearchResponse = { ...emptySearch(), addresses: [], tokens: [], nfts: [] };
  if (text === "") return { body, missing: [] };
  const [found, address] = await Promise.all([
    searchEveryChain(deps, text),
    ADDRESS.test(text) ? addressAcrossChains(deps, text) : null,
  ]);
  const hits = found.body;
  Object.assign(body, {
    blocks: hits.blocks,
    transactions: hits.transactions,
    block_numbers: hits.block_numbers,
    tokens: hits.tokenInfos,
    nfts: hits.nftInfos,
  });
  if (address && Object.keys(address.body.chain_infos).length > 0) body.addresses = [address.body];
  const kinds = ["addresses", "blocks", "transactions", "block_numbers", "tokens", "nfts"] as const;
  limitKinds(
    body as unknown as Record<(typeof kinds)[number], unknown[]>,
    kinds,
    (k, i) =>
      k === "addresses"
        ? undefined
        : k === "tokens" || k === "nfts"
          ? Object.keys((i as AggregatedTokenInfo).chain_infos)[0]
          : (i as { chain_id: string }).chain_id,
    unlimitedPerChain,
  );
  return { body, missing: [...new Set([...found.missing, ...(address?.missing ?? [])])] };
}

// ---- paged lists across chains ----------------------------------------------------------------------------------

/** One chain's part of a list page: its items in order with where each resumes, and whether more follow them. */
type ChainPage<I> = { entries: Array<{ item: I; cursor: string[] }>; more: boolean };

type ChainReader<I> = (
  chain: MultichainChain,
  after: string[] | null,
  limit: number,
) => Promise<ChainPage<I>>;

/**
 * A keyset page over every chain: chains in chain-id order, each chain's items in its own order. The page token is
 * the last item's chain id and its place in that chain (`cursorArity` strings): the next page reads that chain from
 * there and the chains after it. Chains are read a window of `concurrency` at a time, until the page is full.
 */
async function pageAcrossChains<I>(
  deps: MultichainDeps,
  chains: readonly MultichainChain[],
  token: string | undefined,
  size: number,
  cursorArity: number,
  read: ChainReader<I>,
): Promise<Answer<ListResponse<I>>> {
  let start: { chainId: string; cursor: string[] } | null = null;
  if (token !== undefined && token !== "") {
    const [chainId, ...cursor] = decodePageToken(token, cursorArity + 1);
    if (!/^[0-9]{1,20}$/.test(chainId!))
      throw new InvalidInputError(`invalid page_token: invalid chain id '${chainId}'`, {
        field: "page_token",
      });
    start = { chainId: chainId!, cursor };
  }
  const rest = chains.filter((c) => {
    if (!start) return true;
    const order = compareChainIds(c.id, start.chainId);
    // A list of at most one item per chain resumes with the next chain.
    return order > 0 || (order === 0 && cursorArity > 0);
  });
  const collected: Array<{ chainId: string; item: I; cursor: string[] }> = [];
  const missing: string[] = [];
  let more = false;
  const window = Math.max(1, deps.limits.concurrency);
  scan: for (let i = 0; i < rest.length; i += window) {
    const r = await overChains(
      rest.slice(i, i + window),
      (c) => read(c, start && c.id === start.chainId ? start.cursor : null, size + 1),
      deps.limits,
      deps.onMissing,
    );
    missing.push(...r.missing);
    for (const { chain, value } of r.answers) {
      for (const e of value.entries) collected.push({ chainId: chain.id, ...e });
      // Past a full page, or a chain with more than it gave (its next items come before the next chain's).
      if (collected.length > size || value.more) {
        more = true;
        break scan;
      }
    }
    if (i + window < rest.length && collected.length === size) {
      more = true;
      break;
    }
  }
  const page = collected.slice(0, size);
  const last = page[page.length - 1];
  return {
    body: {
      items: page.map((e) => e.item),
      next_page_params:
        more && last
          ? { page_token: encodePageToken([last.chainId, ...last.cursor]), page_size: size }
          : null,
    },
    missing,
  };
}

type ListQuery = {
  q: string;
  chainId: string | readonly string[] | undefined;
  pageToken?: string;
  pageSize: number;
};

const EMPTY: Answer<ListResponse<never>> = { body: { items: [], next_page_params: null }, missing: [] };

/** `/transactions` and `/blocks`: the chains where a hash is a transaction (a block). */
export async function listHashes(
  deps: MultichainDeps,
  kind: "HASH_TYPE_TRANSACTION" | "HASH_TYPE_BLOCK",
  query: ListQuery,
): Promise<Answer<ListResponse<AggregatorHash>>> {
  const chains = await filteredChains(deps, query.chainId);
  const hash = query.q.trim().toLowerCase() as Hex;
  if (!HASH.test(hash)) return EMPTY;
  return pageAcrossChains(deps, chains, query.pageToken, query.pageSize, 0, async (c) => {
    const hits =
      kind === "HASH_TYPE_TRANSACTION" ? await transactionHit(c.db, hash) : await blockByHashHit(c.db, hash);
    return {
      entries: hits.map((h) => ({ item: hashView(c.id, fromBytea(h.hash), kind), cursor: [] })),
      more: false,
    };
  });
}

/** `/block-numbers`: the chains that have a block of that number. */
export async function listBlockNumbers(
  deps: MultichainDeps,
  query: ListQuery,
): Promise<Answer<ListResponse<ChainBlockNumber>>> {
  const chains = await filteredChains(deps, query.chainId);
  const text = query.q.trim();
  if (!UINT.test(text) || !Number.isSafeInteger(Number(text))) return EMPTY;
  return pageAcrossChains(deps, chains, query.pageToken, query.pageSize, 0, async (c) => {
    const hits = await blockByNumberHit(c.db, Number(text));
    return {
      entries: hits.map((b) => ({ item: { chain_id: c.id, block_number: String(b.number) }, cursor: [] })),
      more: false,
    };
  });
}

/** The address on one chain, or null when the chain has never seen it (no activity, balance, code or tokens). */
async function addressOnChain(
  chain: MultichainChain,
  address: Address,
): Promise<{
  info: AddressChainInfo;
  hasTokens: boolean;
  token: { name: string | null; type: string | null } | null;
} | null> {
  const deps = explorerDepsOf(chain);
  const [d, known] = await Promise.all([
    addressDetails(chain.db, address, deps),
    addressKnown(chain.db, address),
  ]);
  const balance = d.coin_balance ?? "0";
  if (!known && !d.is_contract && !d.is_verified && !d.has_tokens && balance === "0") return null;
  return {
    info: {
      coin_balance: balance,
      is_contract: d.is_contract,
      is_verified: d.is_verified,
      contract_name: d.is_verified ? d.name : null,
    },
    hasTokens: d.has_tokens,
    token: d.token ? { name: d.token.name, type: d.token.type } : null,
  };
}

/** An address of the request (lower-case), or a 400 with `message`. */
function addressOf(raw: string, field: string, message: string): Address {
  const a = raw.trim();
  if (!ADDRESS.test(a)) throw new InvalidInputError(message, { field });
  return a.toLowerCase() as Address;
}

/** `/addresses`: an address on each chain where it is, or verified contracts whose name matches the words. */
export async function listAddresses(
  deps: MultichainDeps,
  query: ListQuery,
): Promise<Answer<ListResponse<AggregatorAddress>>> {
  const chains = await filteredChains(deps, query.chainId);
  const text = query.q.trim();
  if (ADDRESS.test(text)) {
    const address = text.toLowerCase() as Address;
    return pageAcrossChains(deps, chains, query.pageToken, query.pageSize, 0, async (c) => {
      const on = await addressOnChain(c, address);
      if (!on) return { entries: [], more: false };
      const item = addressView(c.id, {
        hash: address,
        contractName: on.info.contract_name,
        isContract: on.info.is_contract,
        isVerified: on.info.is_verified,
        token: on.token,
      });
      return { entries: [{ item, cursor: [] }], more: false };
    });
  }
  const words = text.length >= MIN_QUERY_LENGTH ? wordPrefixQuery(text) : null;
  if (!words) return EMPTY;
  return pageAcrossChains(deps, chains, query.pageToken, query.pageSize, 2, async (c, after, limit) => {
    const cursor = after
      ? { kind: "contract" as const, name: after[0]!, address: cursorAddress(after[1]!) }
      : null;
    const rows = await contractsByName(c.db, words, limit, cursor);
    return {
      entries: rows.map((r) => {
        const address = fromBytea(r.address) as Address;
        const item = addressView(c.id, {
          hash: address,
          contractName: r.name,
          isContract: true,
          isVerified: true,
          token: null,
        });
        return { item, cursor: [r.name, address] };
      }),
      more: rows.length >= limit,
    };
  });
}

const cursorAddress = (v: string) => addressOf(v, "page_token", `invalid page_token: invalid address '${v}'`);

/** `/tokens`: tokens whose name or symbol contains the text (or at the address; all without one), by holders. */
export async function listTokens(
  deps: MultichainDeps,
  query: ListQuery,
): Promise<Answer<ListResponse<AggregatorToken>>> {
  const chains = await filteredChains(deps, query.chainId);
  const q = query.q.trim();
  return pageAcrossChains(deps, chains, query.pageToken, query.pageSize, 3, async (c, after) => {
    let cursor = null;
    if (after) {
      if (!/^-?[0-9]{1,19}$/.test(after[0]!))
        throw new InvalidInputError("invalid page_token: invalid holders count", { field: "page_token" });
      cursor = {
        holdersCount: BigInt(after[0]!),
        name: after[1]!.startsWith("1:") ? after[1]!.slice(2) : null,
        address: cursorAddress(after[2]!),
      };
    }
    // The explorer's token list page (a fixed PAGE_LIMIT rows): `more` when it came back full.
    const rows = await tokenListPage(c.db, { types: null, q: q === "" ? null : q }, cursor);
    const addresses = rows.map((r) => fromBytea(r.t_address!) as Address);
    const verified = await explorerDepsOf(c).verified!(addresses);
    return {
      entries: rows.map((r, i) => {
        const address = addresses[i]!;
        return {
          item: tokenView(c.id, {
            address,
            name: r.t_name,
            symbol: r.t_symbol,
            verified: verified.has(address),
          }),
          // The aggregator's Option encoding of the name: "1:name" or "0:".
          cursor: [String(r.t_holders_count ?? 0), r.t_name === null ? "0:" : `1:${r.t_name}`, address],
        };
      }),
      more: rows.length >= PAGE_LIMIT,
    };
  });
}

// ---- the cluster's address ----------------------------------------------------------------------------------------

/** The cluster's `/addresses/{hash}`: where the address is, with its balance, code and verification on each chain. */
export async function addressAcrossChains(
  deps: MultichainDeps,
  rawHash: string,
): Promise<Answer<GetAddressResponse>> {
  const address = addressOf(rawHash, "address_hash", `invalid value ${rawHash}: invalid address`);
  const chains = await sortedChains(deps);
  const r = await overChains(chains, (c) => addressOnChain(c, address), deps.limits, deps.onMissing);
  const on = r.answers.flatMap(({ chain, value }) => (value ? [{ chainId: chain.id, ...value }] : []));
  return { body: aggregatedAddressView(address, on), missing: r.missing };
}
