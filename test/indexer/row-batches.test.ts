import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";

/**
 * INDEX_BATCH_TRANSACTIONS: a batch holds about that many rows (transactions + blocks), so quiet blocks go many to a
 * batch and busy ones few, and every block is written once, in order.
 */
describe("batches sized by rows", () => {
  let chain: TestChain;
  let t: TestDb;
  beforeAll(async () => {
    chain = await startTestChain();
    t = await createTestDb();
  });
  afterAll(async () => {
    await t?.drop();
    await chain?.stop();
  });

  it("puts many quiet blocks and few busy ones in a batch", async () => {
    const url = chain.anvil.url;
    const k = await deployActivityContracts(url);
    await rpc(url, "anvil_mine", ["0x28"]); // 40 empty blocks
    const quietEnd = Number(await rpc<string>(url, "eth_blockNumber"));
    await mineActivity(url, k, { blocks: 12, txPerBlock: 6, seed: 3 });
    const head = Number(await rpc<string>(url, "eth_blockNumber"));

    const batches: number[] = [];
    const indexer = await createTestIndexer(t.db, url, {
      batchSize: 40,
      batchTransactions: 14,
      // One range in flight: each range's size follows every range before it.
      fetchConcurrency: 1,
      onBatch: (blocks) => batches.push(blocks),
    });
    await indexToHead(indexer, t.db, url);

    // Every block once: the batches cover 0..head without gap or overlap (the blocks table has one row each).
    expect(batches.reduce((s, n) => s + n, 0)).toBe(head + 1);
    const [stored] = await t.db.query<{ n: number }>("select count(*)::int as n from blocks");
    expect(stored!.n).toBe(head + 1);
    // The first range is a probe of a few blocks; then about 14 quiet blocks (one row each) to a batch ...
    expect(batches[0]).toBeLessThanOrEqual(10);
    const ends = batches.map((_, i) => batches.slice(0, i + 1).reduce((s, n) => s + n, 0) - 1);
    const quiet = batches.filter((_, i) => i > 0 && ends[i]! <= quietEnd);
    expect(quiet.length).toBeGreaterThan(0);
    expect(Math.max(...quiet)).toBeGreaterThanOrEqual(10);
    // ... and about 2 busy ones (6 transactions + the block: 7 rows each), once the rate is seen.
    expect(batches[batches.length - 1]).toBeLessThanOrEqual(3);
    expect(batches[batches.length - 2]).toBeLessThanOrEqual(3);
  });
});
