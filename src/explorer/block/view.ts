import { type Address, type Hex, numberToHex } from "viem";
import { fromBytea, fromByteaOrNull } from "../../db/bytes.js";
import type { AddressObject } from "../objects/address-view.js";
import { usecTimestamp } from "../timestamp.js";
import type { BlockReward, BlockRow } from "./query.js";

/** Blockscout's Block object (BlockView prepare_block), default chain type. */
export type BlockObject = {
  height: number;
  timestamp: string;
  transactions_count: number;
  internal_transactions_count: number | null;
  miner: AddressObject;
  size: number;
  hash: Hex;
  parent_hash: Hex;
  difficulty: string;
  total_difficulty: string | null;
  gas_used: string;
  gas_limit: string;
  nonce: Hex;
  base_fee_per_gas: string | null;
  burnt_fees: string;
  priority_fee: string;
  extra_data: Hex | null;
  state_root: Hex | null;
  uncles_hashes: Hex[];
  rewards: Array<{ reward: string; type: string }>;
  gas_target_percentage: number;
  gas_used_percentage: number;
  burnt_fees_percentage: number | null;
  type: "block";
  transaction_fees: string;
  withdrawals_count: number | null;
  is_pending_update: boolean;
  blob_gas_used?: string;
  excess_blob_gas?: string;
  /** The frontend's name for the block's number of blob transactions; Blockscout sends `blob_transactions_count`. */
  blob_transaction_count?: number;
  blob_transactions_count?: number;
  blob_gas_price?: string;
  burnt_blob_fees?: string;
};

/** EIP-1559's elasticity multiplier (Blockscout's default EIP_1559_ELASTICITY_MULTIPLIER). */
const ELASTICITY = 2;

/** A ratio of decimal strings as a float percentage, exact enough for display (Decimal.to_float upstream). */
function percent(num: bigint, den: bigint): number {
  return Number((num * 10n ** 18n) / den) / 1e16;
}

/**
 * Blockscout's reward labels: BlockView.block_reward_text on a block's own page, the reward's address type in
 * lists.
 */
const REWARD_TEXT: Record<string, [string, string]> = {
  block: ["Miner Reward", "validator"],
  uncle: ["Uncle Reward", "uncle"],
  emission: ["Emission Reward", "emission_funds"],
};

/** One block as Blockscout renders it. Pure. */
export function blockView(
  b: BlockRow,
  miner: AddressObject,
  rewards: readonly BlockReward[] = [],
  single: { internalTransactionsCount: number | null } | null = null,
): BlockObject {
  const gasUsed = BigInt(b.gas_used);
  const gasLimit = BigInt(b.gas_limit);
  const base = b.base_fee_per_gas === null ? null : BigInt(b.base_fee_per_gas);
  const burnt = BigInt(b.burnt_fees ?? (base === null ? 0n : base * gasUsed));
  const txFees = BigInt(b.transaction_fees ?? 0);
  const obj: BlockObject = {
    height: b.number,
    timestamp: usecTimestamp(b.timestamp),
    transactions_count: b.transaction_count,
    internal_transactions_count: single?.internalTransactionsCount ?? null,
    miner,
    size: b.size ?? 0,
    hash: fromBytea(b.hash),
    parent_hash: fromBytea(b.parent_hash),
    difficulty: b.difficulty ?? "0",
    total_difficulty: b.total_difficulty,
    gas_used: b.gas_used,
    gas_limit: b.gas_limit,
    nonce: b.nonce ? fromBytea(b.nonce) : numberToHex(0, { size: 8 }),
    base_fee_per_gas: b.base_fee_per_gas,
    burnt_fees: burnt.toString(),
    priority_fee: b.priority_fees ?? "0",
    extra_data: fromByteaOrNull(b.extra_data),
    state_root: fromByteaOrNull(b.state_root),
    uncles_hashes: (b.uncles ?? []).map(fromBytea),
    rewards: rewards.map((r) => ({
      reward: r.reward,
      type: REWARD_TEXT[r.type]?.[single ? 0 : 1] ?? r.type,
    })),
    gas_target_percentage: gasLimit > 0n ? percent(gasUsed * BigInt(ELASTICITY) - gasLimit, gasLimit) : 0,
    gas_used_percentage: gasLimit > 0n ? percent(gasUsed, gasLimit) : 0,
    burnt_fees_percentage: txFees === 0n ? null : percent(burnt, txFees),
    type: "block",
    transaction_fees: txFees.toString(),
    withdrawals_count: b.withdrawals_count,
    is_pending_update: false,
  };
  if (b.blob_gas_used !== null) obj.blob_gas_used = b.blob_gas_used;
  if (b.excess_blob_gas !== null) obj.excess_blob_gas = b.excess_blob_gas;
  // Blob members from EIP-4844 on (a block with blob gas fields), as Blockscout's Ethereum chain type sends them:
  // the count on every block, the price and burnt blob fees on a block's own page.
  if (b.blob_gas_used !== null && b.blob_transaction_count !== null) {
    obj.blob_transaction_count = b.blob_transaction_count;
    obj.blob_transactions_count = b.blob_transaction_count;
    if (single) {
      if (b.blob_gas_price !== null) obj.blob_gas_price = b.blob_gas_price;
      obj.burnt_blob_fees = (BigInt(b.blob_gas_used) * BigInt(b.blob_gas_price ?? 0)).toString();
    }
  }
  return obj;
}

export const minerOf = (b: BlockRow) => fromBytea(b.miner) as Address;
