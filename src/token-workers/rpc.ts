import { createRpc, type Rpc } from "../chain/rpc.js";

/**
 * Largest answer of one token call. An inline metadata document is read up to 1 MiB (metadata/http-get.ts); as a
 * base64 data: URI inside an ABI string in hex, that is about 2.7 MB of JSON-RPC response.
 */
export const TOKEN_CALL_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/**
 * The token fetchers' own client of the node. Their `eth_call`s go to arbitrary contracts (a `tokenURI` may answer
 * with megabytes of on-chain SVG, or slowly): on the indexer's batched client such an answer shared a batch, a
 * timeout and a retry budget with an indexing step, and broke it. Here: one call per HTTP request (an oversized
 * or slow answer fails only its own call), each answer bounded, a few in flight, one retry.
 */
export function createTokenCallsRpc(url: string, o: { timeoutMs: number }): Rpc {
  return createRpc({
    url,
    batchSize: 1,
    timeoutMs: o.timeoutMs,
    retries: 1,
    concurrency: 6,
    maxResponseBytes: TOKEN_CALL_MAX_RESPONSE_BYTES,
  });
}
