import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventBus } from "../../src/events/bus.js";
import { indexerStages } from "../../src/indexer/stages/index.js";
import { createLogger } from "../../src/util/logger.js";
import { type ActivityContracts, deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain, walletFor } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

/** The runtime's own tables: its cursors move with the batch, no stage owns them. */
const RUNTIME_TABLES = new Set(["indexer_state", "schema_migrations"]);

async function allTables(t: TestDb): Promise<string[]> {
  const rows = await t.db.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  return rows.map((r) => r.name).filter((n) => !RUNTIME_TABLES.has(n));
}

/**
 * Every stage of `indexerStages`, in its order, through "write a batch, revert it": on a real anvil with varied
 * activity (transfers, token transfers, internal calls, creations by transactions and inside them, an EIP-7702
 * delegation), a batch written by the whole list and reverted by each stage's `revert` in reverse order leaves every
 * table as it was before the batch, row for row; indexing the batch again writes the same rows as the first time.
 */
describe("every stage writes a batch and reverts it", () => {
  let chain: TestChain;
  let t: TestDb;
  let k: ActivityContracts;
  beforeAll(async () => {
    chain = await startTestChain({ hardfork: "prague" });
    t = await createTestDb();
    k = await deployActivityContracts(chain.anvil.url);
    await mineActivity(chain.anvil.url, k, { blocks: 12, txPerBlock: 3, seed: 5 });
  });
  afterAll(async () => {
    await t?.drop();
    await chain?.stop();
  });

  it("leaves the tables as before the batch", async () => {
    const url = chain.anvil.url;
    const stages = indexerStages({ logger: createLogger("silent"), bus: new EventBus(), notify: false });
    const indexer = await createTestIndexer(t.db, url, { stages, batchSize: 50 });
    await indexToHead(indexer, t.db, url);
    const ancestor = Number(await rpc<string>(url, "eth_blockNumber"));
    const tables = await allTables(t);
    const before = await dumpTables(t.db, tables);

    // The batch: more mixed activity, then a delegation of a fresh EOA to the token contract (EIP-7702).
    await mineActivity(url, k, { blocks: 10, txPerBlock: 4, seed: 77 });
    const eoa = privateKeyToAccount(generatePrivateKey());
    const sponsor = walletFor(chain, 1);
    const authorization = await sponsor.signAuthorization({
      account: eoa,
      contractAddress: k.forwarder as Address,
    });
    await sponsor.sendTransaction({
      to: eoa.address,
      value: parseEther("1"),
      authorizationList: [authorization],
    });
    await rpc(url, "evm_mine");
    await indexToHead(indexer, t.db, url);
    const written = await dumpTables(t.db, tables);
    const changed = tables.filter((n) => JSON.stringify(written[n]) !== JSON.stringify(before[n]));
    for (const n of [
      "blocks",
      "transactions",
      "logs",
      "token_transfers",
      "internal_transactions",
      "coin_balance_changes",
      "transaction_authorizations",
      "address_counters",
    ])
      expect(changed, `the batch wrote ${n}`).toContain(n);

    // Each stage's revert, last written first undone, as the runtime runs them on a reorganisation.
    await t.db.transaction(async (tx) => {
      for (const stage of [...stages].reverse()) await stage.revert(tx, ancestor);
    });
    const reverted = await dumpTables(t.db, tables);
    for (const n of tables) expect(reverted[n], `${n} after the revert`).toEqual(before[n]);

    // What the batch wrote is what a clean index of the same chain writes (the comparison above is not vacuous).
    const again = await createTestDb();
    try {
      const fresh = await createTestIndexer(again.db, url, {
        stages: indexerStages({ logger: createLogger("silent"), bus: new EventBus(), notify: false }),
      });
      await indexToHead(fresh, again.db, url);
      expect(await dumpTables(again.db, tables)).toEqual(written);
    } finally {
      await again.drop();
    }
  });
});
