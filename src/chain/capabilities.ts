import { HttpRequestError, TimeoutError } from "viem";
import { type ChainType, type ChainTypeSetting, resolveChainType } from "./chain-type.js";
import { type PrestateDiffMode, prestateDiffTracer } from "./prestate-diff.js";
import { type Rpc, withRetry } from "./rpc.js";

export type TraceMode = "debug" | "parity" | "none";

export type NodeCapabilities = {
  /** `eth_getBlockReceipts` answers; otherwise one `eth_getTransactionReceipt` per transaction. */
  blockReceipts: boolean;
  /** How internal contract creations are found. */
  traces: TraceMode;
  /**
   * `debug_traceBlockByNumber` with `prestateTracer` in diff mode answers (exact balance changes), and how it is
   * asked (chain/prestate-diff.ts); false when it does not.
   */
  prestateDiff: PrestateDiffMode | false;
  /** The chain family (CHAIN_TYPE, or what `auto` found): `optimism` adds deposits, L1 fees and fee vaults. */
  chainType: ChainType;
};

/** Whether the node offers a method. Transport failures are retried, not taken for "not offered". */
async function answers(rpc: Rpc, method: string, params: unknown[]): Promise<boolean> {
  return withRetry(
    async () => {
      try {
        await rpc.request(method, params);
        return true;
      } catch (e) {
        if (e instanceof HttpRequestError || e instanceof TimeoutError) throw e;
        return false;
      }
    },
    { attempts: 5 },
  );
}

/** Probes once at start-up which optional JSON-RPC methods the node offers. */
export async function detectCapabilities(
  rpc: Rpc,
  opts: { traces: "auto" | "off"; chainType?: ChainTypeSetting },
): Promise<NodeCapabilities> {
  const probe = "0x0";
  const blockReceipts = await answers(rpc, "eth_getBlockReceipts", [probe]);
  let traces: TraceMode = "none";
  let prestateDiff: PrestateDiffMode | false = false;
  if (opts.traces === "auto") {
    if (await answers(rpc, "debug_traceBlockByNumber", [probe, { tracer: "callTracer" }])) traces = "debug";
    else if (await answers(rpc, "trace_block", [probe])) traces = "parity";
    for (const mode of ["lean", "full"] as const) {
      if (await answers(rpc, "debug_traceBlockByNumber", [probe, prestateDiffTracer(mode)])) {
        prestateDiff = mode;
        break;
      }
    }
  }
  const chainType = await resolveChainType(rpc, opts.chainType ?? "auto");
  return { blockReceipts, traces, prestateDiff, chainType };
}
