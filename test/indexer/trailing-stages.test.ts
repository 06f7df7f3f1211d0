import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTrail } from "../../src/chain-store/trail.js";
import type { Db, Queryable } from "../../src/db/db.js";
import { EventBus } from "../../src/events/bus.js";
import type { IndexerExtension } from "../../src/indexer/pipeline/extension.js";
import { indexerStages } from "../../src/indexer/stages/index.js";
import { createLogger } from "../../src/util/logger.js";
import { type ActivityContracts, deployActivityContracts, mineActivity } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb, wrapTransactions } from "../helpers/db.js";
import { EXPLORER_TABLES, recomputedCounters, storedCounters } from "../helpers/explorer-index.js";
import { CORE_TABLES, createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

/**
 * Issue 35: while catching up on PostgreSQL, the trailing stages (counters, stats, hot contracts) write each batch in
 * a transaction of their own after the batch's, beside the next batch's (src/indexer/pipeline/trail.ts). PostgreSQL
 * only: PGlite has one connection, and there every batch writes them itself.
 */

const TABLES = [
  ...CORE_TABLES,
  ...EXPLORER_TABLES,
  "coin_balance_changes",
  "address_coin_balances",
  "hot_contracts",
  "tokens",
  "token_holdings",
  "token_fungible_balances",
];

const productionStages = () =>
  indexerStages({ logger: createLogger("silent"), bus: new EventBus(), notify: false });

/**
 * A trailing stage of the test that writes nothing: its writes inside a batch's transaction (`writes`), and its
 * writes of a stored range (`stored`), each with whether it ran after the range's batches had committed (the
 * checkpoint it reads is already at or past the range's last block) or inside the last one's transaction.
 */
function witness() {
  const writes: Array<{ from: number; to: number; after: boolean }> = [];
  const stored: Array<{ from: number; to: number; after: boolean }> = [];
  const checkpoint = async (tx: Queryable) => {
    const [s] = await tx.query<{ last_block: number | null }>("select last_block from indexer_state");
    return s?.last_block ?? -1;
  };
  const ext: IndexerExtension = {
    id: "test-trailing-witness",
    trailing: {
      async writeStored(tx, from, to) {
        stored.push({ from, to, after: (await checkpoint(tx)) >= to });
      },
    },
    async write(tx, batch) {
      const to = Number(batch[batch.length - 1]!.block.number);
      writes.push({ from: Number(batch[0]!.block.number), to, after: (await checkpoint(tx)) === to });
    },
    async revert() {},
  };
  return { ext, writes, stored };
}

/** `tx` that shows `see` each query's text first (a throw there fails the query). */
const watched = (tx: Queryable, see: (sql: string) => void): Queryable => ({
  async query(sql, params, options) {
    see(sql);
    return tx.query(sql, params, options);
  },
  exec: (sql) => tx.exec(sql),
  ...(tx.copyFrom ? { copyFrom: tx.copyFrom.bind(tx) } : {}),
});

/**
 * `db` whose next `fail.times` trailing transactions fail (the connection they ran on lost, or the process killed
 * before they committed): their first statement, the cursor's compare-and-set, throws.
 */
function losingTrail(db: Db, fail: { times: number }): Db {
  return wrapTransactions(db, (tx) =>
    watched(tx, (sql) => {
      if (fail.times > 0 && /update indexer_trail/.test(sql)) {
        fail.times--;
        throw new Error("simulated loss of the trailing write");
      }
    }),
  );
}

/**
 * `db` whose `fail.at`-th batch transaction (the ones moving the checkpoint) fails at its commit, after a turn of
 * the event loop: the batch's trailing sums were folded ahead of the commit by then (pipeline/trail.ts foldAhead).
 */
function failingCommit(db: Db, fail: { at: number }): Db {
  let batches = 0;
  return {
    kind: db.kind,
    query: db.query.bind(db),
    exec: db.exec.bind(db),
    close: db.close.bind(db),
    transaction: (fn) =>
      db.transaction(async (tx) => {
        let checkpoint = false;
        const result = await fn(
          watched(tx, (sql) => {
            if (/update indexer_state set last_block/.test(sql)) checkpoint = true;
          }),
        );
        if (checkpoint && ++batches === fail.at) {
          await new Promise((resolve) => setImmediate(resolve));
          throw new Error("simulated failure of a batch's commit");
        }
        return result;
      }),
  };
}

async function expectEqualToCleanIndex(db: Db, url: string): Promise<void> {
  const clean = await createTestDb();
  try {
    await indexToHead(await createTestIndexer(clean.db, url, { stages: productionStages() }), clean.db, url);
    const strip = (d: Record<string, string[]>) => ({
      ...d,
      tokens: d.tokens!.map((r) => JSON.stringify({ ...JSON.parse(r), supply_stale: null })).sort(),
    });
    expect(strip(await dumpTables(db, TABLES))).toEqual(strip(await dumpTables(clean.db, TABLES)));
    expect(await storedCounters(db)).toEqual(await recomputedCounters(db));
  } finally {
    await clean.drop();
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "trailing stages beside the next batch (PostgreSQL; skipped without TEST_DATABASE_URL)",
  () => {
    let chain: TestChain;
    let k: ActivityContracts;
    beforeAll(async () => {
      chain = await startTestChain();
      k = await deployActivityContracts(chain.anvil.url);
      await mineActivity(chain.anvil.url, k, { blocks: 24, txPerBlock: 4, seed: 31 });
    }, 300_000);
    afterAll(async () => {
      await chain?.stop();
    });

    it("a catch-up leaves every batch but the last to trailing writes of merged ranges and ends equal to a clean index", {
      timeout: 600_000,
    }, async () => {
      const url = chain.anvil.url;
      const t: TestDb = await createTestDb();
      try {
        const w = witness();
        const indexer = await createTestIndexer(t.db, url, {
          batchSize: 5,
          trailBatches: 2,
          stages: [...productionStages(), w.ext],
        });
        await indexToHead(indexer, t.db, url);
        // Several batches in one step: all but the step's last are written by trailing transactions, two batches
        // at a time (what is owed at the step's end, fewer), after their batches committed; the last one inside
        // its batch's transaction, so the cursor is gone when the head is reached.
        expect(w.stored.length).toBeGreaterThan(1);
        expect(w.stored.every((x) => x.after)).toBe(true);
        expect(w.stored.some((x) => x.to - x.from + 1 === 10)).toBe(true);
        expect(w.stored.every((x) => x.to - x.from + 1 <= 10)).toBe(true);
        expect(w.writes.length).toBe(1);
        expect(w.writes[0]!.after).toBe(false);
        const ranges = [...w.stored, ...w.writes];
        expect(ranges.map((x) => x.from)).toEqual(
          ranges.map((_, i) => (i === 0 ? 0 : ranges[i - 1]!.to + 1)),
        );
        expect(await readTrail(t.db)).toBeNull();
        await expectEqualToCleanIndex(t.db, url);
      } finally {
        await t.drop();
      }
    });

    it("a range whose sums a stage failed to fold is written from the stored rows", {
      timeout: 600_000,
    }, async () => {
      const url = chain.anvil.url;
      const t: TestDb = await createTestDb();
      try {
        const w = witness();
        const carriedWrites: number[] = [];
        const failing: IndexerExtension = {
          ...w.ext,
          id: "test-trailing-failing-fold",
          trailing: {
            ...w.ext.trailing!,
            carry: {
              needs: [],
              fold: () => {
                throw new Error("a fold that fails");
              },
              write: async (_tx, from) => {
                carriedWrites.push(from);
              },
            },
          },
        };
        const indexer = await createTestIndexer(t.db, url, {
          batchSize: 5,
          trailBatches: 2,
          stages: [...productionStages(), failing],
        });
        await indexToHead(indexer, t.db, url);
        expect(carriedWrites).toEqual([]);
        expect(w.stored.length).toBeGreaterThan(1);
        await expectEqualToCleanIndex(t.db, url);
      } finally {
        await t.drop();
      }
    });

    it("a batch whose commit fails after its sums were folded ahead leaves them out: retried, it is counted once", {
      timeout: 600_000,
    }, async () => {
      const url = chain.anvil.url;
      const t: TestDb = await createTestDb();
      try {
        // Merged ranges of two batches (trailBatches 2): the fourth batch's sums are folded into those the third
        // left owed; the third's (of the second step) start a range of their own. Both folded before the commit
        // failed, so the sums owed must not count them, and the retried batch once.
        for (const at of [4, 3]) {
          const indexer = await createTestIndexer(failingCommit(t.db, { at }), url, {
            batchSize: 5,
            trailBatches: 2,
            stages: productionStages(),
          });
          await expect(indexer.step()).rejects.toThrow(/simulated failure/);
          await indexToHead(indexer, t.db, url);
          await expectEqualToCleanIndex(t.db, url);
          await mineActivity(url, k, { blocks: 20, txPerBlock: 3, seed: 40 + at });
        }
      } finally {
        await t.drop();
      }
    });

    it("a trailing write that is lost is written from the stored rows, by the same process or after a restart", {
      timeout: 600_000,
    }, async () => {
      const url = chain.anvil.url;
      const t: TestDb = await createTestDb();
      try {
        // Every trailing transaction fails: the first batch's is lost, and so is the write of what it owed
        // before the next batch, so the step fails with the trailing stages behind the checkpoint.
        const a = await createTestIndexer(losingTrail(t.db, { times: Number.POSITIVE_INFINITY }), url, {
          batchSize: 5,
          trailBatches: 1,
          stages: productionStages(),
        });
        await expect(a.step()).rejects.toThrow(/simulated loss/);
        const [s] = await t.db.query<{ last_block: number }>("select last_block from indexer_state");
        // Batches after the first may have left their trailing writes too before the loss was known (usually one).
        expect(s!.last_block).toBeGreaterThanOrEqual(4);
        expect(await readTrail(t.db)).toBe(-1);

        // A restarted process writes what is owed from the stored rows before anything else.
        const w = witness();
        const b = await createTestIndexer(t.db, url, {
          batchSize: 5,
          stages: [...productionStages(), w.ext],
        });
        expect(w.stored).toEqual([{ from: 0, to: s!.last_block, after: true }]);
        expect(await readTrail(t.db)).toBe(s!.last_block);
        await indexToHead(b, t.db, url);
        expect(await readTrail(t.db)).toBeNull();
        await expectEqualToCleanIndex(t.db, url);

        // The same process: one trailing write lost, what it owed written before the next batch, then trailing on.
        await mineActivity(url, k, { blocks: 30, txPerBlock: 3, seed: 32 });
        const [before] = await t.db.query<{ last_block: number }>("select last_block from indexer_state");
        const w2 = witness();
        const c = await createTestIndexer(losingTrail(t.db, { times: 1 }), url, {
          batchSize: 5,
          trailBatches: 1,
          stages: [...productionStages(), w2.ext],
        });
        await indexToHead(c, t.db, url);
        // The lost write never reached the witness; the next batch wrote what it owed from the stored rows and
        // its own rows inline, then the batches after it trailed again; the step's last one wrote inline.
        const ranges = [...w2.stored, ...w2.writes].sort((x, y) => x.from - y.from);
        expect(ranges[0]!.from).toBe(before!.last_block + 1);
        expect(ranges.map((x) => x.from)).toEqual(
          ranges.map((_, i) => (i === 0 ? ranges[0]!.from : ranges[i - 1]!.to + 1)),
        );
        expect(w2.writes.length).toBeGreaterThanOrEqual(2);
        expect(w2.stored.length).toBeGreaterThanOrEqual(2);
        expect(w2.stored.every((x) => x.after)).toBe(true);
        expect(await readTrail(t.db)).toBeNull();
        await expectEqualToCleanIndex(t.db, url);
      } finally {
        await t.drop();
      }
    });
  },
);
