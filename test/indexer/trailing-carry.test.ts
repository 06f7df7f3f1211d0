import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectCapabilities } from "../../src/chain/capabilities.js";
import { createRpc } from "../../src/chain/rpc.js";
import { fromBytea } from "../../src/db/bytes.js";
import type { Queryable } from "../../src/db/db.js";
import { EventBus } from "../../src/events/bus.js";
import { fetchForStages } from "../../src/indexer/pipeline/extension.js";
import { foldCounters } from "../../src/indexer/stages/counters/carry.js";
import { SUMMED_ADDRESS_FACTS } from "../../src/indexer/stages/counters/sql.js";
import { indexerStages } from "../../src/indexer/stages/index.js";
import { createLogger } from "../../src/util/logger.js";
import { deployActivityContracts, mineActivity } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

/**
 * Issue 35: a trailing write takes its sums from the batches it follows, summed in memory (`trailing.carry`: the
 * counters' address facts in src/indexer/stages/counters/carry.ts, the stats' day sums and senders, the hot
 * contracts' slots, the current balances' latest changes), instead of reading the batches' rows back. Both must
 * give the same rows:
 * on a chain with every kind of row the facts count (transfers of coin and tokens, calls moving coin inside
 * transactions, contracts created by transactions and inside them, a reverted creation, empty blocks), the folded
 * facts of the blocks, in batches of any size, equal those the stored rows give.
 */
describe("trailing stages: sums carried from the batches", () => {
  let chain: TestChain;
  let t: TestDb;
  beforeAll(async () => {
    chain = await startTestChain();
    const k = await deployActivityContracts(chain.anvil.url);
    await mineActivity(chain.anvil.url, k, { blocks: 16, txPerBlock: 5, seed: 41 });
    t = await createTestDb();
  }, 300_000);
  afterAll(async () => {
    await t?.drop();
    await chain?.stop();
  });

  it("the counters' address facts equal the sums read back from the stored rows, block by block and over several batches", {
    timeout: 300_000,
  }, async () => {
    const url = chain.anvil.url;
    await indexToHead(await createTestIndexer(t.db, url, { stages: stages() }), t.db, url);
    const [tip] = await t.db.query<{ last_block: number }>("select last_block from indexer_state");
    const head = tip!.last_block;

    const rpc = createRpc({ url, batchSize: 100, timeoutMs: 60_000, retries: 3 });
    const caps = await detectCapabilities(rpc, { traces: "auto" });
    const own = stages();
    const fetched = await Promise.all(
      Array.from({ length: head + 1 }, (_, n) => fetchForStages(rpc, n, caps, own)),
    );

    const stored = async (
      from: number,
      to: number,
    ): Promise<Record<string, Record<string, string | number>>> =>
      Object.fromEntries(
        (
          await t.db.query<Record<string, string | number> & { address: Uint8Array }>(SUMMED_ADDRESS_FACTS, [
            from - 1,
            to,
          ])
        ).map(({ address, ...sums }) => [fromBytea(address), { ...sums, block: Number(sums.block) }]),
      );
    const folded = (from: number, to: number, batchSize: number) => {
      let carried: ReturnType<typeof foldCounters> | undefined;
      for (let a = from; a <= to; a += batchSize)
        carried = foldCounters(carried, fetched.slice(a, Math.min(to, a + batchSize - 1) + 1));
      return Object.fromEntries(
        [...carried!.addresses].map(([address, f]) => [
          address,
          {
            txs: String(f.txs),
            created: String(f.created),
            transfers: String(f.transfers),
            gas: String(f.gas),
            gas_in: String(f.gasIn),
            validations: String(f.validations),
            internals: String(f.internals),
            logs: String(f.logs),
            withdrawals: String(f.withdrawals),
            block: f.block,
          },
        ]),
      );
    };

    const whole = await stored(0, head);
    // The chain has what the facts count: else the comparison proves little.
    const sum = (k: string) => Object.values(whole).reduce((s, f) => s + Number(f[k]), 0);
    for (const k of ["txs", "created", "transfers", "internals", "logs", "validations"])
      expect(sum(k), k).toBeGreaterThan(0);
    for (const size of [1, 3, head + 1]) expect(folded(0, head, size)).toEqual(whole);
    // A range that starts inside the chain: least blocks are the range's own.
    const mid = Math.floor(head / 2);
    expect(folded(mid, head, 2)).toEqual(await stored(mid, head));
  });

  it("every carrying stage writes from its carried sums what it writes from the stored rows", {
    timeout: 300_000,
  }, async () => {
    const url = chain.anvil.url;
    const [tip] = await t.db.query<{ last_block: number }>("select last_block from indexer_state");
    const head = tip!.last_block;
    const rpc = createRpc({ url, batchSize: 100, timeoutMs: 60_000, retries: 3 });
    const caps = await detectCapabilities(rpc, { traces: "auto" });
    const own = stages();
    const carrying = own.filter((x) => x.trailing?.carry);
    expect(carrying.map((x) => x.id).sort()).toEqual([
      "counters",
      "current-balances",
      "hot-contracts",
      "stats",
    ]);
    const from = Math.floor(head / 3);
    const fetched = await Promise.all(
      Array.from({ length: head - from + 1 }, (_, i) => fetchForStages(rpc, from + i, caps, own)),
    );
    // Each way writes the range once more over the indexed chain (so sums count it twice), then rolls back.
    const tablesAfter = async (write: (tx: Queryable) => Promise<void>) => {
      let dump: Record<string, string[]> = {};
      await t.db
        .transaction(async (tx) => {
          await write(tx);
          dump = await dumpTables(tx, TABLES);
          throw ROLLED_BACK;
        })
        .catch((e) => {
          if (e !== ROLLED_BACK) throw e;
        });
      return dump;
    };
    const before = await dumpTables(t.db, TABLES);
    const stored = await tablesAfter(async (tx) => {
      for (const x of carrying) await x.trailing!.writeStored(tx, from, head);
    });
    const carried = await tablesAfter(async (tx) => {
      for (const x of carrying) {
        const carry = x.trailing!.carry!;
        let sums: unknown;
        for (let a = 0; a < fetched.length; a += 2) sums = carry.fold(sums, fetched.slice(a, a + 2));
        await carry.write(tx, from, head, sums);
      }
    });
    expect(carried).toEqual(stored);
    // The writes did write: the comparison is not of two unchanged tables.
    expect(stored.daily_stats).not.toEqual(before.daily_stats);
    expect(stored.address_counters).not.toEqual(before.address_counters);
    expect(stored.chain_counters).not.toEqual(before.chain_counters);
    expect(stored.hot_contracts).not.toEqual(before.hot_contracts);
  });
});

const ROLLED_BACK = new Error("rolled back");
const TABLES = [
  "address_counters",
  "addresses",
  "chain_counters",
  "daily_counters",
  "daily_stats",
  "daily_active_accounts",
  "stats_accounts",
  "hot_contracts",
  "address_coin_balances",
];

const stages = () => indexerStages({ logger: createLogger("silent"), bus: new EventBus(), notify: false });
