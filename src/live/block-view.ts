import type { Hex } from "viem";
import { fromBytea } from "../db/bytes.js";
import type { AddressObject } from "../explorer/address/view.js";

/** The columns of `blocks` the socket's Block needs, with fee sums over the block's transactions. */
export type LiveBlockRow = {
  number: number;
  hash: Uint8Array;
  parent_hash: Uint8Array;
  timestamp: Date;
  miner: Uint8Array;
  gas_used: string;
  gas_limit: string;
  base_fee_per_gas: string | null;
  size: number | null;
  transaction_count: number;
  /** Sum of gas_used × effective gas price over the block's transactions. */
  transaction_fees: string;
  /** Sum of gas_used × (effective gas price − base fee): what the miner got beyond the burn. */
  priority_fee: string;
};

/** Selects LiveBlockRow for blocks `from..to` (one join per block on the transactions' (block_number, index) key). */
export const LIVE_BLOCKS_SQL = `select b.number, b.hash, b.parent_hash, b.timestamp, b.miner, b.gas_used, b.gas_limit,
    b.base_fee_per_gas, b.size, b.transaction_count,
    coalesce(f.fees, 0)::text as transaction_fees, coalesce(f.priority, 0)::text as priority_fee
  from blocks b
  left join lateral (
    select sum(t.gas_used * coalesce(t.effective_gas_price, t.gas_price, 0)) as fees,
           sum(t.gas_used * (coalesce(t.effective_gas_price, t.gas_price, 0) - coalesce(b.base_fee_per_gas, 0))) as priority
    from transactions t where t.block_number = b.number
  ) f on true
  where b.number between $1 and $2
  order by b.number`;

const pct = (num: bigint, den: bigint): number | null =>
  den === 0n ? null : Number((num * 1_000_000n) / den) / 10_000;

/**
 * Blockscout's `Block` (frontend type `Block`) for a socket `new_block`, from the stored columns. Fields we do not
 * store (difficulty, nonce, extra data, state root, uncles) are Blockscout's values for a post-merge block. Pure.
 */
export function liveBlockView(r: LiveBlockRow, miner: AddressObject) {
  const gasUsed = BigInt(r.gas_used);
  const gasLimit = BigInt(r.gas_limit);
  const baseFee = r.base_fee_per_gas === null ? null : BigInt(r.base_fee_per_gas);
  const burnt = baseFee === null ? null : gasUsed * baseFee;
  const fees = BigInt(r.transaction_fees);
  // EIP-1559: the gas target is half the limit (elasticity multiplier 2), as Blockscout assumes by default.
  const target = gasLimit / 2n;
  return {
    height: r.number,
    timestamp: r.timestamp.toISOString().replace(/\.\d{3}Z$/, ".000000Z"),
    transactions_count: r.transaction_count,
    internal_transactions_count: null,
    miner,
    size: r.size ?? 0,
    hash: fromBytea(r.hash) as Hex,
    parent_hash: fromBytea(r.parent_hash) as Hex,
    difficulty: "0",
    total_difficulty: null,
    gas_used: r.gas_used,
    gas_limit: r.gas_limit,
    nonce: "0x0000000000000000",
    base_fee_per_gas: r.base_fee_per_gas,
    burnt_fees: burnt === null ? null : burnt.toString(),
    priority_fee: r.priority_fee,
    extra_data: null,
    state_root: null,
    rewards: [],
    gas_target_percentage: target === 0n ? null : pct(gasUsed - target, target),
    gas_used_percentage: pct(gasUsed, gasLimit),
    burnt_fees_percentage: burnt === null ? null : pct(burnt, fees),
    type: "block" as const,
    transaction_fees: r.transaction_fees,
    uncles_hashes: [] as string[],
    withdrawals_count: 0,
  };
}
