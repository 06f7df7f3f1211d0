import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventBus } from "../../src/events/bus.js";
import { indexerStages } from "../../src/indexer/stages/index.js";
import { createLogger } from "../../src/util/logger.js";
import { type ActivityContracts, deployActivityContracts, mineActivity } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { EXPLORER_TABLES } from "../helpers/explorer-index.js";
import { CORE_TABLES, createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

/**
 * The batch transaction's fence (runtime.ts): its first statement locks the checkpoint, and its answer is awaited
 * only before the checkpoint moves, the batch's writes sent behind it. When another writer moved the checkpoint
 * meanwhile, the batch must still fail as `checkpoint_moved` (not as the unique violation its rows then cause),
 * read the cursors again, and carry on from them.
 */
const stages = () => indexerStages({ logger: createLogger("silent"), bus: new EventBus(), notify: false });
const TABLES = [
  ...CORE_TABLES,
  ...EXPLORER_TABLES,
  "coin_balance_changes",
  "address_coin_balances",
  "token_transfers",
];

describe("the checkpoint fence of a batch", () => {
  let chain: TestChain;
  let k: ActivityContracts;
  beforeAll(async () => {
    chain = await startTestChain();
    k = await deployActivityContracts(chain.anvil.url);
    await mineActivity(chain.anvil.url, k, { blocks: 8, txPerBlock: 3, seed: 51 });
  }, 300_000);
  afterAll(async () => {
    await chain?.stop();
  });

  it("a batch written on a checkpoint another indexer moved fails as moved, and the indexer goes on from it", {
    timeout: 600_000,
  }, async () => {
    const url = chain.anvil.url;
    const t: TestDb = await createTestDb();
    const clean: TestDb = await createTestDb();
    try {
      const a = await createTestIndexer(t.db, url, { batchSize: 5, stages: stages() });
      await indexToHead(a, t.db, url);
      await mineActivity(url, k, { blocks: 8, txPerBlock: 3, seed: 52 });
      // Another indexer (a lease taken over) writes the new blocks first.
      const b = await createTestIndexer(t.db, url, { batchSize: 5, stages: stages() });
      await indexToHead(b, t.db, url);
      await expect(a.step()).rejects.toMatchObject({ code: "checkpoint_moved" });
      await mineActivity(url, k, { blocks: 6, txPerBlock: 3, seed: 53 });
      await indexToHead(a, t.db, url);

      await indexToHead(await createTestIndexer(clean.db, url, { stages: stages() }), clean.db, url);
      expect(await dumpTables(t.db, TABLES)).toEqual(await dumpTables(clean.db, TABLES));
    } finally {
      await t.drop();
      await clean.drop();
    }
  });
});
