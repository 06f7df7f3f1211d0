import type { Address } from "viem";
import { toBytea } from "../../../db/bytes.js";
import { command, type Queryable } from "../../../db/db.js";
import { ZERO_ADDRESS } from "../core/token-decode.js";
import type { TransferRow } from "../core/token-logs.js";
import type { HoldingChanges } from "./derive.js";

/** A (holder, token) pair whose holdings a run of transfers may change. */
export type HolderPair = { holder: Address; token: Address };
/** Whether a pair holds a positive fungible balance, and at least one id, at one moment. */
export type HolderState = { fungible: boolean; nft: boolean };
export type CounterDelta = { token: Address; fungible: number; nft: number; transfers: number };

/** Both sides of every transfer, de-duplicated; the zero address is never a holder. Pure. */
export function touchedPairs(
  transfers: readonly TransferRow[],
  extra: readonly HolderPair[] = [],
): HolderPair[] {
  const out = new Map<string, HolderPair>();
  const add = (holder: Address, token: Address) => {
    if (holder !== ZERO_ADDRESS) out.set(`${holder}|${token}`, { holder, token });
  };
  for (const t of transfers) {
    add(t.from, t.token);
    add(t.to, t.token);
  }
  for (const p of extra) add(p.holder, p.token);
  return [...out.values()];
}

/** How one (holder, token) pair's holder states moved: +1 it starts holding, -1 it stops, 0 neither. */
export type HolderStep = { token: Address; fungible: number; nft: number };

const step = (a: boolean, b: boolean) => (a === b ? 0 : b ? 1 : -1);

/** The steps of `pairs` between two probes of them. Pure. */
export function holderSteps(
  pairs: readonly HolderPair[],
  before: readonly HolderState[],
  after: readonly HolderState[],
): HolderStep[] {
  return pairs.map((p, i) => ({
    token: p.token,
    fungible: step(before[i]!.fungible, after[i]!.fungible),
    nft: step(before[i]!.nft, after[i]!.nft),
  }));
}

/** The "holds an id" steps of `pairs` between two probes of them (`probeNftHolders`). Pure. */
export function nftSteps(
  pairs: readonly HolderPair[],
  before: readonly boolean[],
  after: readonly boolean[],
): HolderStep[] {
  return pairs.map((p, i) => ({ token: p.token, fungible: 0, nft: step(before[i]!, after[i]!) }));
}

/**
 * Per token, how its two holder counts move by the pairs' steps, and its transfer count by `sign` times the events
 * of `transfers` (a TransferBatch, one row per id here, is one event, as upstream counts it). Pure.
 */
export function counterDeltas(
  steps: readonly HolderStep[],
  transfers: readonly TransferRow[],
  sign: 1 | -1,
): CounterDelta[] {
  const out = new Map<Address, CounterDelta>();
  const get = (token: Address) => {
    let d = out.get(token);
    if (!d) {
      d = { token, fungible: 0, nft: 0, transfers: 0 };
      out.set(token, d);
    }
    return d;
  };
  for (const s of steps) {
    if (s.fungible || s.nft) {
      const d = get(s.token);
      d.fungible += s.fungible;
      d.nft += s.nft;
    }
  }
  for (const t of transfers) if (t.batchIndex === 0) get(t.token).transfers += sign;
  return [...out.values()].filter((d) => d.fungible || d.nft || d.transfers);
}

/**
 * The pairs whose "holds at least one id" state a batch's holding changes can move: those with a per-id change
 * (ERC-1155, ERC-404) and those whose ERC-721 count changes (the ids a pair holds move only by its transfers, so
 * one whose count nets to zero held some id before and still does). The zero address is never a holder. Pure.
 */
export function nftPairs(changes: HoldingChanges): HolderPair[] {
  const out = new Map<string, HolderPair>();
  const add = (holder: Address, token: Address) => {
    if (holder !== ZERO_ADDRESS) out.set(`${holder}|${token}`, { holder, token });
  };
  for (const h of changes.holdings) add(h.holder, h.token);
  for (const c of changes.erc721Counts ?? []) add(c.holder, c.token);
  return [...out.values()];
}

/**
 * Whether pair `u` holds any id of its token: one probe per kind of id holding, each on the full prefix of
 * token_holdings' (holder, token_type, token_address) key, stopping at the first that holds.
 *
 * Written as lateral joins with `limit 1`, not `exists`: PostgreSQL may answer an `exists` in the select list with a
 * hashed subplan, a sequential read of the whole table per statement (43 ms a batch at 200,000 transactions and
 * growing with the holdings, against 8 ms for the probes), and a `token_type in (...)` condition let it prefer the
 * (token_address, value, holder) index, a walk over every holder of the token (226 ms a batch at 300,000 on
 * PostgreSQL's default settings). With an equality on each key column the key is the only index that fits.
 */
const HOLDS_AN_ID = `left join lateral (
       select true as held from unnest(array['ERC-721', 'ERC-1155', 'ERC-404']) as k(t)
       cross join lateral (select from token_holdings x
         where x.holder = u.h and x.token_type = k.t and x.token_address = u.a and x.value > 0 limit 1) y
       limit 1) n on true`;

/** Per pair, whether it holds at least one id of the token. */
export async function probeNftHolders(tx: Queryable, pairs: readonly HolderPair[]): Promise<boolean[]> {
  if (!pairs.length) return [];
  const rows = await tx.query<{ n: boolean }>(
    `select n.held is not null as n
     from unnest($1::bytea[], $2::bytea[]) with ordinality as u(h, a, o)
     ${HOLDS_AN_ID}
     order by u.o`,
    [pairs.map((p) => toBytea(p.holder)), pairs.map((p) => toBytea(p.token))],
  );
  return rows.map((r) => r.n);
}

/** Per pair, whether it holds a positive fungible balance (a primary-key probe) and any id (`HOLDS_AN_ID`). */
export async function probeHolders(tx: Queryable, pairs: readonly HolderPair[]): Promise<HolderState[]> {
  if (!pairs.length) return [];
  const rows = await tx.query<{ f: boolean; n: boolean }>(
    `select f.held is not null as f, n.held is not null as n
     from unnest($1::bytea[], $2::bytea[]) with ordinality as u(h, a, o)
     left join lateral (select true as held from token_fungible_balances b
       where b.holder = u.h and b.token_address = u.a and b.value > 0 limit 1) f on true
     ${HOLDS_AN_ID}
     order by u.o`,
    [pairs.map((p) => toBytea(p.holder)), pairs.map((p) => toBytea(p.token))],
  );
  return rows.map((r) => ({ fungible: r.f, nft: r.n }));
}

/** Adds the deltas to the tokens' counters; holders_count follows the one its type shows. */
export async function addCounterDeltas(tx: Queryable, deltas: readonly CounterDelta[]): Promise<void> {
  if (!deltas.length) return;
  await command(
    tx,
    `update tokens t set
       fungible_holders_count = t.fungible_holders_count + u.f,
       nft_holders_count = t.nft_holders_count + u.n,
       transfers_count = t.transfers_count + u.x,
       holders_count = case when t.type in ('ERC-20', 'ERC-404') then t.fungible_holders_count + u.f
                            else t.nft_holders_count + u.n end
     from unnest($1::bytea[], $2::int8[], $3::int8[], $4::int8[]) as u(a, f, n, x)
     where t.address = u.a`,
    [
      deltas.map((d) => toBytea(d.token)),
      deltas.map((d) => d.fungible),
      deltas.map((d) => d.nft),
      deltas.map((d) => d.transfers),
    ],
  );
}

/** After a type change (a reorg can lower it): holders_count is the counter the new type shows. Row-local. */
export async function syncHoldersCount(tx: Queryable, tokens: readonly Address[]): Promise<void> {
  if (!tokens.length) return;
  await command(
    tx,
    `update tokens set holders_count = case when type in ('ERC-20', 'ERC-404') then fungible_holders_count
       else nft_holders_count end where address = any($1::bytea[])`,
    [tokens.map(toBytea)],
  );
}
