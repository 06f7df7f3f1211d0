import type { Address, Hash } from "viem";
import type { FetchedBlock } from "../../../chain/types.js";
import { InconsistentBlockError } from "../../pipeline/errors.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { type BalanceChangeRow, balanceRows, changesFromPrestate } from "./derive.js";
import { type BalanceFetch, fetchBalances, withUnseenVaults } from "./fetch.js";
import { revertBalanceChanges, writeBalanceChanges } from "./store.js";

export const COIN_BALANCES = "coin-balances";

/** Pure: the balance-change rows of a batch, from what `fetchBalances` brought for each block. */
export function deriveBalanceRows(batch: readonly FetchedBlock[]): BalanceChangeRow[] {
  return batch.flatMap((fetched) => {
    const data = fetched.extra[COIN_BALANCES] as BalanceFetch | undefined;
    const { block } = fetched;
    if (!data) throw new Error(`coin balances of block ${Number(block.number)} were not fetched`);
    // Fetched by number beside the core data: it must be the same version of the block.
    if (data.hash !== block.hash)
      throw new InconsistentBlockError(`Block ${Number(block.number)} changed while it was fetched.`);
    return balanceRows(
      { number: Number(block.number), timestamp: Number(block.timestamp) },
      changesFromPrestate(data.traces ?? []),
      data.read,
      new Map<Address, Hash>(data.touched ?? []),
    );
  });
}

/**
 * Exact native balance changes per (address, block) for the coin balance history: prestate diffs where the
 * node offers them, eth_getBalance at N and N-1 otherwise; rows move with the checkpoint and reorgs.
 */
export function coinBalanceExtension(): IndexerExtension {
  return {
    name: COIN_BALANCES,
    fetchBlock: fetchBalances,
    afterFetch: (rpc, fetched, caps) =>
      withUnseenVaults(rpc, fetched, caps, fetched.extra[COIN_BALANCES] as BalanceFetch),
    write: (tx, batch) => writeBalanceChanges(tx, deriveBalanceRows(batch)),
    revert: revertBalanceChanges,
  };
}
