import type { Address, Hash } from "viem";
import type { PrestateDiffTrace } from "../../../chain/types.js";

/** One row of coin_balance_changes. Amounts are decimal strings (wei); `delta` is never "0". */
export type BalanceChangeRow = {
  address: Address;
  blockNumber: number;
  value: string;
  delta: string;
  transactionHash: Hash | null;
  /** Unix seconds. */
  timestamp: number;
};

/**
 * Balances read with eth_getBalance at the end of the block before (`previous`) and, where needed, at the end of
 * the block itself (`value`). `value` is null when the end is derived instead: `previous` + the transactions' changes
 * + `credited` (withdrawals). A node may answer a read at its head block with the state of the block it is mining
 * (anvil with a block time does), so the head is read only when nothing else can tell its balances.
 */
export type ReadBalance = { address: Address; value: bigint | null; previous: bigint; credited?: bigint };

type Change = { start: bigint; end: bigint; tx: Hash | null };

/**
 * Balance movements of one block's transactions from prestate diffs. An account's balance changed in a
 * transaction when its post balance differs from its pre balance; in diff mode a field missing from `post` is
 * unchanged, and an account present in `pre` but missing from `post` was deleted (self-destruct), so it holds 0.
 * `start` is the pre balance of the first changing transaction (earlier ones left it as at the end of the last
 * block), `end` the post balance of the last one, `tx` that last transaction.
 */
export function changesFromPrestate(traces: readonly PrestateDiffTrace[]): Map<Address, Change> {
  const out = new Map<Address, Change>();
  for (const t of traces) {
    const pre = t.result.pre ?? {};
    const post = t.result.post ?? {};
    const change = (key: string) => {
      const before = BigInt(pre[key]?.balance ?? "0x0");
      const after = key in post ? BigInt(post[key]?.balance ?? before) : key in pre ? 0n : before;
      if (after === before) return;
      const address = key.toLowerCase() as Address;
      const seen = out.get(address);
      out.set(address, { start: seen ? seen.start : before, end: after, tx: t.txHash ?? null });
    };
    // Every account either side names, once (no merged key set per transaction).
    for (const key in pre) change(key);
    for (const key in post) if (!(key in pre)) change(key);
  }
  return out;
}

/**
 * The rows of one block. Balances read with eth_getBalance (fee recipient, withdrawal recipients, genesis
 * accounts) are authoritative for their start value, and for their end value when read: rewards and withdrawals
 * are credited after the transactions, outside every trace. An end not read is the transactions' end (or the start)
 * plus the withdrawals. The attribution stays the last transaction that moved the balance, if any.
 */
export function balanceRows(
  block: { number: number; timestamp: number },
  fromTxs: ReadonlyMap<Address, Change>,
  read: readonly ReadBalance[],
  /** Attribution inferred without traces (fallback mode): address → last transaction that touched it. */
  inferred: ReadonlyMap<Address, Hash> = new Map(),
): BalanceChangeRow[] {
  const merged = new Map(fromTxs);
  for (const r of read) {
    const address = r.address.toLowerCase() as Address;
    const moved = fromTxs.get(address);
    const tx = moved?.tx ?? inferred.get(address) ?? null;
    const end = r.value ?? (moved ? moved.end : r.previous) + (r.credited ?? 0n);
    merged.set(address, { start: r.previous, end, tx });
  }
  const rows: BalanceChangeRow[] = [];
  for (const [address, c] of merged) {
    if (c.end === c.start) continue;
    rows.push({
      address,
      blockNumber: block.number,
      value: c.end.toString(),
      delta: (c.end - c.start).toString(),
      transactionHash: c.tx,
      timestamp: block.timestamp,
    });
  }
  return rows.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}
