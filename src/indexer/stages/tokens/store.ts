import type { Address } from "viem";
import { byteaBuffer, fromBytea, toBytea } from "../../../db/bytes.js";
import { command, type Queryable, readAhead } from "../../../db/db.js";
import { bulkInsert } from "../core/bulk-insert.js";
import type { TokenType } from "../core/token-decode.js";
import type { TokenRows, TransferRow } from "../core/token-logs.js";
import { markNewTokens, unmarkLostTokens } from "../core/transaction-facts.js";
import {
  addCounterDeltas,
  counterDeltas,
  type HolderStep,
  holderSteps,
  nftPairs,
  nftSteps,
  probeHolders,
  probeNftHolders,
  syncHoldersCount,
  touchedPairs,
} from "./counters.js";
import { type FungibleDelta, type HoldingChanges, holdingChanges, type OwnerKey } from "./derive.js";

/**
 * Deletes the rows of `table` that `where` finds for each key of `keys` (a set-returning `from` item named `u`; the
 * table is `t`), one index probe per key, the rows then taken by their ids. A join of the keys to the table leaves
 * the plan to the statistics, which lag a growing table: with a few hundred rows estimated for 190,000 the planner
 * hashed the keys against a sequential read of the whole table every batch. `offset 0` keeps the lateral subquery
 * a probe: without it PostgreSQL pulls it up into that same join, and a busy batch's thousands of keys against the
 * few rows `value = 0` is estimated to match made it hash a whole read of token_holdings per batch (32 ms a batch
 * at a million transactions, growing with the table).
 */
const deleteProbed = (table: string, keys: string, where: string) =>
  `delete from ${table} where ctid = any(array(
     select x.ctid from ${keys} cross join lateral (select t.ctid from ${table} t where ${where} offset 0) x))`;

/** Deletes the ERC-721 holding rows (the owners) of `keys`. */
async function deleteOwners(tx: Queryable, keys: readonly OwnerKey[]): Promise<void> {
  await command(
    tx,
    deleteProbed(
      "token_holdings",
      "unnest($1::bytea[], $2::numeric[]) as u(a, i)",
      "t.token_address = u.a and t.token_id = u.i and t.token_type = 'ERC-721'",
    ),
    [keys.map((o) => toBytea(o.token)), keys.map((o) => o.tokenId.toString())],
  );
}

const PRIORITY_SQL = `array['ERC-20','ERC-721','ERC-1155','ERC-404']`;

/**
 * Writes a batch's transfers, tokens, instances and the holdings they change (inside the batch transaction); the
 * batch starts at block `from`. `history`: it may be older than blocks already written (head first), so a known
 * instance's first block can still move down; in order it cannot, and a known instance is left alone (a conflict
 * that updates nothing still locks the row: a heap write and a WAL record).
 */
export async function writeTokenRows(
  tx: Queryable,
  rows: TokenRows,
  from: number,
  history: boolean,
  defer?: (work: Promise<void>) => void,
): Promise<void> {
  const { transfers, tokens } = rows;
  if (transfers.length === 0) return;
  await insertTransfers(tx, transfers);
  await command(
    tx,
    `insert into tokens (address, type, first_block, supply_stale)
     select * from unnest($1::bytea[], $2::text[], $3::int8[], $4::bool[])
     on conflict (address) do update set
       first_block = least(tokens.first_block, excluded.first_block),
       type = case when array_position(${PRIORITY_SQL}, excluded.type) > array_position(${PRIORITY_SQL}, tokens.type)
                   then excluded.type else tokens.type end,
       supply_stale = tokens.supply_stale or excluded.supply_stale
     -- Only a token whose row changes gets a new version (a busy token is in every batch).
     where excluded.first_block < tokens.first_block
       or array_position(${PRIORITY_SQL}, excluded.type) > array_position(${PRIORITY_SQL}, tokens.type)
       or (excluded.supply_stale and not tokens.supply_stale)`,
    [
      tokens.map((t) => toBytea(t.address)),
      tokens.map((t) => t.type),
      tokens.map((t) => t.firstBlock),
      tokens.map((t) => t.mintedOrBurned),
    ],
  );
  // A token first seen here is a contract, and its creation a token creation (the explorer's type filters).
  await markNewTokens(
    tx,
    tokens.map((t) => toBytea(t.address)),
    from,
  );
  const nft = transfers.filter((t) => t.tokenId !== null);
  if (nft.length) {
    await command(
      tx,
      `insert into token_instances (token_address, token_id, token_type, first_block)
       select distinct on (a, i) a, i, k, b from unnest($1::bytea[], $2::numeric[], $3::text[], $4::int8[]) as x(a, i, k, b)
       order by a, i, b
       on conflict (token_address, token_id) ${
         history
           ? "do update set first_block = excluded.first_block where excluded.first_block < token_instances.first_block"
           : "do nothing"
       }`,
      [
        nft.map((t) => toBytea(t.token)),
        nft.map((t) => t.tokenId!.toString()),
        nft.map((t) => t.kind),
        nft.map((t) => t.blockNumber),
      ],
    );
  }
  // Holder counts move by the pairs that start or stop holding, never recounted: a fungible balance's state before
  // and after comes back from its own upsert; the pairs whose ids move are probed before and after. Every read is
  // sent in its place among the writes and awaited once all are sent; the counts' update then waits for them
  // (`defer`: beside the later stages' writes, not holding them).
  const changes = holdingChanges(transfers);
  const idPairs = nftPairs(changes);
  const nftBefore = readAhead(probeNftHolders(tx, idPairs));
  const applied = await applyChanges(tx, changes);
  const nftAfter = readAhead(probeNftHolders(tx, idPairs));
  const counts = (async () => {
    const steps = [...(await applied.fungible), ...nftSteps(idPairs, await nftBefore, await nftAfter)];
    await addCounterDeltas(tx, counterDeltas(steps, transfers, 1));
    await applied.cleared;
  })();
  if (defer) defer(counts);
  else await counts;
}

/** The batch's transfers, by COPY where the connection has it (core/bulk-insert.ts), as the core rows go in. */
const insertTransfers = bulkInsert<TransferRow>("token_transfers", [
  { column: "block_number", type: "int8", get: (r) => r.blockNumber },
  { column: "log_index", type: "int4", get: (r) => r.logIndex },
  { column: "batch_index", type: "int4", get: (r) => r.batchIndex },
  { column: "transaction_hash", type: "bytea", get: (r) => r.transactionHash },
  { column: "token_address", type: "bytea", get: (r) => r.token },
  { column: "kind", type: "text", get: (r) => r.kind },
  { column: "from_address", type: "bytea", get: (r) => r.from },
  { column: "to_address", type: "bytea", get: (r) => r.to },
  { column: "token_id", type: "numeric", get: (r) => r.tokenId, param: (v: bigint) => v.toString() },
  { column: "amount", type: "numeric", get: (r) => r.amount, param: (v: bigint) => v.toString() },
]);

/** What `applyChanges` leaves to await, both read ahead. */
type Applied = {
  /** How each changed fungible balance moved its pair's holder state (it also waits for the ERC-721 counts). */
  fungible: Promise<HolderStep[]>;
  /** The rows that reached zero are removed (sent once the upserts that reached it have answered). */
  cleared: Promise<void>;
};

/**
 * Adds per-id and fungible deltas, sets ERC-721 owners; rows that reach zero are removed. Resolves once every
 * statement is sent; what comes of them is read ahead in `Applied`: await both (before the transaction ends).
 *
 * The rows that reach zero come back from their upserts, and only they are deleted, in a statement of their own
 * once those answers are in (every read of these tables wants `value > 0`, so a zero row may stay until then).
 * A delete probing every upserted key again was a sixth of the tokens stage's statement time on the busy bench
 * chain (0.85 s of server time per 300,000 transactions), to remove one row.
 */
async function applyChanges(tx: Queryable, c: HoldingChanges): Promise<Applied> {
  const cleared: Array<Promise<void>> = [];
  if (c.holdings.length) {
    const h = c.holdings;
    const zero = tx.query<{ o: Uint8Array; k: string; a: Uint8Array; i: string }>(
      `with up as (
         insert into token_holdings (holder, token_type, token_address, token_id, value)
         select * from unnest($1::bytea[], $2::text[], $3::bytea[], $4::numeric[], $5::numeric[])
         on conflict (holder, token_type, token_address, token_id) do update set value = token_holdings.value + excluded.value
         returning holder, token_type, token_address, token_id, value)
       select holder as o, token_type as k, token_address as a, token_id::text as i from up where value = 0`,
      [
        h.map((d) => toBytea(d.holder)),
        h.map((d) => d.tokenType),
        h.map((d) => toBytea(d.token)),
        h.map((d) => d.tokenId.toString()),
        h.map((d) => d.delta.toString()),
      ],
    );
    cleared.push(
      zero.then(async (rows) => {
        if (!rows.length) return;
        await command(
          tx,
          deleteProbed(
            "token_holdings",
            "unnest($1::bytea[], $2::text[], $3::bytea[], $4::numeric[]) as u(o, k, a, i)",
            "t.holder = u.o and t.token_type = u.k and t.token_address = u.a and t.token_id = u.i and t.value = 0",
          ),
          [
            rows.map((r) => byteaBuffer(r.o)),
            rows.map((r) => r.k),
            rows.map((r) => byteaBuffer(r.a)),
            rows.map((r) => r.i),
          ],
        );
      }),
    );
  }
  const fungible = await addBalances(tx, "token_fungible_balances", c.fungible);
  const erc721 = await addBalances(tx, "token_erc721_balances", c.erc721Counts ?? []);
  if (c.owners.length) await setOwners(tx, c.owners);
  return {
    fungible: readAhead(Promise.all([fungible.steps, erc721.steps]).then(([steps]) => steps)),
    cleared: readAhead(Promise.all([...cleared, fungible.cleared, erc721.cleared]).then(() => undefined)),
  };
}

/**
 * Adds per-holder deltas to a (holder, token_address, value) table; rows that reach zero are removed (`cleared`,
 * as in applyChanges). `steps` (read ahead: resolves once the statements are sent): per changed row that crossed
 * it, how "value > 0" moved (as a fungible holder step): the row's value after comes back from the upsert, and
 * before it is that less the delta (0 for a row the upsert inserted).
 */
async function addBalances(
  tx: Queryable,
  table: "token_fungible_balances" | "token_erc721_balances",
  f: FungibleDelta[],
): Promise<{ steps: Promise<HolderStep[]>; cleared: Promise<void> }> {
  if (!f.length) return { steps: Promise.resolve([]), cleared: Promise.resolve() };
  const holders = f.map((d) => toBytea(d.holder));
  const tokens = f.map((d) => toBytea(d.token));
  const upserted = tx.query<{ o: Uint8Array; a: Uint8Array; value: string; inserted: boolean }>(
    `insert into ${table} (holder, token_address, value)
     select * from unnest($1::bytea[], $2::bytea[], $3::numeric[])
     on conflict (holder, token_address) do update set value = ${table}.value + excluded.value
     returning holder as o, token_address as a, value::text as value, xmax = 0 as inserted`,
    [holders, tokens, f.map((d) => d.delta.toString())],
  );
  const steps = readAhead(
    upserted.then((rows) => {
      const key = (holder: string, token: string) => `${holder}|${token}`.toLowerCase();
      const delta = new Map(f.map((d) => [key(d.holder, d.token), d.delta]));
      const out: HolderStep[] = [];
      for (const r of rows) {
        const token = fromBytea(r.a);
        const after = BigInt(r.value);
        const before = r.inserted ? 0n : after - (delta.get(key(fromBytea(r.o), token)) ?? 0n);
        if (before > 0n !== after > 0n) out.push({ token, fungible: after > 0n ? 1 : -1, nft: 0 });
      }
      return out;
    }),
  );
  const cleared = readAhead(
    upserted.then(async (rows) => {
      const zero = rows.filter((r) => r.value === "0");
      if (!zero.length) return;
      await command(
        tx,
        deleteProbed(
          table,
          "unnest($1::bytea[], $2::bytea[]) as u(o, a)",
          "t.holder = u.o and t.token_address = u.a and t.value = 0",
        ),
        [zero.map((r) => byteaBuffer(r.o)), zero.map((r) => byteaBuffer(r.a))],
      );
    }),
  );
  return { steps, cleared };
}

async function setOwners(tx: Queryable, owners: Array<OwnerKey & { owner: Address | null }>) {
  await deleteOwners(tx, owners);
  const held = owners.filter((o) => o.owner !== null);
  if (held.length) {
    await command(
      tx,
      `insert into token_holdings (holder, token_type, token_address, token_id, value)
       select o, 'ERC-721', a, i, 1 from unnest($1::bytea[], $2::bytea[], $3::numeric[]) as u(o, a, i)`,
      [
        held.map((o) => toBytea(o.owner!)),
        held.map((o) => toBytea(o.token)),
        held.map((o) => o.tokenId.toString()),
      ],
    );
  }
}

type TransferDbRow = {
  block_number: number;
  log_index: number;
  batch_index: number;
  transaction_hash: Uint8Array;
  token_address: Uint8Array;
  kind: TokenType;
  from_address: Uint8Array;
  to_address: Uint8Array;
  token_id: string | null;
  amount: string;
};

/**
 * Undoes everything above `ancestor`: per-id and fungible balances get the inverse deltas of the removed transfers
 * (exact, since addition is), ERC-721 owners are recomputed from the newest remaining transfer of each id, and token
 * types, instances and holder counts follow.
 */
export async function revertTokenRows(tx: Queryable, ancestor: number): Promise<void> {
  const removed = (
    await tx.query<TransferDbRow>("delete from token_transfers where block_number > $1 returning *", [
      ancestor,
    ])
  ).map(
    (r): TransferRow => ({
      blockNumber: r.block_number,
      logIndex: r.log_index,
      batchIndex: r.batch_index,
      transactionHash: fromBytea(r.transaction_hash),
      token: fromBytea(r.token_address),
      kind: r.kind,
      from: fromBytea(r.from_address),
      to: fromBytea(r.to_address),
      tokenId: r.token_id === null ? null : BigInt(r.token_id),
      amount: BigInt(r.amount),
    }),
  );
  if (removed.length === 0) return;
  removed.sort(
    (a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex || a.batchIndex - b.batchIndex,
  );
  const inverse = holdingChanges(removed, -1n);
  const keys = inverse.owners;
  // ERC-721 owners after the reorg: the receiver of each id's newest remaining transfer (none when burned).
  const restored = keys.length
    ? (
        await tx.query<{ holder: Uint8Array; a: Uint8Array; i: string }>(
          `select last.to_address as holder, u.a, u.i::text as i
           from unnest($1::bytea[], $2::numeric[]) as u(a, i)
           cross join lateral (
             select to_address from token_transfers t
             where t.token_address = u.a and t.token_id = u.i and t.kind = 'ERC-721'
             order by block_number desc, log_index desc, batch_index desc limit 1) last
           where last.to_address <> '\\x0000000000000000000000000000000000000000'::bytea`,
          [keys.map((o) => toBytea(o.token)), keys.map((o) => o.tokenId.toString())],
        )
      ).map((r) => ({ holder: fromBytea(r.holder), token: fromBytea(r.a), tokenId: r.i }))
    : [];
  const pairs = touchedPairs(removed, restored);
  const before = await probeHolders(tx, pairs);
  const applied = await applyChanges(tx, { ...inverse, owners: [] });
  await applied.fungible;
  await applied.cleared;
  if (keys.length) {
    await deleteOwners(tx, keys);
  }
  if (restored.length) {
    await command(
      tx,
      `insert into token_holdings (holder, token_type, token_address, token_id, value)
       select o, 'ERC-721', a, i, 1 from unnest($1::bytea[], $2::bytea[], $3::numeric[]) as u(o, a, i)`,
      [
        restored.map((r) => toBytea(r.holder)),
        restored.map((r) => toBytea(r.token)),
        restored.map((r) => r.tokenId),
      ],
    );
  }
  await addCounterDeltas(
    tx,
    counterDeltas(holderSteps(pairs, before, await probeHolders(tx, pairs)), removed, -1),
  );
  await command(tx, "delete from token_instances where first_block > $1", [ancestor]);
  const gone = await tx.query<{ address: Uint8Array }>(
    "delete from tokens where first_block > $1 returning address",
    [ancestor],
  );
  await unmarkLostTokens(
    tx,
    gone.map((r) => r.address),
  );
  const touched = [...new Set(removed.map((r) => r.token))];
  // A type raised by a reverted event falls back to the highest kind still on record.
  await command(
    tx,
    `update tokens t set supply_stale = true, type = coalesce((
        select k from unnest(${PRIORITY_SQL}) with ordinality as p(k, n)
        where exists (select 1 from token_transfers x where x.token_address = t.address and x.kind = p.k)
        order by n desc limit 1), t.type)
     where t.address = any($1::bytea[])`,
    [touched.map(toBytea)],
  );
  await syncHoldersCount(tx, touched);
}
