import type { Rpc } from "../../chain/rpc.js";
import { newestCreation } from "../../chain-store/creations.js";
import type { Queryable } from "../../db/db.js";
import type { Hex } from "../matching/index.js";

/** Where a contract came from, when known. */
export type CreationFacts = {
  transactionHash: Hex;
  creator: Hex | null;
  blockNumber: number | null;
  /** Known when the node was asked (lets a cached lookup notice a reorg). */
  blockHash?: Hex;
  /** The creation transaction's input, or the CREATE/CREATE2 init code for contracts created by contracts. */
  creationInput: Hex;
};

/** What the creation lookups need of an RPC client. */
export type RpcLike = Pick<Rpc, "request">;

/** The newest creation of `address` in our own index (a re-created CREATE2 address has several). */
export async function indexedCreation(db: Queryable, address: string): Promise<CreationFacts | null> {
  const c = await newestCreation(db, address);
  if (!c) return null;
  return {
    transactionHash: c.transactionHash,
    creator: c.creator,
    blockNumber: c.blockNumber,
    creationInput: c.initCode,
  };
}

type TraceEntry = { type?: string; action?: { init?: string; from?: string }; result?: { address?: string } };
export type CallFrame = {
  type?: string;
  from?: string;
  to?: string;
  input?: string;
  error?: string;
  calls?: CallFrame[];
};

/**
 * Creation facts for a contract on a chain we do not index, from its creation transaction: the transaction input
 * when the transaction itself created it, else the init code from `trace_transaction` or
 * `debug_traceTransaction` (callTracer). Null when the node cannot tell (then runtime-only verification).
 */
export async function creationFromTransaction(
  chain: { rpc: RpcLike },
  address: string,
  txHash: string,
): Promise<CreationFacts | null> {
  const rpc = chain.rpc;
  const want = address.toLowerCase();
  const [tx, receipt] = await Promise.all([
    rpc.request<{ input: Hex; from: Hex; blockNumber: Hex | null; blockHash: Hex | null } | null>(
      "eth_getTransactionByHash",
      [txHash],
    ),
    rpc.request<{ contractAddress: Hex | null } | null>("eth_getTransactionReceipt", [txHash]),
  ]);
  if (!tx || !receipt) return null;
  const base = {
    transactionHash: txHash.toLowerCase() as Hex,
    blockNumber: tx.blockNumber ? Number(tx.blockNumber) : null,
    ...(tx.blockHash ? { blockHash: tx.blockHash.toLowerCase() as Hex } : {}),
  };
  if (receipt.contractAddress?.toLowerCase() === want) {
    return { ...base, creator: tx.from.toLowerCase() as Hex, creationInput: tx.input };
  }
  const traced = await rpc
    .request<TraceEntry[]>("trace_transaction", [txHash])
    .then((entries) => {
      const e = entries.find((t) => t.type === "create" && t.result?.address?.toLowerCase() === want);
      return e?.action?.init ? { init: e.action.init, from: e.action.from ?? null } : null;
    })
    .catch(() => null);
  if (traced) return { ...base, creator: lower(traced.from), creationInput: traced.init as Hex };
  const frame = await rpc
    .request<CallFrame>("debug_traceTransaction", [txHash, { tracer: "callTracer" }])
    .then((root) => findCreateFrame(root, want))
    .catch(() => null);
  if (frame?.input) return { ...base, creator: lower(frame.from ?? null), creationInput: frame.input as Hex };
  return null;
}

const lower = (a: string | null) => (a ? (a.toLowerCase() as Hex) : null);

/** The successful CREATE/CREATE2 frame that made `address` (lower-case), depth first. */
export function findCreateFrame(frame: CallFrame, address: string): CallFrame | null {
  if (
    (frame.type === "CREATE" || frame.type === "CREATE2") &&
    frame.to?.toLowerCase() === address &&
    !frame.error
  )
    return frame;
  for (const c of frame.calls ?? []) {
    const found = findCreateFrame(c, address);
    if (found) return found;
  }
  return null;
}
