import type { Address } from "viem";
import { toBytea } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
import { ZERO_ADDRESS } from "../core/token-decode.js";
import type { TransferRow } from "../core/token-logs.js";

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

/**
 * Per token, how its two holder counts move between two probes of the same pairs (a pair that starts holding is +1,
 * one that stops is -1), and its transfer count by `sign` times the events of `transfers` (a TransferBatch, one row
 * per id here, is one event, as upstream counts it). Pure.
 */
export function counterDeltas(
  pairs: readonly HolderPair[],
  before: readonly HolderState[],
  after: readonly HolderState[],
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
  const step = (a: boolean, b: boolean) => (a === b ? 0 : b ? 1 : -1);
  pairs.forEach((p, i) => {
    const f = step(before[i]!.fungible, after[i]!.fungible);
    const n = step(before[i]!.nft, after[i]!.nft);
    if (f || n) {
      const d = get(p.token);
      d.fungible += f;
      d.nft += n;
    }
  });
  for (const t of transfers) if (t.batchIndex === 0) get(t.token).transfers += sign;
  return [...out.values()].filter((d) => d.fungible || d.nft || d.transfers);
}

/**
 * One set-based probe: for each pair, two primary-key lookups (no count over the token's holders). Kept as `exists`:
 * as a scalar subquery with `limit 1` the planner probed token_holdings through its (token_address, value, holder)
 * index, a walk over every holder of the token for each pair (226 ms a batch at 300,000 transactions on PostgreSQL's
 * default settings, growing with the holders).
 */
export async function probeHolders(tx: Queryable, pairs: readonly HolderPair[]): Promise<HolderState[]> {
  if (!pairs.length) return [];
  const rows = await tx.query<{ f: boolean; n: boolean }>(
    `select exists (select 1 from token_fungible_balances f
               where f.holder = u.h and f.token_address = u.a and f.value > 0) as f,
            exists (select 1 from token_holdings x where x.holder = u.h
               and x.token_type in ('ERC-721', 'ERC-1155', 'ERC-404') and x.token_address = u.a and x.value > 0) as n
     from unnest($1::bytea[], $2::bytea[]) with ordinality as u(h, a, o) order by u.o`,
    [pairs.map((p) => toBytea(p.holder)), pairs.map((p) => toBytea(p.token))],
  );
  return rows.map((r) => ({ fungible: r.f, nft: r.n }));
}

/** Adds the deltas to the tokens' counters; holders_count follows the one its type shows. */
export async function addCounterDeltas(tx: Queryable, deltas: readonly CounterDelta[]): Promise<void> {
  if (!deltas.length) return;
  await tx.query(
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
  await tx.query(
    `update tokens set holders_count = case when type in ('ERC-20', 'ERC-404') then fungible_holders_count
       else nft_holders_count end where address = any($1::bytea[])`,
    [tokens.map(toBytea)],
  );
}
