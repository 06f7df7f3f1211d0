import type { Queryable } from "../db/db.js";

/**
 * The trailing stages' cursor (migration 185): the last block they have written, while a batch of theirs may be
 * owed; no row when they are level with the checkpoint.
 */
export async function readTrail(db: Queryable): Promise<number | null> {
  const [r] = await db.query<{ block: number }>("select block from indexer_trail where id = 1");
  return r ? Number(r.block) : null;
}

/** Opens the cursor at `block` (the trailing stages have written every block up to it). */
export async function openTrail(tx: Queryable, block: number): Promise<void> {
  await tx.query(
    "insert into indexer_trail (id, block) values (1, $1) on conflict (id) do update set block = excluded.block",
    [block],
  );
}

/**
 * Moves the cursor from `from` to `to` and locks it for the rest of the transaction: the compare-and-set that fences
 * a trailing write against another writer's (false when the cursor is not at `from`).
 */
export async function moveTrail(tx: Queryable, from: number, to: number): Promise<boolean> {
  const rows = await tx.query("update indexer_trail set block = $2 where id = 1 and block = $1 returning 1", [
    from,
    to,
  ]);
  return rows.length === 1;
}

/** The trailing stages are level with the checkpoint (or the blocks they wrote are being reverted). */
export async function closeTrail(tx: Queryable): Promise<void> {
  await tx.query("delete from indexer_trail where id = 1");
}
