import type { RpcReceipt, RpcTransaction } from "../../../chain/types.js";

/**
 * The members of a transaction object Lookout reads or deliberately drops, over every type it knows (legacy, 2930,
 * 1559, 4844, 7702, OP deposits). `blobs`, `commitments` and `proofs` are a blob transaction's sidecar, which some nodes (anvil)
 * send along: the blob contents come from a beacon node instead, so they are dropped, not kept as unknown.
 */
export const KNOWN_TRANSACTION_MEMBERS: ReadonlySet<string> = new Set([
  "hash",
  "blockHash",
  "blockNumber",
  "blockTimestamp",
  "transactionIndex",
  "from",
  "to",
  "value",
  "nonce",
  "gas",
  "gasPrice",
  "maxFeePerGas",
  "maxPriorityFeePerGas",
  "type",
  "input",
  "chainId",
  "accessList",
  "v",
  "r",
  "s",
  "yParity",
  "maxFeePerBlobGas",
  "blobVersionedHashes",
  "authorizationList",
  "blobs",
  "commitments",
  "proofs",
  // OP-stack deposits (type 0x7e), kept by the op-stack stage.
  "sourceHash",
  "mint",
  "isSystemTx",
]);

/** The members of a receipt Lookout reads (or that repeat the transaction's). */
export const KNOWN_RECEIPT_MEMBERS: ReadonlySet<string> = new Set([
  "transactionHash",
  "transactionIndex",
  "blockHash",
  "blockNumber",
  "blockTimestamp",
  "from",
  "to",
  "type",
  "status",
  "root",
  "gasUsed",
  "cumulativeGasUsed",
  "effectiveGasPrice",
  "contractAddress",
  "logs",
  "logsBloom",
  "blobGasUsed",
  "blobGasPrice",
  // OP stack: deposits' and the L1 fee members, kept by the op-stack stage.
  "depositNonce",
  "depositReceiptVersion",
  "l1Fee",
  "l1FeeScalar",
  "l1GasPrice",
  "l1GasUsed",
  "l1BaseFeeScalar",
  "l1BlobBaseFee",
  "l1BlobBaseFeeScalar",
  "operatorFeeScalar",
  "operatorFeeConstant",
  "daFootprintGasScalar",
]);

function unknownOf(o: object, known: ReadonlySet<string>): Record<string, unknown> | null {
  let out: Record<string, unknown> | null = null;
  // for…in, not Object.entries: no pair array per member of every transaction and receipt (JSON objects have no
  // inherited enumerable members).
  for (const k in o) {
    if (known.has(k)) continue;
    out ??= {};
    out[k] = (o as Record<string, unknown>)[k];
  }
  return out;
}

/**
 * What the node sent for a transaction and its receipt that Lookout does not read, as it came:
 * `{transaction?, receipt?}`, or null when there is nothing (the usual case: no cost for known types). Pure.
 */
export function unknownMembers(
  tx: RpcTransaction,
  receipt: RpcReceipt,
): { transaction?: Record<string, unknown>; receipt?: Record<string, unknown> } | null {
  const t = unknownOf(tx, KNOWN_TRANSACTION_MEMBERS);
  const r = unknownOf(receipt, KNOWN_RECEIPT_MEMBERS);
  if (!t && !r) return null;
  return { ...(t ? { transaction: t } : {}), ...(r ? { receipt: r } : {}) };
}
