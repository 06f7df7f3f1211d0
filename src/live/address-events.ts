import type { Address } from "viem";
import { fromBytea, toBytea } from "../db/bytes.js";
import { coinBalanceItem } from "../explorer/coin-balance/view.js";
import type { ExplorerDeps } from "../explorer/deps.js";
import {
  rangeChangedTokens,
  TOKEN_TYPES,
  type TokenBalanceRow,
  tokenBalances,
  tokenColumnsOf,
} from "../explorer/token-balance/query.js";
import { type TokenBalanceItem, tokenBalanceView } from "../explorer/token-balance/view.js";
import { rangeAddressTransfers } from "../explorer/token-transfer/query.js";
import { renderTransfers } from "../explorer/token-transfer/service.js";
import { rangeAddressTransactions } from "../explorer/transaction/query.js";
import { renderTransactions } from "../explorer/transaction/service.js";
import type { LiveHub } from "./hub.js";

/** Blockscout sends at most this many current token balances of one type in an `updated_token_balances_*`. */
const TOKEN_BALANCES_LIMIT = 50;

/**
 * Groups rendered items by the watched addresses each concerns (an item for two watched addresses goes to both),
 * at most `max` per address, and broadcasts `{[key]: items}` as `event` on each address's topic.
 */
function broadcastPerAddress<R, V>(
  hub: LiveHub,
  watched: ReadonlySet<string>,
  rows: readonly R[],
  views: readonly V[],
  addressesOf: (r: R) => readonly string[],
  max: number,
  event: string,
  key: string,
) {
  const per = new Map<string, V[]>();
  rows.forEach((r, i) => {
    for (const a of new Set(addressesOf(r))) {
      if (!watched.has(a)) continue;
      const list = per.get(a) ?? [];
      if (list.length < max) list.push(views[i]!);
      per.set(a, list);
    }
  });
  for (const [a, list] of per) hub.broadcast(`addresses:${a}`, event, { [key]: list });
}

/**
 * The `addresses:{hash}` events of a committed range for the watched addresses, as Blockscout's notifier sends
 * them: `coin_balance` (each change), `balance` and `current_coin_balance` (the last), `transaction` and
 * `token_transfer` (the explorer's list items, newest first, at most `maxItems` each), `token_balance`, the
 * `updated_token_balances_erc_*` of the tokens that moved, and `smart_contract_was_verified` for contracts the
 * indexer verified automatically. Every query is bounded by the range and the watched addresses.
 */
export async function publishAddressEvents(
  deps: ExplorerDeps,
  hub: LiveHub,
  watched: readonly string[],
  from: number,
  to: number,
  maxItems: number,
): Promise<void> {
  const { db } = deps;
  const addresses = watched as Address[];
  const param = addresses.map(toBytea);
  const watchedSet = new Set(watched);
  const [balances, txs, transfers, changed, verified] = await Promise.all([
    db.query<{
      address: Uint8Array;
      block_number: number;
      value: string;
      delta: string;
      transaction_hash: Uint8Array | null;
      block_timestamp: Date;
    }>(
      `select address, block_number, value, delta, transaction_hash, block_timestamp from coin_balance_changes
       where address = any($1::bytea[]) and block_number between $2 and $3 order by address, block_number`,
      [param, from, to],
    ),
    rangeAddressTransactions(db, addresses, from, to, maxItems * watched.length),
    rangeAddressTransfers(db, addresses, from, to, maxItems * watched.length),
    rangeChangedTokens(db, addresses, from, to),
    db.query<{ address: Uint8Array }>(
      `select distinct address from verified_contracts
       where automatic and block_number between $2 and $3 and address = any($1::bytea[])`,
      [param, from, to],
    ),
  ]);

  const last = new Map<string, (typeof balances)[number]>();
  for (const b of balances) {
    const topic = `addresses:${fromBytea(b.address)}`;
    hub.broadcast(topic, "coin_balance", { coin_balance: coinBalanceItem(b) });
    last.set(topic, b);
  }
  for (const [topic, b] of last) {
    const at = { block_number: b.block_number, exchange_rate: null };
    hub.broadcast(topic, "balance", { balance: b.value, ...at });
    hub.broadcast(topic, "current_coin_balance", { coin_balance: b.value, ...at });
  }

  const [txViews, transferViews] = await Promise.all([
    renderTransactions(deps, txs),
    renderTransfers(deps, transfers),
  ]);
  // The explorer's list items (`/transactions`, `/addresses/{h}/token-transfers`), as Blockscout's socket sends them.
  broadcastPerAddress(
    hub,
    watchedSet,
    txs,
    txViews,
    (r) => [r.from_address, r.to_address, r.contract_address].flatMap((a) => (a ? [fromBytea(a)] : [])),
    maxItems,
    "transaction",
    "transactions",
  );
  broadcastPerAddress(
    hub,
    watchedSet,
    transfers,
    transferViews,
    (r) => [fromBytea(r.from_address), fromBytea(r.to_address)],
    maxItems,
    "token_transfer",
    "token_transfers",
  );

  const byHolder = new Map<string, { block: number; tokens: Map<string, readonly string[]> }>();
  for (const c of changed) {
    const holder = fromBytea(c.holder);
    const h = byHolder.get(holder) ?? { block: 0, tokens: new Map<string, readonly string[]>() };
    h.block = Math.max(h.block, c.block_number);
    h.tokens.set(fromBytea(c.token_address), c.token_ids ?? []);
    byHolder.set(holder, h);
  }
  await Promise.all(
    [...byHolder].map(async ([holder, h]) => {
      hub.broadcast(`addresses:${holder}`, "token_balance", { block_number: h.block });
      await publishTokenBalances(deps, hub, holder as Address, h.tokens);
    }),
  );

  for (const v of verified)
    hub.broadcast(`addresses:${fromBytea(v.address)}`, "smart_contract_was_verified", {});
}

/**
 * `updated_token_balances_erc_20|721|1155|404`: the holder's current balances of the tokens that moved, per type,
 * as the items of `/addresses/{h}/tokens?type=` (the frontend replaces or adds them there), at most 50 each with
 * `overflow`. A balance that fell to zero is sent with value "0", as Blockscout sends the current balances it
 * imported, zeros included (Lookout keeps no zero rows: they are made here for the tokens and ids that moved).
 */
async function publishTokenBalances(
  deps: ExplorerDeps,
  hub: LiveHub,
  holder: Address,
  moved: ReadonlyMap<string, readonly string[]>,
) {
  const rows: TokenBalanceRow[] = (await tokenBalances(deps.db, holder, TOKEN_TYPES)).filter((r) =>
    moved.has(fromBytea(r.token_address)),
  );
  rows.push(...(await zeroBalances(deps, rows, moved)));
  const perType = new Map<string, TokenBalanceItem[]>();
  for (const r of rows) {
    if (!r.t_type) continue;
    const list = perType.get(r.t_type) ?? [];
    list.push(tokenBalanceView(r));
    perType.set(r.t_type, list);
  }
  for (const [type, items] of perType) {
    items.sort((a, b) => {
      const d = BigInt(b.value) - BigInt(a.value);
      return d > 0n ? 1 : d < 0n ? -1 : 0;
    });
    hub.broadcast(`addresses:${holder}`, `updated_token_balances_${type.toLowerCase().replace("-", "_")}`, {
      token_balances: items.slice(0, TOKEN_BALANCES_LIMIT),
      overflow: items.length > TOKEN_BALANCES_LIMIT,
    });
  }
}

/**
 * Value-"0" rows for what moved and is no longer held: a fungible token (ERC-20, ERC-404) or an ERC-721 collection
 * without a current balance row, an ERC-1155 id that moved without one.
 */
async function zeroBalances(
  deps: ExplorerDeps,
  held: readonly TokenBalanceRow[],
  moved: ReadonlyMap<string, readonly string[]>,
): Promise<TokenBalanceRow[]> {
  const heldKeys = new Set(held.map((r) => `${fromBytea(r.token_address)}:${r.token_id ?? ""}`));
  const heldTokens = new Set<string>(held.map((r) => fromBytea(r.token_address)));
  const candidates = [...moved.keys()].filter(
    (t) => !heldTokens.has(t) || (moved.get(t) ?? []).some((id) => !heldKeys.has(`${t}:${id}`)),
  );
  if (!candidates.length) return [];
  const out: TokenBalanceRow[] = [];
  for (const t of await tokenColumnsOf(
    deps.db,
    candidates.map((c) => toBytea(c)),
  )) {
    const token = fromBytea(t.token_address);
    if (t.t_type === "ERC-1155") {
      for (const id of moved.get(token) ?? [])
        if (!heldKeys.has(`${token}:${id}`)) out.push({ ...t, token_id: id, value: "0" });
    } else if (!heldTokens.has(token)) {
      out.push({ ...t, token_id: null, value: "0" });
    }
  }
  return out;
}
