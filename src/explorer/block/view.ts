import { type Address, type Hex, numberToHex } from "viem";
import { fromBytea, fromByteaOrNull } from "../../db/bytes.js";
import type { AddressObject } from "../address/view.js";
import type { BlockFees, BlockRow } from "./query.js";

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
  blob_transaction_count?: number;
};

/** EIP-1559's elasticity multiplier (Blockscout's default EIP_1559_ELASTICITY_MULTIPLIER). */
const ELASTICITY = 2;

/** A ratio of decimal strings as a float percentage, exact enough for display (Decimal.to_float upstream). */
function percent(num: bigint, den: bigint): number {
  return Number((num * 10n ** 18n) / den) / 1e16;
}

const NO_FEES: BlockFees = { transaction_fees: "0", priority_fees: "0", blob_transactions: 0 };

/** One block as Blockscout renders it. Pure. */
export function blockView(
  b: BlockRow,
  miner: AddressObject,
  fees: BlockFees = NO_FEES,
  internalTransactionsCount: number | null = null,
): BlockObject {
  const gasUsed = BigInt(b.gas_used);
  const gasLimit = BigInt(b.gas_limit);
  const base = b.base_fee_per_gas === null ? null : BigInt(b.base_fee_per_gas);
  const burnt = base === null ? 0n : base * gasUsed;
  const txFees = BigInt(fees.transaction_fees);
  const obj: BlockObject = {
    height: b.number,
    timestamp: b.timestamp.toISOString(),
    transactions_count: b.transaction_count,
    internal_transactions_count: internalTransactionsCount,
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
    priority_fee: fees.priority_fees,
    extra_data: fromByteaOrNull(b.extra_data),
    state_root: fromByteaOrNull(b.state_root),
    uncles_hashes: (b.uncles ?? []).map(fromBytea),
    // Rewards come from the node's reward traces (trace_block); the chains Lookout indexes give none.
    rewards: [],
    gas_target_percentage: gasLimit > 0n ? percent(gasUsed * BigInt(ELASTICITY) - gasLimit, gasLimit) : 0,
    gas_used_percentage: gasLimit > 0n ? percent(gasUsed, gasLimit) : 0,
    burnt_fees_percentage: txFees === 0n ? null : percent(burnt, txFees),
    type: "block",
    transaction_fees: fees.transaction_fees,
    withdrawals_count: b.withdrawals_count,
    is_pending_update: false,
  };
  if (b.blob_gas_used !== null) obj.blob_gas_used = b.blob_gas_used;
  if (b.excess_blob_gas !== null) obj.excess_blob_gas = b.excess_blob_gas;
  if (fees.blob_transactions) obj.blob_transaction_count = fees.blob_transactions;
  return obj;
}

export const minerOf = (b: BlockRow) => fromBytea(b.miner) as Address;
