import type { Address, Hash, Hex } from "viem";
import type { CallFrame, FetchedBlock } from "../../../chain/types.js";

/** One call frame as stored in `internal_transactions`. */
export type InternalTransactionRow = {
  blockNumber: number;
  transactionIndex: number;
  index: number;
  transactionHash: Hash;
  type: "call" | "create" | "create2" | "selfdestruct";
  callType: string | null;
  from: Address;
  to: Address | null;
  createdContract: Address | null;
  value: string;
  gas: string | null;
  gasUsed: string | null;
  input: Hex | null;
  output: Hex | null;
  error: string | null;
  traceAddress: number[];
  blockHash: Hash;
};

const dec = (h: Hex | undefined): string | null => (h == null ? null : BigInt(h).toString());
const CALL_TYPES = new Set(["call", "delegatecall", "staticcall", "callcode"]);

function frameKind(type: string): Pick<InternalTransactionRow, "type" | "callType"> {
  const t = type.toLowerCase();
  if (t === "create" || t === "create2") return { type: t, callType: null };
  if (t === "selfdestruct" || t === "suicide") return { type: "selfdestruct", callType: null };
  return { type: "call", callType: CALL_TYPES.has(t) ? t : "call" };
}

/**
 * Every frame of one transaction's call tree, depth first (the order Blockscout numbers them), the top-level
 * frame first with index 0 and trace address []. Pure.
 */
export function flattenCallTree(
  root: CallFrame,
  at: { blockNumber: number; blockHash: Hash; transactionIndex: number; transactionHash: Hash },
): InternalTransactionRow[] {
  const out: InternalTransactionRow[] = [];
  // Fields written out (no spreads) and a plain loop: this runs for every frame of a busy chain.
  const visit = (f: CallFrame, path: number[]) => {
    const kind = frameKind(f.type);
    const creates = kind.type === "create" || kind.type === "create2";
    out.push({
      blockNumber: at.blockNumber,
      blockHash: at.blockHash,
      transactionIndex: at.transactionIndex,
      transactionHash: at.transactionHash,
      index: out.length,
      type: kind.type,
      callType: kind.callType,
      from: f.from,
      to: creates ? null : (f.to ?? null),
      // A failed creation created nothing (callTracer may still name the would-be address).
      createdContract: creates && !f.error ? (f.to ?? null) : null,
      value: dec(f.value) ?? "0",
      gas: dec(f.gas),
      gasUsed: dec(f.gasUsed),
      input: f.input ?? null,
      output: f.output ?? null,
      error: f.error ?? null,
      traceAddress: path,
    });
    const calls = f.calls;
    if (calls) for (let i = 0; i < calls.length; i++) visit(calls[i]!, [...path, i]);
  };
  visit(root, []);
  return out;
}

/** The internal-transaction rows of a batch; blocks the node gave no traces for have none. */
export function deriveInternalTransactions(batch: readonly FetchedBlock[]): InternalTransactionRow[] {
  return batch.flatMap(({ block, calls }) => {
    if (!calls) return [];
    const blockNumber = Number(block.number);
    return calls.flatMap((root, i) =>
      flattenCallTree(root, {
        blockNumber,
        blockHash: block.hash,
        transactionIndex: i,
        transactionHash: block.transactions[i]!.hash,
      }),
    );
  });
}
