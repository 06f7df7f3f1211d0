import { createRpc, type Rpc } from "../chain/rpc.js";

/**
 * The token fetchers' own client of the node. Their `eth_call`s go to arbitrary contracts (a `tokenURI` may answer
 * with megabytes of on-chain SVG, or slowly): on the indexer's batched client such an answer shared a batch, a
 * timeout and a retry budget with an indexing step, and broke it. Here: small batches, two in flight, one retry.
 */
export function createTokenCallsRpc(url: string, o: { timeoutMs: number }): Rpc {
  return createRpc({ url, batchSize: 4, timeoutMs: o.timeoutMs, retries: 1, concurrency: 2 });
}
