import { createRpc, type Rpc } from "../chain/rpc.js";
import type { ChainConfig } from "../config/chains.js";

export type VerifierChain = { config: ChainConfig; rpc: Rpc };

/**
 * One RPC client per verifier chain (retries, timeouts). Not the indexer's client, and without batching: a
 * verification makes a few calls one after another, each on the request's critical path, and a batch's flush timer
 * would add a millisecond or more to each (measured: eth_getCode on a local node 2.6 ms batched, 1.2 ms not).
 */
export function createChainClients(
  chains: readonly ChainConfig[],
  o: { batchSize: number; timeoutMs: number; retries: number },
): Map<string, VerifierChain> {
  return new Map(
    chains.map((c) => [
      c.id,
      {
        config: c,
        rpc: createRpc({
          url: c.rpcUrl,
          batchSize: o.batchSize,
          timeoutMs: o.timeoutMs,
          retries: o.retries,
          batch: false,
        }),
      },
    ]),
  );
}
