import { createRpc, type Rpc } from "../chain/rpc.js";
import type { ChainConfig } from "../config/chains.js";

export type VerifierChain = { config: ChainConfig; rpc: Rpc };

/** One RPC client per verifier chain (batching, retries, timeouts), reusing the indexer's for the indexed chain. */
export function createChainClients(
  chains: readonly ChainConfig[],
  o: { batchSize: number; timeoutMs: number; retries: number; indexedRpc?: Rpc | null },
): Map<string, VerifierChain> {
  return new Map(
    chains.map((c) => [
      c.id,
      {
        config: c,
        rpc:
          c.indexed && o.indexedRpc
            ? o.indexedRpc
            : createRpc({
                url: c.rpcUrl,
                batchSize: o.batchSize,
                timeoutMs: o.timeoutMs,
                retries: o.retries,
              }),
      },
    ]),
  );
}
