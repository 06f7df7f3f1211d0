import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectCapabilities } from "../../src/chain/capabilities.js";
import { createRpc } from "../../src/chain/rpc.js";
import { fromBytea } from "../../src/db/bytes.js";
import { EventBus } from "../../src/events/bus.js";
import { fetchForStages } from "../../src/indexer/pipeline/extension.js";
import { foldAddressFacts } from "../../src/indexer/stages/counters/carry.js";
import { SUMMED_ADDRESS_FACTS } from "../../src/indexer/stages/counters/sql.js";
import { indexerStages } from "../../src/indexer/stages/index.js";
import { createLogger } from "../../src/util/logger.js";
import { deployActivityContracts, mineActivity } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";

/**
 * Issue 35: a trailing write of the counters takes its address facts from the batches it follows, summed in memory
 * (src/indexer/stages/counters/carry.ts), instead of reading the batches' rows back. Both must give the same sums:
 * on a chain with every kind of row the facts count (transfers of coin and tokens, calls moving coin inside
 * transactions, contracts created by transactions and inside them, a reverted creation, empty blocks), the folded
 * facts of the blocks, in batches of any size, equal those the stored rows give.
 */
describe("counters: address facts carried from the batches", () => {
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

  it("equal the sums read back from the stored rows, block by block and over several batches", {
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
      let carried: ReturnType<typeof foldAddressFacts> | undefined;
      for (let a = from; a <= to; a += batchSize)
        carried = foldAddressFacts(carried, fetched.slice(a, Math.min(to, a + batchSize - 1) + 1));
      return Object.fromEntries(
        [...carried!].map(([address, f]) => [
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
});

const stages = () => indexerStages({ logger: createLogger("silent"), bus: new EventBus(), notify: false });
