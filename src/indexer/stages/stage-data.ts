import type { FetchedBlock } from "../../chain/types.js";
import { stageSlot } from "../pipeline/extension.js";
import type { BalanceChangeRow } from "./balances/derive.js";
import { deriveInternalTransactions, type InternalTransactionRow } from "./internal-transactions/derive.js";

/**
 * The typed outputs of stages that later stages read: a stage's `afterFetch` result kept with the fetched block
 * under its slot. A stage reads another's rows through these accessors, never through the other stage's modules
 * (the architecture check), and the owner alone fills its slot.
 */

/** A block's balance-change rows and their COPY tuples (the balances stage's). */
export type BalanceChangesOfBlock = { rows: BalanceChangeRow[]; text: Uint8Array };
export const BALANCE_CHANGES = stageSlot<BalanceChangesOfBlock>("balances");

/** A block's balance changes, as the balances stage derived them when it arrived. */
export function balanceChangesOfBlock(fetched: FetchedBlock): BalanceChangesOfBlock {
  const own = BALANCE_CHANGES.of(fetched);
  if (!own) throw new Error(`coin balances of block ${Number(fetched.block.number)} were not fetched`);
  return own;
}

/** The batch's balance changes, in block order (the current balances and the counters read them too). */
export function balanceChangesOf(batch: readonly FetchedBlock[]): BalanceChangeRow[] {
  return batch.flatMap((fetched) => balanceChangesOfBlock(fetched).rows);
}

/** A block's call frames as rows and their COPY tuples (the internal-transactions stage's). */
export type InternalTransactionsOfBlock = { rows: InternalTransactionRow[]; text: Uint8Array };
export const INTERNAL_TRANSACTIONS = stageSlot<InternalTransactionsOfBlock>("internal-transactions");

/** One block's internal-transaction rows: as derived when it arrived, or now for a block fetched without them. */
export function internalTransactionsOf(fetched: FetchedBlock): InternalTransactionRow[] {
  return INTERNAL_TRANSACTIONS.of(fetched)?.rows ?? deriveInternalTransactions([fetched]);
}
