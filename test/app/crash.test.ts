import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDb } from "../../src/db/pg.js";
import { createPgliteDb } from "../../src/db/pglite.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { type ActivityContracts, deployActivityContracts, mineActivity } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { killAllCli, runCli } from "../helpers/cli.js";
import { createTestDatabaseUrl, createTestDb } from "../helpers/db.js";
import {
  EXPLORER_TABLES,
  explorerExtensions,
  recomputedCounters,
  storedCounters,
} from "../helpers/explorer-index.js";
import { CORE_TABLES, createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

describe("crash safety", () => {
  let chain: TestChain;
  let k: ActivityContracts;
  beforeAll(async () => {
    chain = await startTestChain();
    k = await deployActivityContracts(chain.anvil.url);
    // 120 batches of 5 blocks: each run below is killed right after its n-th commit, far from the head.
    await mineActivity(chain.anvil.url, k, { blocks: 600, txPerBlock: 3, seed: 11 });
  }, 300_000);
  afterAll(async () => {
    await killAllCli();
    await chain?.stop();
  });

  it("SIGKILLed several times during catch-up, the restarted indexer ends with exactly the rows of a clean run", {
    timeout: 900_000,
  }, async () => {
    const url = chain.anvil.url;
    const reference = await createTestDb();
    const dir = mkdtempSync(join(tmpdir(), "lookout-crash-"));
    const pg = await createTestDatabaseUrl();
    const env = {
      RPC_URL: url,
      INDEX_BATCH_SIZE: "5",
      INDEX_CONCURRENCY: "2",
      // "Committed blocks" per batch: the kills below wait for a number of commits, not for a time.
      LOG_LEVEL: "debug",
      ...(pg ? { DATABASE_URL: pg.url } : { DATA_DIR: dir }),
    };
    try {
      await indexToHead(
        // The CLI's parts: coin balances too (their genesis accounts are among the `addresses`).
        await createTestIndexer(reference.db, url, {
          extensions: [coinBalanceExtension(), currentBalancesExtension(), ...explorerExtensions()],
        }),
        reference.db,
        url,
      );
      // Core rows, internal transactions, counters (kept incrementally across the kills), addresses.
      const tables = [...CORE_TABLES, ...EXPLORER_TABLES];
      const expected = await dumpTables(reference.db, tables);

      // Commits per run before the kill (5 runs, 41 of the 120 batches in all).
      const commits = [8, 3, 12, 1, 17];
      for (const n of commits) {
        const p = runCli(["index"], env);
        await p.waitForCount(/Committed blocks/, n, 240_000);
        p.child.kill("SIGKILL");
        const { signal } = await p.exited;
        // It must have been killed mid-way, not have finished on its own.
        expect(signal).toBe("SIGKILL");
        expect(p.output()).not.toMatch(/Caught up with the chain head/);
      }
      const last = runCli(["index"], env);
      await last.waitFor(/Caught up with the chain head/, 420_000);
      last.child.kill("SIGTERM");
      expect((await last.exited).code).toBe(0);

      const db = pg ? await createPostgresDb(pg.url) : await createPgliteDb(join(dir, "pglite"));
      try {
        expect(await dumpTables(db, tables)).toEqual(expected);
        const kept = await storedCounters(db);
        const fresh = await recomputedCounters(db);
        expect(kept.address).toEqual(fresh.address);
        expect(kept.chain).toEqual(fresh.chain);
      } finally {
        await db.close();
      }
    } finally {
      await killAllCli();
      await reference.drop();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
