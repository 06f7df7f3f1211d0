import type { FetchedBlock } from "../../../chain/types.js";
import { toBytea } from "../../../db/bytes.js";
import { command, type Queryable } from "../../../db/db.js";
import type { IndexerExtension } from "../../pipeline/extension.js";

export type BlockRewardRow = { blockNumber: number; address: string; type: string; reward: string };

/**
 * Pure: the rewards the node reported for each block (parity-style `reward` traces). Two traces of the same
 * beneficiary and kind in one block (an address mining and including its own uncle) are summed.
 */
export function deriveBlockRewards(batch: readonly FetchedBlock[]): BlockRewardRow[] {
  const out = new Map<string, BlockRewardRow>();
  for (const { block, rewards } of batch) {
    for (const r of rewards ?? []) {
      const address = r.address.toLowerCase();
      const key = `${Number(block.number)}:${address}:${r.type}`;
      const prev = out.get(key);
      const reward = (BigInt(prev?.reward ?? 0) + BigInt(r.value)).toString();
      out.set(key, { blockNumber: Number(block.number), address, type: r.type, reward });
    }
  }
  return [...out.values()];
}

async function writeBlockRewards(tx: Queryable, rows: readonly BlockRewardRow[]): Promise<void> {
  if (!rows.length) return;
  await command(
    tx,
    `insert into block_rewards (block_number, address, type, reward)
     select * from unnest($1::int8[], $2::bytea[], $3::text[], $4::numeric[])`,
    [
      rows.map((r) => r.blockNumber),
      rows.map((r) => toBytea(r.address)),
      rows.map((r) => r.type),
      rows.map((r) => r.reward),
    ],
  );
}

/** Block and uncle rewards where the node tells them (trace_block); other nodes report none. */
export function blockRewardsExtension(): IndexerExtension {
  return {
    id: "block-rewards",
    write: (tx, batch) => writeBlockRewards(tx, deriveBlockRewards(batch)),
    revert: async (tx, ancestor) => {
      await command(tx, "delete from block_rewards where block_number > $1", [ancestor]);
    },
  };
}
