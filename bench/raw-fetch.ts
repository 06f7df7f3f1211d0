import type { NodeCapabilities } from "../src/chain/capabilities.js";
import type { Rpc } from "../src/chain/rpc.js";
import { fetchForStages, type IndexerExtension } from "../src/indexer/pipeline/extension.js";

/**
 * The benches' raw fetch: blocks 0..head in ranges of `batchSize`, `concurrency` ranges in flight, each block with the
 * calls the stages' `afterFetch` make, as the indexer's catch-up fetches them; nothing written. Resolves when all are in.
 */
export async function rawFetch(o: {
  rpc: Rpc;
  caps: NodeCapabilities;
  extensions: readonly IndexerExtension[];
  head: number;
  batchSize: number;
  concurrency: number;
}): Promise<void> {
  let next = 0;
  const fetchRange = (a: number, b: number) =>
    Promise.all(
      Array.from({ length: b - a + 1 }, (_, i) => fetchForStages(o.rpc, a + i, o.caps, o.extensions)),
    );
  const inflight: Array<Promise<unknown>> = [];
  const launch = () => {
    while (inflight.length < o.concurrency && next <= o.head) {
      const a = next;
      const b = Math.min(o.head, a + o.batchSize - 1);
      inflight.push(fetchRange(a, b));
      next = b + 1;
    }
  };
  launch();
  while (inflight.length) {
    await inflight.shift();
    launch();
  }
}
