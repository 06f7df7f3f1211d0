import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dailyTransactions } from "../../src/explorer/chart/query.js";
import { feesOfDay } from "../../src/rpc-api/stats/query.js";
import { type ActivityContracts, deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions, recomputedCounters, storedCounters } from "../helpers/explorer-index.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

const DAY_S = 86_400;
const dayOf = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);

/**
 * The per-day counters behind /stats/charts/transactions and stats&action=totalfees: kept per batch, taken back by
 * a reorganisation (a day whose every block went is gone, as in a clean index).
 */
describe("daily counters", () => {
  let chain: TestChain;
  let t: TestDb;
  let k: ActivityContracts;
  beforeAll(async () => {
    chain = await startTestChain();
    t = await createTestDb();
    k = await deployActivityContracts(chain.anvil.url);
  });
  afterAll(async () => {
    await t?.drop();
    await chain?.stop();
  });

  it("counts blocks, transactions and fees per UTC day and forgets a day a reorg took back", async () => {
    const url = chain.anvil.url;
    await mineActivity(url, k, { blocks: 6, txPerBlock: 3, seed: 5 });
    const head = await rpc<{ timestamp: string }>(url, "eth_getBlockByNumber", ["latest", false]);
    const today = Number(head.timestamp);
    // The next blocks on the next UTC day, and a snapshot to take them back.
    const snap = await rpc<string>(url, "evm_snapshot");
    const tomorrow = (Math.floor(today / DAY_S) + 1) * DAY_S + 60;
    await rpc(url, "evm_setNextBlockTimestamp", [tomorrow]);
    await mineActivity(url, k, { blocks: 4, txPerBlock: 3, seed: 6 });

    const indexer = await createTestIndexer(t.db, url, { batchSize: 3, extensions: explorerExtensions() });
    await indexToHead(indexer, t.db, url);
    const kept = await storedCounters(t.db);
    expect(kept.chain).toEqual((await recomputedCounters(t.db)).chain);
    const days = await dailyTransactions(
      t.db,
      new Date(today * 1000 - DAY_S * 1000),
      new Date((tomorrow + DAY_S) * 1000),
    );
    expect(days.map((d) => d.day).sort()).toEqual([dayOf(today), dayOf(tomorrow)]);
    expect(days.every((d) => d.transactions > 0)).toBe(true);
    const [fees] = await t.db.query<{ fees: string }>(
      "select sum(transaction_fees)::text as fees from blocks where timestamp >= to_timestamp($1)",
      [tomorrow - 60],
    );
    expect(await feesOfDay(t.db, new Date(dayOf(tomorrow)))).toBe(fees!.fees);

    // A reorganisation takes the next day's blocks back; the new branch stays on the first day.
    await rpc(url, "evm_revert", [snap]);
    await mineActivity(url, k, { blocks: 2, txPerBlock: 2, seed: 7 });
    await indexToHead(indexer, t.db, url);
    expect(await feesOfDay(t.db, new Date(dayOf(tomorrow)))).toBeNull();
    expect((await storedCounters(t.db)).chain).toEqual((await recomputedCounters(t.db)).chain);

    const clean = await createTestDb();
    try {
      await indexToHead(
        await createTestIndexer(clean.db, url, { extensions: explorerExtensions() }),
        clean.db,
        url,
      );
      const tables = ["daily_counters", "chain_counters"];
      expect(await dumpTables(t.db, tables)).toEqual(await dumpTables(clean.db, tables));
    } finally {
      await clean.drop();
    }
  });
});
