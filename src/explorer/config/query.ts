import type { Queryable } from "../../db/db.js";

/**
 * What the index holds, each an index probe of one row: OP-stack rows (only an OP-stack chain has them: every one of
 * its blocks starts with an L1-info deposit), call frames read from traces, block rewards from trace_block.
 */
export async function indexHolds(
  db: Queryable,
): Promise<{ opStack: boolean; internalTransactions: boolean; blockRewards: boolean }> {
  const [r] = await db.query<{ op: boolean; it: boolean; br: boolean }>(
    `select exists(select 1 from op_transactions) as op, exists(select 1 from internal_transactions) as it,
       exists(select 1 from block_rewards) as br`,
  );
  return { opStack: r?.op ?? false, internalTransactions: r?.it ?? false, blockRewards: r?.br ?? false };
}
