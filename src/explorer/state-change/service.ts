import type { Address, Hex } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObjects } from "../objects/address-facts.js";
import { checksummed } from "../objects/checksum.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { PAGE_SIZE } from "../paging.js";
import { type TokenTransferRow, transactionTransfersPage } from "../token-transfer/query.js";
import { opExtraFee } from "../transaction/op-stack.js";
import {
  type BlockTransferRow,
  blockTransactionsUpTo,
  blockTransfers,
  coinBalancesAt,
  currentTokenBalances,
  type HolderKey,
  holderTransfersSince,
  indexStartBlock,
  valueFramesUpTo,
} from "./query.js";
import {
  balanceKey,
  type CoinTx,
  coinChanges,
  coinParticipants,
  type TokenMove,
  tokenChanges,
  valueFrames,
} from "./replay.js";
import { coinStateChangeView, type StateChangeObject, tokenStateChangeView } from "./view.js";

const ZERO = "0x0000000000000000000000000000000000000000";
/** Transfers of one transaction whose changes are shown; a holder's later transfers read per side. */
const MAX_TRANSFERS = 1000;
const MAX_LATER_TRANSFERS = 2000;
/** Holders whose balances are worked out per request (the rest get their change, balances unknown). */
const MAX_HOLDERS = 100;

const big = (s: string | null) => (s === null ? null : BigInt(s));

/** Native-coin movements of a transaction row. */
function coinTx(r: Awaited<ReturnType<typeof blockTransactionsUpTo>>[number]): CoinTx {
  return {
    from: fromBytea(r.from_address),
    to: r.to_address ? fromBytea(r.to_address) : r.contract_address ? fromBytea(r.contract_address) : null,
    value: BigInt(r.value),
    failed: r.status === 0,
    gasUsed: BigInt(r.gas_used),
    price: big(r.price) ?? 0n,
    maxFeePerGas: big(r.max_fee_per_gas),
    maxPriorityFeePerGas: big(r.max_priority_fee_per_gas),
    // OP stack: a deposit's mint; the L1 data fee and operator fee every other transaction pays. EIP-4844: the
    // blob fee, burnt (the node takes it from the sender, as it does the L1 fee).
    mint: big(r.op_mint) ?? 0n,
    extraFee: opExtraFee(r, BigInt(r.gas_used)) + (big(r.blob_fee) ?? 0n),
  };
}

/** What a transfer moves, or null for what no balance table follows (an ERC-404 NFT, an unknown token kind). */
function tokenMove(r: BlockTransferRow | TokenTransferRow, type: string | null): TokenMove | null {
  const base = {
    token: fromBytea(r.token_address),
    from: fromBytea(r.from_address),
    to: fromBytea(r.to_address),
    amount: BigInt(r.amount),
  };
  if (r.token_id === null) return { ...base, kind: "fungible", id: null };
  if (type === "ERC-721") return { ...base, kind: "erc721", id: r.token_id };
  if (type === "ERC-1155") return { ...base, kind: "id", id: r.token_id };
  return null;
}

/**
 * Native coin balances at the end of `block` of these addresses: the coin balance history; an address with no
 * history row there had none, when the index starts at genesis (else unknown).
 */
async function coinBalancesBefore(deps: ExplorerDeps, addresses: readonly string[], block: number) {
  const [rows, start] = await Promise.all([
    coinBalancesAt(
      deps.db,
      addresses.map((a) => toBytea(a as Hex)),
      block,
    ),
    indexStartBlock(deps.db),
  ]);
  const complete = start === 0;
  return new Map(
    rows.map((r) => [fromBytea(r.address), r.value !== null ? BigInt(r.value) : complete ? 0n : null]),
  );
}

/**
 * Token balances at the end of block `block - 1`: the balances the index keeps now, less each holder's transfers
 * since `block` (bounded per holder: a holder with more is unknown). The zero address holds nothing.
 */
async function tokenBalancesBefore(deps: ExplorerDeps, moves: readonly TokenMove[], block: number) {
  const keys = new Map<string, HolderKey & { holderHex: string; move: TokenMove }>();
  for (const m of moves)
    for (const holder of [m.from, m.to]) {
      const k = balanceKey(holder, m);
      if (!keys.has(k))
        keys.set(k, {
          holder: toBytea(holder as Hex),
          holderHex: holder,
          token: toBytea(m.token as Hex),
          kind: m.kind,
          id: m.id,
          move: m,
        });
    }
  // Bounded work per request: at most MAX_HOLDERS holders, each read up to MAX_LATER_TRANSFERS per side.
  const holders = [...new Set([...keys.values()].map((k) => k.holderHex).filter((h) => h !== ZERO))].slice(
    0,
    MAX_HOLDERS,
  );
  const counted = new Set(holders);
  const held = [...keys.values()].filter((k) => counted.has(k.holderHex));
  const [now, later] = await Promise.all([
    currentTokenBalances(deps.db, held),
    holderTransfersSince(
      deps.db,
      holders.map((h) => toBytea(h as Hex)),
      block,
      MAX_LATER_TRANSFERS,
    ),
  ]);
  const byHolderToken = new Map<string, Array<HolderKey & { holderHex: string; move: TokenMove }>>();
  for (const k of held) {
    const hk = `${k.holderHex}|${k.move.token}`;
    byHolderToken.set(hk, [...(byHolderToken.get(hk) ?? []), k]);
  }
  const sides = new Map<string, number>();
  const since = new Map<string, bigint>();
  for (const r of later) {
    const holder = fromBytea(r.holder);
    const side = `${holder}|${r.incoming}`;
    sides.set(side, (sides.get(side) ?? 0) + 1);
    const token = fromBytea(r.token_address);
    const keyed = (byHolderToken.get(`${holder}|${token}`) ?? []).filter((k) =>
      k.kind === "fungible"
        ? r.token_id === null
        : k.kind === "erc721"
          ? r.token_id !== null
          : r.token_id === k.id,
    );
    for (const k of keyed) {
      const units = k.kind === "erc721" ? 1n : BigInt(r.amount);
      const key = balanceKey(holder, k.move);
      since.set(key, (since.get(key) ?? 0n) + (r.incoming ? units : -units));
    }
  }
  const incomplete = (h: string) =>
    (sides.get(`${h}|true`) ?? 0) >= MAX_LATER_TRANSFERS ||
    (sides.get(`${h}|false`) ?? 0) >= MAX_LATER_TRANSFERS;
  const out = new Map<string, bigint | null>();
  for (const [k, v] of keys) out.set(k, v.holderHex === ZERO ? 0n : null);
  held.forEach((k, i) => {
    const key = balanceKey(k.holderHex, k.move);
    out.set(key, incomplete(k.holderHex) ? null : BigInt(now[i]!) - (since.get(key) ?? 0n));
  });
  return out;
}

/**
 * `/transactions/{hash}/state-changes`: Blockscout's state changes of a transaction (TransactionStateHelper):
 * native coin of its sender, recipient, the block's miner and the addresses its frames moved value between, then
 * each holder's tokens its transfers moved; balances before and after it within its block. Null: not indexed.
 */
export async function transactionStateChanges(
  deps: ExplorerDeps,
  hash: Hex,
): Promise<StateChangeObject[] | null> {
  const txs = await blockTransactionsUpTo(deps.db, hash);
  const target = txs[txs.length - 1];
  if (!target || fromBytea(target.hash) !== hash) return null;
  const block = target.block_number;
  const [frameRows, transferRows, own] = await Promise.all([
    valueFramesUpTo(deps.db, block, target.index),
    blockTransfers(deps.db, block),
    transactionTransfersPage(deps.db, hash, null, null, MAX_TRANSFERS),
  ]);
  const framesOf = new Map<number, typeof frameRows>();
  for (const f of frameRows)
    framesOf.set(f.transaction_index, [...(framesOf.get(f.transaction_index) ?? []), f]);
  const steps = txs.map((t) => ({
    tx: coinTx(t),
    frames: valueFrames(
      (framesOf.get(t.index) ?? []).map((f) => ({
        callType: f.call_type,
        from: fromBytea(f.from_address),
        to: f.to_address ? fromBytea(f.to_address) : null,
        value: BigInt(f.value),
        error: f.error,
        traceAddress: f.trace_address,
      })),
    ),
  }));
  const coinBlock = { miner: fromBytea(target.miner), baseFeePerGas: big(target.base_fee_per_gas) };
  const last = steps[steps.length - 1]!;
  const earlierHashes = new Set(txs.slice(0, -1).map((t) => fromBytea(t.hash)));
  const earlierMoves = transferRows
    .filter((r) => earlierHashes.has(fromBytea(r.transaction_hash)))
    .map((r) => tokenMove(r, r.token_type))
    .filter((m): m is TokenMove => m !== null);
  const ownMoves = own.map((r) => ({ r, m: tokenMove(r, r.t_type) })).filter((x) => x.m !== null);
  const [coinBefore, tokenBefore] = await Promise.all([
    coinBalancesBefore(deps, coinParticipants(last.tx, last.frames, coinBlock), block - 1),
    tokenBalancesBefore(
      deps,
      ownMoves.map((x) => x.m!),
      block,
    ),
  ]);
  const coins = coinChanges(steps, coinBlock, coinBefore);
  const tokens = tokenChanges(
    earlierMoves,
    ownMoves.map((x) => x.m!),
    tokenBefore,
  );
  // Entries in Blockscout's order: coins, then tokens by holder; fungible changes of zero are left out.
  const tokenEntries = [...tokens.entries()]
    .map(([key, c]) => {
      const [holder, token, id] = key.split("|") as [string, string, string];
      const rows = ownMoves.filter(
        (x) =>
          x.m!.token === token &&
          (x.m!.kind !== "id" || x.m!.id === id) &&
          (x.m!.from === holder || x.m!.to === holder),
      );
      return { holder, token, id: id || null, c, rows: rows.map((x) => x.r) };
    })
    .filter((e) => e.rows[0]!.t_type === "ERC-721" || e.rows[0]!.t_type === "ERC-1155" || e.c.change !== 0n)
    .sort((a, b) => (a.holder < b.holder ? -1 : a.holder > b.holder ? 1 : 0));
  const addresses = await loadAddressObjects(
    deps.db,
    [...coins.map((c) => c.address), ...tokenEntries.map((e) => e.holder)] as Address[],
    deps,
  );
  const addressObject = (a: string) => addresses.get(a as Address)!;
  const tokenObjects = new Map<string, TokenObject | null>();
  const tokenOf = (r: TokenTransferRow) => {
    const key = fromBytea(r.token_address);
    if (!tokenObjects.has(key))
      tokenObjects.set(
        key,
        r.t_address ? tokenView(tokenFactsFromRow(checksummed(key as Address), r)) : null,
      );
    return tokenObjects.get(key)!;
  };
  return [
    ...coins.map((c) => coinStateChangeView(c, addressObject(c.address))),
    ...tokenEntries.map((e) =>
      tokenStateChangeView(e.c, {
        holder: e.holder as Address,
        address: addressObject(e.holder),
        token: tokenOf(e.rows[0]!),
        tokenType: e.rows[0]!.t_type,
        id: e.id,
        transfers: e.rows,
        from: (r) => fromBytea(r.from_address) as Address,
        gateways: deps.gateways ?? {},
      }),
    ),
  ];
}

/** A page of the state changes from `offset` (Blockscout pages them by items_count, an offset). */
export function stateChangesPage(all: readonly StateChangeObject[], offset: number) {
  const items = all.slice(offset, offset + PAGE_SIZE);
  return {
    items,
    next_page_params:
      offset + PAGE_SIZE < all.length ? { items_count: offset + PAGE_SIZE, state_changes: null } : null,
  };
}
