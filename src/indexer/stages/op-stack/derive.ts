import type { Hash } from "viem";
import { OP_DEPOSIT_TYPE } from "../../../chain/chain-type.js";
import type { FetchedBlock, RpcReceipt } from "../../../chain/types.js";

/** One row of op_transactions: numbers as decimal strings, absent members null. */
export type OpTransactionRow = {
  transactionHash: Hash;
  blockNumber: number;
  isDeposit: boolean;
  sourceHash: Hash | null;
  mint: string | null;
  isSystemTx: boolean | null;
  depositNonce: string | null;
  depositReceiptVersion: number | null;
  l1Fee: string | null;
  l1GasPrice: string | null;
  l1GasUsed: string | null;
  l1FeeScalar: string | null;
  l1BaseFeeScalar: string | null;
  l1BlobBaseFee: string | null;
  l1BlobBaseFeeScalar: string | null;
  operatorFeeScalar: string | null;
  operatorFeeConstant: string | null;
  daFootprintGasScalar: string | null;
};

/** A quantity as a decimal string; anything that is not one is kept out (null) rather than stopping the indexer. */
function quantity(v: unknown): string | null {
  if (typeof v !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) return null;
  return BigInt(v).toString();
}

/** `l1FeeScalar` comes as a decimal string ("0.684"), not a quantity. */
function decimal(v: unknown): string | null {
  return typeof v === "string" && /^\d{1,30}(\.\d{1,30})?$/.test(v) ? v : null;
}

/** op-geth sends `isSystemTx: true` only when set; anvil sends a quantity ("0x1"). */
function systemFlag(v: unknown): boolean {
  if (v === true) return true;
  return typeof v === "string" && /^0x[0-9a-fA-F]+$/.test(v) && BigInt(v) !== 0n;
}

const RECEIPT_MEMBERS = [
  "l1Fee",
  "l1GasPrice",
  "l1GasUsed",
  "l1FeeScalar",
  "l1BaseFeeScalar",
  "l1BlobBaseFee",
  "l1BlobBaseFeeScalar",
  "operatorFeeScalar",
  "operatorFeeConstant",
  "daFootprintGasScalar",
  "depositNonce",
  "depositReceiptVersion",
] as const satisfies ReadonlyArray<keyof RpcReceipt>;

/**
 * Pure: the OP-stack rows of a batch. A transaction gets one when it is a deposit or its receipt has an OP member;
 * on a chain known to be OP (`everyTransaction`) every transaction gets one, so its page shows the L1 fee members as
 * Blockscout does there (0 when the node did not give them). Nothing on other chains: no statement at all.
 */
export function deriveOpRows(batch: readonly FetchedBlock[], everyTransaction: boolean): OpTransactionRow[] {
  const rows: OpTransactionRow[] = [];
  for (const { block, receipts } of batch) {
    block.transactions.forEach((tx, i) => {
      const r = receipts[i]!;
      const isDeposit = tx.type != null && Number(tx.type) === OP_DEPOSIT_TYPE;
      if (!isDeposit && !everyTransaction && !RECEIPT_MEMBERS.some((m) => r[m] != null)) return;
      const version = quantity(r.depositReceiptVersion);
      rows.push({
        transactionHash: tx.hash,
        blockNumber: Number(block.number),
        isDeposit,
        sourceHash: isDeposit && typeof tx.sourceHash === "string" ? tx.sourceHash : null,
        mint: isDeposit ? (quantity(tx.mint) ?? "0") : null,
        isSystemTx: isDeposit ? systemFlag(tx.isSystemTx) : null,
        depositNonce: quantity(r.depositNonce),
        depositReceiptVersion: version === null ? null : Number(version),
        l1Fee: quantity(r.l1Fee),
        l1GasPrice: quantity(r.l1GasPrice),
        l1GasUsed: quantity(r.l1GasUsed),
        l1FeeScalar: decimal(r.l1FeeScalar),
        l1BaseFeeScalar: quantity(r.l1BaseFeeScalar),
        l1BlobBaseFee: quantity(r.l1BlobBaseFee),
        l1BlobBaseFeeScalar: quantity(r.l1BlobBaseFeeScalar),
        operatorFeeScalar: quantity(r.operatorFeeScalar),
        operatorFeeConstant: quantity(r.operatorFeeConstant),
        daFootprintGasScalar: quantity(r.daFootprintGasScalar),
      });
    });
  }
  return rows;
}
