import type { Address, Hash } from "viem";
import type { FetchedBlock } from "../../../chain/types.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import {
  BALANCE_CHANGES,
  type BalanceChangesOfBlock,
  balanceChangesOf,
  balanceChangesOfBlock,
} from "../stage-data.js";
import { type BalanceChangeRow, balanceRows, changesFromPrestate } from "./derive.js";
import { type BalanceFetch, fetchBalances } from "./fetch.js";
import { encodeBalanceChanges, revertBalanceChanges, writeBalanceChanges } from "./store.js";

/** A block's balance-change rows and their COPY tuples, derived as soon as `fetchBalances` brought its data. */
type Derived = BalanceChangesOfBlock;
const DERIVED = BALANCE_CHANGES;

/** Pure: the balance-change rows of one block, from what `fetchBalances` brought for it. */
function blockBalanceRows({ block }: FetchedBlock, data: BalanceFetch): BalanceChangeRow[] {
  return balanceRows(
    { number: Number(block.number), timestamp: Number(block.timestamp) },
    changesFromPrestate(data.traces ?? []),
    data.read,
    new Map<Address, Hash>(data.touched ?? []),
  );
}

/** The batch's rows and their text, in block order. */
function batchRows(batch: readonly FetchedBlock[]): Derived {
  if (batch.length === 1) return balanceChangesOfBlock(batch[0]!);
  return {
    rows: balanceChangesOf(batch),
    text: Buffer.concat(batch.map((fetched) => balanceChangesOfBlock(fetched).text)),
  };
}

/**
 * Exact native balance changes per (address, block) for the coin balance history: prestate diffs where the
 * node offers them, eth_getBalance at N and N-1 otherwise; rows move with the checkpoint and reorgs. The current
 * balances are the next stage's (current-balances.ts).
 */
export function coinBalanceExtension(): IndexerExtension<Derived> {
  return {
    id: DERIVED.id,
    // The rows are derived and encoded here, outside the batch transaction that every range waits for.
    afterFetch: async (rpc, fetched, caps) => {
      const rows = blockBalanceRows(fetched, await fetchBalances(rpc, fetched, caps));
      return { rows, text: encodeBalanceChanges(rows) };
    },
    write: (tx, batch) => {
      const { rows, text } = batchRows(batch);
      return writeBalanceChanges(tx, rows, text);
    },
    revert: revertBalanceChanges,
  };
}
