import type { Queryable } from "../../db/db.js";
import type { IndexerExtension } from "../extension.js";
import { ADD_ADDRESS_FACTS, DELETE_ADDRESSES, SUBTRACT_ADDRESS_FACTS, UPSERT_CHAIN_COUNTERS } from "./sql.js";

/** Above any block number: the open end of a reorg's range. */
const END = Number.MAX_SAFE_INTEGER;

async function addRange(tx: Queryable, from: number, to: number): Promise<void> {
  await tx.query(ADD_ADDRESS_FACTS, [from - 1, to, 1]);
  await tx.query(UPSERT_CHAIN_COUNTERS, [from - 1, to, 1]);
}

async function subtractAbove(tx: Queryable, ancestor: number): Promise<void> {
  const rows = await tx.query<{ address: Uint8Array; empty: boolean }>(SUBTRACT_ADDRESS_FACTS, [
    ancestor,
    END,
    -1,
  ]);
  // An address whose every counter came from the reverted blocks has no row in a clean index either.
  const empty = rows.filter((r) => r.empty).map((r) => r.address);
  if (empty.length) await tx.query("delete from address_counters where address = any($1::bytea[])", [empty]);
  await tx.query(DELETE_ADDRESSES, [ancestor]);
  await tx.query(UPSERT_CHAIN_COUNTERS, [ancestor, END, -1]);
}

/**
 * Per-address counters (`address_counters`), first sightings (`addresses`) and chain-wide counters
 * (`chain_counters`), kept incrementally so no page counts rows. It reads the rows the other parts wrote for the
 * batch, so it is listed after them; the runtime reverts extensions in reverse order before the core rows, so
 * its revert still sees the rows it subtracts.
 */
export function countersExtension(): IndexerExtension {
  return {
    name: "counters",
    async write(tx, batch) {
      if (!batch.length) return;
      await addRange(tx, Number(batch[0]!.block.number), Number(batch[batch.length - 1]!.block.number));
    },
    revert: subtractAbove,
  };
}
