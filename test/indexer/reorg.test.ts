import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActivityContracts, deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import {
  addressesMatchCounters,
  EXPLORER_TABLES,
  explorerExtensions,
  recomputedCounters,
  storedCounters,
} from "../helpers/explorer-index.js";
import {
  CORE_TABLES,
  createTestIndexer,
  dumpTables,
  indexToHead,
  nodeBlocks,
  storedBlocks,
} from "../helpers/indexer.js";

async function canonical(url: string) {
  const blocks = await nodeBlocks(url);
  return {
    chain: blocks.map((b) => `${Number(b.number)}:${b.hash}`),
    txs: blocks.flatMap((b) => b.transactions),
  };
}

async function stored(t: TestDb) {
  const { blocks, txs } = await storedBlocks(t.db);
  return { chain: blocks.map((b) => `${b.number}:${b.hash}`), txs };
}

describe("reorganisations", () => {
  let chain: TestChain;
  let t: TestDb;
  let k: ActivityContracts;
  beforeAll(async () => {
    chain = await startTestChain();
    t = await createTestDb();
    k = await deployActivityContracts(chain.anvil.url);
    await mineActivity(chain.anvil.url, k, { blocks: 30, txPerBlock: 3, seed: 3 });
  });
  afterAll(async () => {
    await t?.drop();
    await chain?.stop();
  });

  it("replaces reorganised blocks of several depths and ends equal to a clean index", async () => {
    const url = chain.anvil.url;
    const from = chain.accounts[2]!.address;
    const to = chain.accounts[3]!.address;
    const indexer = await createTestIndexer(t.db, url, { batchSize: 7, extensions: explorerExtensions() });
    await indexToHead(indexer, t.db, url);
    expect(await stored(t)).toEqual(await canonical(url));

    const scenarios: Array<{ name: string; run: () => Promise<unknown> }> = [
      {
        name: "same-height reorg of depth 1",
        run: () => rpc(url, "anvil_reorg", [1, [[{ from, to, value: "0x11" }, 0]]]),
      },
      {
        name: "same-height reorg of depth 5 with transactions in two blocks",
        run: () =>
          rpc(url, "anvil_reorg", [
            5,
            [
              [{ from, to, value: "0x22" }, 0],
              [{ from: to, to: from, value: "0x33" }, 3],
            ],
          ]),
      },
      {
        name: "rollback of 8 blocks, then a longer chain of new activity",
        run: async () => {
          await rpc(url, "anvil_rollback", [8]);
          await mineActivity(url, k, { blocks: 12, txPerBlock: 2, seed: 99 });
        },
      },
      {
        name: "deep reorg of 20 blocks",
        run: () => rpc(url, "anvil_reorg", [20, [[{ from, to, value: "0x44" }, 10]]]),
      },
      {
        name: "rollback to a shorter chain",
        run: () => rpc(url, "anvil_rollback", [4]),
      },
    ];
    for (const s of scenarios) {
      await s.run();
      await indexToHead(indexer, t.db, url);
      expect(await stored(t), s.name).toEqual(await canonical(url));
      // Nothing of an orphaned block survives in any table.
      const orphans = await t.db.query<{ n: number }>(
        `select (select count(*) from transactions x where not exists (select 1 from blocks b where b.number = x.block_number))
              + (select count(*) from logs x where not exists (select 1 from blocks b where b.number = x.block_number))
              + (select count(*) from contract_creations x where not exists (select 1 from blocks b where b.number = x.block_number))
              + (select count(*) from internal_transactions x where not exists (select 1 from blocks b where b.number = x.block_number and b.hash = x.block_hash))
              + (select count(*) from addresses x where not exists (select 1 from blocks b where b.number = x.first_block)) as n`,
      );
      expect(Number(orphans[0]!.n), s.name).toBe(0);
      // Counters kept incrementally through the reorg equal a count from scratch.
      const kept = await storedCounters(t.db);
      const fresh = await recomputedCounters(t.db);
      expect(kept.address, s.name).toEqual(fresh.address);
      expect(kept.chain, s.name).toEqual(fresh.chain);
      expect(await addressesMatchCounters(t.db), s.name).toEqual({ missing: 0, extra: 0 });
    }

    // The reorganised index equals a clean index of the final chain.
    const clean = await createTestDb();
    try {
      await indexToHead(
        await createTestIndexer(clean.db, url, { extensions: explorerExtensions() }),
        clean.db,
        url,
      );
      const tables = [...CORE_TABLES, ...EXPLORER_TABLES];
      expect(await dumpTables(t.db, tables)).toEqual(await dumpTables(clean.db, tables));
      const [frames] = await t.db.query<{ n: string }>(
        "select count(*) as n from internal_transactions where index > 0",
      );
      expect(Number(frames!.n)).toBeGreaterThan(0);
    } finally {
      await clean.drop();
    }
  });

  it("stops with a clear error when a reorg is deeper than REORG_DEPTH", async () => {
    const url = chain.anvil.url;
    const shallow = await createTestDb();
    try {
      const indexer = await createTestIndexer(shallow.db, url, { reorgDepth: 3 });
      await indexToHead(indexer, shallow.db, url);
      await rpc(url, "anvil_reorg", [6, []]);
      await expect(indexer.step()).rejects.toThrow(/deeper than REORG_DEPTH \(3/);
    } finally {
      await shallow.drop();
    }
  });
});
