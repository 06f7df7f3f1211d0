import type { Hash } from "viem";
import { fromByteaOrNull, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";

export type IndexerState = {
  chainId: number;
  startBlock: number;
  startHash: Hash;
  lastBlock: number | null;
  lastHash: Hash | null;
};

export async function readState(db: Queryable): Promise<IndexerState | null> {
  const [r] = await db.query<{
    chain_id: number;
    start_block: number;
    start_hash: Uint8Array;
    last_block: number | null;
    last_hash: Uint8Array | null;
  }>("select chain_id, start_block, start_hash, last_block, last_hash from indexer_state where id = 1");
  if (!r) return null;
  return {
    chainId: r.chain_id,
    startBlock: r.start_block,
    startHash: fromByteaOrNull(r.start_hash)!,
    lastBlock: r.last_block,
    lastHash: fromByteaOrNull(r.last_hash),
  };
}

export async function initState(db: Queryable, s: { chainId: number; startBlock: number; startHash: Hash }) {
  await db.query(
    `insert into indexer_state (id, chain_id, start_block, start_hash) values (1, $1, $2, $3)
     on conflict (id) do update set chain_id = excluded.chain_id, start_block = excluded.start_block,
       start_hash = excluded.start_hash, last_block = null, last_hash = null, updated_at = now()`,
    [s.chainId, s.startBlock, toBytea(s.startHash)],
  );
}

/** Moves the checkpoint; call it inside the transaction that wrote the rows up to `block`. */
export async function moveCheckpoint(tx: Queryable, block: number | null, hash: Hash | null): Promise<void> {
  await tx.query(
    "update indexer_state set last_block = $1, last_hash = $2, updated_at = now() where id = 1",
    [block, hash ? toBytea(hash) : null],
  );
}

/**
 * Locks the checkpoint row for the rest of the transaction and checks it is still `expected` (the tip this
 * indexer read): the compare-and-set that fences a writer which lost the lease. Returns false when another
 * writer moved it.
 */
export async function lockCheckpoint(
  tx: Queryable,
  expected: { number: number; hash: Hash } | null,
): Promise<boolean> {
  const [r] = await tx.query<{ last_block: number | null; last_hash: Uint8Array | null }>(
    "select last_block, last_hash from indexer_state where id = 1 for update",
  );
  if (!r) return false;
  const hash = fromByteaOrNull(r.last_hash);
  return expected === null
    ? r.last_block === null
    : r.last_block === expected.number && hash === expected.hash;
}

export async function storedHashes(db: Queryable, from: number, to: number): Promise<Map<number, Hash>> {
  const rows = await db.query<{ number: number; hash: Uint8Array }>(
    "select number, hash from blocks where number between $1 and $2",
    [from, to],
  );
  return new Map(rows.map((r) => [r.number, fromByteaOrNull(r.hash)!]));
}

/** The indexed chain's id as a scalar subquery, for statements that join the verified store to the index. */
export const INDEXED_CHAIN_ID_SQL = "(select chain_id from indexer_state where id = 1)";

/** The id of the chain this database indexes, or null before the indexer's first write. */
export async function indexedChainId(db: Queryable): Promise<number | null> {
  const [r] = await db.query<{ chain_id: number }>("select chain_id from indexer_state where id = 1");
  return r ? Number(r.chain_id) : null;
}

/** The indexed range: the first block and the last committed one (null before the first batch). */
export async function indexedRange(
  db: Queryable,
): Promise<{ chainId: number; startBlock: number; lastBlock: number | null } | null> {
  const [r] = await db.query<{ chain_id: number; start_block: number; last_block: number | null }>(
    "select chain_id, start_block, last_block from indexer_state where id = 1",
  );
  return r
    ? {
        chainId: Number(r.chain_id),
        startBlock: Number(r.start_block),
        lastBlock: r.last_block === null ? null : Number(r.last_block),
      }
    : null;
}
