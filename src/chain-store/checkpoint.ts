import type { Hash } from "viem";
import { fromByteaOrNull, toBytea } from "../db/bytes.js";
import { command, type Queryable } from "../db/db.js";

export type IndexerState = {
  chainId: number;
  startBlock: number;
  startHash: Hash;
  lastBlock: number | null;
  lastHash: Hash | null;
  /**
   * Head first (migration 156): while history catches up beside the head, the index is two segments,
   * [startBlock .. historyBlock] and [headStart .. lastBlock]; null when it is one contiguous range.
   */
  headStart: number | null;
  historyBlock: number | null;
  historyHash: Hash | null;
};

const STATE_COLUMNS =
  "chain_id, start_block, start_hash, last_block, last_hash, head_start, history_block, history_hash";

type StateRow = {
  chain_id: number;
  start_block: number;
  start_hash: Uint8Array;
  last_block: number | null;
  last_hash: Uint8Array | null;
  head_start: number | null;
  history_block: number | null;
  history_hash: Uint8Array | null;
};

const num = (v: number | string | null) => (v === null ? null : Number(v));

function stateOf(r: StateRow): IndexerState {
  return {
    chainId: Number(r.chain_id),
    startBlock: Number(r.start_block),
    startHash: fromByteaOrNull(r.start_hash)!,
    lastBlock: num(r.last_block),
    lastHash: fromByteaOrNull(r.last_hash),
    headStart: num(r.head_start),
    historyBlock: num(r.history_block),
    historyHash: fromByteaOrNull(r.history_hash),
  };
}

export async function readState(db: Queryable): Promise<IndexerState | null> {
  const [r] = await db.query<StateRow>(`select ${STATE_COLUMNS} from indexer_state where id = 1`);
  return r ? stateOf(r) : null;
}

export async function initState(db: Queryable, s: { chainId: number; startBlock: number; startHash: Hash }) {
  await db.query(
    `insert into indexer_state (id, chain_id, start_block, start_hash) values (1, $1, $2, $3)
     on conflict (id) do update set chain_id = excluded.chain_id, start_block = excluded.start_block,
       start_hash = excluded.start_hash, last_block = null, last_hash = null, head_start = null,
       history_block = null, history_hash = null, updated_at = now()`,
    [s.chainId, s.startBlock, toBytea(s.startHash)],
  );
}

/** Moves the checkpoint; call it inside the transaction that wrote the rows up to `block`. */
export async function moveCheckpoint(tx: Queryable, block: number | null, hash: Hash | null): Promise<void> {
  await command(
    tx,
    "update indexer_state set last_block = $1, last_hash = $2, updated_at = now() where id = 1",
    [block, hash ? toBytea(hash) : null],
  );
}

/** Locks the checkpoint row for the rest of the transaction and returns it (null before `initState`). */
export async function lockState(tx: Queryable): Promise<IndexerState | null> {
  const [r] = await tx.query<StateRow>(`select ${STATE_COLUMNS} from indexer_state where id = 1 for update`);
  return r ? stateOf(r) : null;
}

type Cursor = { number: number; hash: Hash } | null;
const sameCursor = (n: number | null, h: Hash | null, c: Cursor) =>
  c === null ? n === null : n === c.number && h === c.hash;

/**
 * Locks the checkpoint row for the rest of the transaction and checks its head cursor is still `expected` (the tip
 * this indexer read): the compare-and-set that fences a writer which lost the lease. Returns false when another
 * writer moved it.
 */
export async function lockCheckpoint(tx: Queryable, expected: Cursor): Promise<boolean> {
  const s = await lockState(tx);
  return !!s && sameCursor(s.lastBlock, s.lastHash, expected);
}

/** The same fence for the history writer: the history cursor and the head segment's start are still these. */
export async function lockHistory(tx: Queryable, headStart: number, expected: Cursor): Promise<boolean> {
  const s = await lockState(tx);
  return !!s && s.headStart === headStart && sameCursor(s.historyBlock, s.historyHash, expected);
}

/**
 * Head first: the index so far becomes history (its checkpoint the history cursor) and the head segment starts
 * empty at `headStart`; call it in the transaction that locked the state.
 */
export async function splitCheckpoint(tx: Queryable, headStart: number): Promise<void> {
  await command(
    tx,
    `update indexer_state set head_start = $1, history_block = last_block, history_hash = last_hash,
       last_block = null, last_hash = null, updated_at = now() where id = 1`,
    [headStart],
  );
}

/** Moves the history cursor; call it inside the transaction that wrote the history rows up to `block`. */
export async function moveHistory(tx: Queryable, block: number, hash: Hash): Promise<void> {
  await command(
    tx,
    "update indexer_state set history_block = $1, history_hash = $2, updated_at = now() where id = 1",
    [block, toBytea(hash)],
  );
}

/** History met the head segment: one contiguous index again, its checkpoint `block`. */
export async function joinCheckpoint(tx: Queryable, block: number, hash: Hash): Promise<void> {
  await command(
    tx,
    `update indexer_state set last_block = $1, last_hash = $2, head_start = null, history_block = null,
       history_hash = null, updated_at = now() where id = 1`,
    [block, toBytea(hash)],
  );
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

/**
 * The indexed range: the first block and the last committed one (null before the first batch). While history
 * catches up beside the head (`headStart` not null), the blocks indexed are [startBlock .. historyBlock] and
 * [headStart .. lastBlock].
 */
export async function indexedRange(db: Queryable): Promise<{
  chainId: number;
  startBlock: number;
  lastBlock: number | null;
  headStart: number | null;
  historyBlock: number | null;
} | null> {
  const [r] = await db.query<{
    chain_id: number;
    start_block: number;
    last_block: number | null;
    head_start: number | null;
    history_block: number | null;
  }>("select chain_id, start_block, last_block, head_start, history_block from indexer_state where id = 1");
  return r
    ? {
        chainId: Number(r.chain_id),
        startBlock: Number(r.start_block),
        lastBlock: num(r.last_block),
        headStart: num(r.head_start),
        historyBlock: num(r.history_block),
      }
    : null;
}

/** The indexed chain's id exactly (EIP-155 ids may pass 2^53), or null before the indexer's first write. */
export async function indexedChainIdExact(db: Queryable): Promise<bigint | null> {
  const [r] = await db.query<{ chain_id: string }>(
    "select chain_id::text as chain_id from indexer_state where id = 1",
  );
  return r ? BigInt(r.chain_id) : null;
}

/** Whether the index starts at genesis (every balance known from block 0), as a boolean SQL expression. */
export const INDEXED_FROM_GENESIS_SQL = "exists (select 1 from indexer_state where start_block = 0)";

/** The newest indexed block (its number as text), or null before the first batch. */
export async function indexedHeadBlock(db: Queryable): Promise<{ number: string; timestamp: Date } | null> {
  const [r] = await db.query<{ number: string; timestamp: Date }>(
    "select b.number, b.timestamp from indexer_state s join blocks b on b.number = s.last_block where s.id = 1",
  );
  return r ?? null;
}

/** Where the index came from: its chain, its last block, and whether `lookout start` made it from its local anvil. */
export async function indexOrigin(
  db: Queryable,
): Promise<{ chainId: number; lastBlock: number | null; localChain: boolean } | null> {
  const [r] = await db.query<{ chain_id: number; last_block: number | null; local_chain: boolean }>(
    "select chain_id, last_block, local_chain from indexer_state where id = 1",
  );
  return r ? { chainId: r.chain_id, lastBlock: r.last_block, localChain: r.local_chain } : null;
}

/** Marks the index as made from the local anvil `lookout start` launched (a later start may wipe it). */
export async function markLocalChain(db: Queryable): Promise<void> {
  await db.query("update indexer_state set local_chain = true where id = 1");
}

/**
 * How many blocks are indexed and how many lie from the start block to the newest indexed one (equal once history
 * has caught up). Pure.
 */
export function indexedBlocks(r: {
  startBlock: number;
  lastBlock: number | null;
  headStart: number | null;
  historyBlock: number | null;
}): { indexed: number; span: number } {
  if (r.headStart === null) {
    const n = r.lastBlock === null ? 0 : r.lastBlock - r.startBlock + 1;
    return { indexed: n, span: n };
  }
  const history = r.historyBlock === null ? 0 : r.historyBlock - r.startBlock + 1;
  const head = r.lastBlock === null ? 0 : r.lastBlock - r.headStart + 1;
  const newest = r.lastBlock ?? r.historyBlock;
  return { indexed: history + head, span: newest === null ? 0 : newest - r.startBlock + 1 };
}
