import { LookoutError } from "../errors/base.js";
import type { NodeCapabilities } from "./capabilities.js";
import { OP_DEPOSIT_TYPE } from "./chain-type.js";
import { prestateDiffTracer } from "./prestate-diff.js";
import type { Rpc } from "./rpc.js";
import type {
  BlockReward,
  CallFrame,
  FetchedBlock,
  ParityTrace,
  PrestateDiffTrace,
  RpcBlock,
  RpcReceipt,
  RpcTransaction,
} from "./types.js";

export const toQuantity = (n: number | bigint) => `0x${n.toString(16)}`;

export class BlockNotFoundError extends LookoutError {
  override name = "BlockNotFoundError";
  constructor(readonly number: number) {
    super({ code: "block_not_found", shortMessage: `The node has no block ${number} (yet).` });
  }
}

const PARITY_CALL_TYPES: Record<string, string> = {
  call: "CALL",
  delegatecall: "DELEGATECALL",
  staticcall: "STATICCALL",
  callcode: "CALLCODE",
};

/** One parity-style trace as a callTracer frame (without children). */
function parityFrame(t: ParityTrace): CallFrame {
  const a = t.action;
  const r = t.result ?? undefined;
  const error = t.error ? { error: t.error } : {};
  if (t.type === "create") {
    return {
      type: a.creationMethod === "create2" ? "CREATE2" : "CREATE",
      from: a.from!,
      ...(r?.address ? { to: r.address } : {}),
      ...(a.value ? { value: a.value } : {}),
      ...(a.gas ? { gas: a.gas } : {}),
      ...(r?.gasUsed ? { gasUsed: r.gasUsed } : {}),
      ...(a.init ? { input: a.init } : {}),
      ...(r?.code ? { output: r.code } : {}),
      ...error,
    };
  }
  if (t.type === "suicide") {
    return {
      type: "SELFDESTRUCT",
      from: a.address!,
      ...(a.refundAddress ? { to: a.refundAddress } : {}),
      value: a.balance ?? "0x0",
      ...error,
    };
  }
  return {
    type: PARITY_CALL_TYPES[a.callType ?? "call"] ?? "CALL",
    from: a.from!,
    ...(a.to ? { to: a.to } : {}),
    ...(a.value ? { value: a.value } : {}),
    ...(a.gas ? { gas: a.gas } : {}),
    ...(r?.gasUsed ? { gasUsed: r.gasUsed } : {}),
    ...(a.input ? { input: a.input } : {}),
    ...(r?.output ? { output: r.output } : {}),
    ...error,
  };
}

/**
 * Converts parity-style traces (`trace_block`) into callTracer trees, one per transaction, and the block's reward
 * traces. A trace's parent is the trace whose traceAddress is its own without the last element.
 */
export function parityToCalls(
  traces: readonly ParityTrace[],
  transactions: readonly RpcTransaction[],
): { calls: CallFrame[]; rewards: BlockReward[] } {
  // Not `new Array(n)`: map skips the holes of a sparse array, and a missing root must be seen.
  const roots: Array<CallFrame | undefined> = transactions.map(() => undefined);
  const byPath: Array<Map<string, CallFrame>> = transactions.map(() => new Map());
  const rewards: BlockReward[] = [];
  for (const t of traces) {
    if (t.type === "reward") {
      if (t.action.author && t.action.value)
        rewards.push({
          address: t.action.author,
          type: t.action.rewardType ?? "block",
          value: t.action.value,
        });
      continue;
    }
    const pos = t.transactionPosition;
    if (pos == null || pos >= transactions.length) continue;
    const frame = parityFrame(t);
    const paths = byPath[pos]!;
    paths.set(t.traceAddress.join(","), frame);
    if (t.traceAddress.length === 0) {
      roots[pos] = frame;
      continue;
    }
    const parent = paths.get(t.traceAddress.slice(0, -1).join(","));
    if (!parent) throw new InconsistentTracesError("a trace comes before its parent");
    parent.calls ??= [];
    parent.calls.push(frame);
  }
  const calls = roots.map((root, i) => {
    if (!root) throw new InconsistentTracesError(`transaction ${i} has no top-level trace`);
    return root;
  });
  return { calls, rewards };
}

class InconsistentTracesError extends LookoutError {
  override name = "InconsistentTracesError";
  constructor(why: string) {
    super({
      code: "inconsistent_block",
      shortMessage: `The node's trace_block answer is inconsistent: ${why}.`,
    });
  }
}

/**
 * Fetches one block with its transactions, receipts and (where offered) call traces and prestate diffs. All calls are issued in
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
  const prestateP = caps.prestateDiff
    ? rpc.request<PrestateDiffTrace[]>("debug_traceBlockByNumber", [q, prestateDiffTracer(caps.prestateDiff)])
    : null;
  // Keep every promise observed so a failure of one does not surface as an unhandled rejection.
  const [block, receiptsRaw, tracesRaw, prestate] = await Promise.all([
    blockP,
    receiptsP,
    tracesP,
    prestateP,
  ]);
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
  let rewards: BlockReward[] | null = null;
  if (tracesRaw && caps.traces === "debug")
    calls = (tracesRaw as Array<{ result: CallFrame }>).map((t) => t.result);
  else if (tracesRaw && caps.traces === "parity")
    ({ calls, rewards } = parityToCalls(tracesRaw as ParityTrace[], block.transactions));
  if (calls && calls.length !== block.transactions.length) {
    throw new LookoutError({
      code: "inconsistent_block",
      shortMessage: `Block ${number} changed while it was fetched (traces do not match its transactions).`,
    });
  }
  // Requested by number like the block: both must describe the same version of it. (An OP deposit's hash is left
  // out: anvil's tracer names it otherwise than its full transaction objects do.)
  const sameTransaction = (t: PrestateDiffTrace, tx: RpcTransaction) =>
    !t.txHash || t.txHash === tx.hash || Number(tx.type ?? 0) === OP_DEPOSIT_TYPE;
  if (
    prestate &&
    (prestate.length !== block.transactions.length ||
      prestate.some((t, i) => !sameTransaction(t, block.transactions[i]!)))
  ) {
    throw new LookoutError({
      code: "inconsistent_block",
      shortMessage: `Block ${number} changed while it was fetched (prestate diffs do not match its transactions).`,
    });
  }
  return { block, receipts, calls, rewards, prestate, extra: {} };
}
