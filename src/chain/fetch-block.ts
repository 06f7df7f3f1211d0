import { LookoutError } from "../errors/base.js";
import type { NodeCapabilities } from "./capabilities.js";
import type { Rpc } from "./rpc.js";
import type { CallFrame, FetchedBlock, ParityTrace, RpcBlock, RpcReceipt } from "./types.js";

export const toQuantity = (n: number | bigint) => `0x${n.toString(16)}`;

export class BlockNotFoundError extends LookoutError {
  override name = "BlockNotFoundError";
  constructor(readonly number: number) {
    super({ code: "block_not_found", shortMessage: `The node has no block ${number} (yet).` });
  }
}

/** Converts parity-style traces into the callTracer shape (only what creation detection needs). */
function parityToCalls(traces: ParityTrace[], txCount: number): CallFrame[] {
  const perTx: CallFrame[][] = Array.from({ length: txCount }, () => []);
  for (const t of traces) {
    // Top-level creations come from receipts; here only those made inside transactions.
    if (t.transactionPosition == null || t.type !== "create" || t.traceAddress.length === 0) continue;
    perTx[t.transactionPosition]?.push({
      type: t.action.creationMethod === "create2" ? "CREATE2" : "CREATE",
      from: t.action.from!,
      to: t.result?.address,
      input: t.action.init,
      output: t.result?.code,
      value: t.action.value,
      error: t.error,
    });
  }
  // Wrap each transaction's creations under a synthetic root so consumers walk one tree per transaction.
  return perTx.map((calls) => ({ type: "ROOT", from: "0x0000000000000000000000000000000000000000", calls }));
}

/**
 * Fetches one block with its transactions, receipts and (where offered) call traces. All calls are issued in
 * the same tick so viem's transport sends them in one JSON-RPC batch.
 */
export async function fetchBlock(rpc: Rpc, number: number, caps: NodeCapabilities): Promise<FetchedBlock> {
  const q = toQuantity(number);
  const blockP = rpc.request<RpcBlock | null>("eth_getBlockByNumber", [q, true]);
  const receiptsP = caps.blockReceipts ? rpc.request<RpcReceipt[] | null>("eth_getBlockReceipts", [q]) : null;
  const tracesP =
    caps.traces === "debug"
      ? rpc.request<Array<{ result: CallFrame }>>("debug_traceBlockByNumber", [q, { tracer: "callTracer" }])
      : caps.traces === "parity"
        ? rpc.request<ParityTrace[]>("trace_block", [q])
        : null;
  // Keep every promise observed so a failure of one does not surface as an unhandled rejection.
  const [block, receiptsRaw, tracesRaw] = await Promise.all([blockP, receiptsP, tracesP]);
  if (!block) throw new BlockNotFoundError(number);
  let receipts = receiptsRaw;
  if (!receipts) {
    receipts = await Promise.all(
      block.transactions.map((tx) => rpc.request<RpcReceipt>("eth_getTransactionReceipt", [tx.hash])),
    );
  }
  // A receipt set from another version of this block (reorg between the calls) must not be mixed in.
  if (
    receipts.some((r) => r == null || r.blockHash !== block.hash) ||
    receipts.length !== block.transactions.length
  ) {
    throw new LookoutError({
      code: "inconsistent_block",
      shortMessage: `Block ${number} changed while it was fetched (receipts belong to another block).`,
    });
  }
  let calls: CallFrame[] | null = null;
  if (tracesRaw && caps.traces === "debug")
    calls = (tracesRaw as Array<{ result: CallFrame }>).map((t) => t.result);
  else if (tracesRaw && caps.traces === "parity")
    calls = parityToCalls(tracesRaw as ParityTrace[], block.transactions.length);
  if (calls && calls.length !== block.transactions.length) {
    throw new LookoutError({
      code: "inconsistent_block",
      shortMessage: `Block ${number} changed while it was fetched (traces do not match its transactions).`,
    });
  }
  return { block, receipts, calls, extra: {} };
}
