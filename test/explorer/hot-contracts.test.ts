import { createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { EventBus } from "../../src/events/bus.js";
import { indexerStages } from "../../src/indexer/stages/index.js";
import { createLogger } from "../../src/util/logger.js";
import { type ActivityContracts, deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

type Hot = { count: number; gas: bigint };

/** Per contract recipient (code at the head), its transactions and gas used, from the node alone. */
async function fromNode(url: string): Promise<Map<string, Hot>> {
  const client = createPublicClient({ transport: http(url) });
  const head = await client.getBlockNumber();
  const out = new Map<string, Hot>();
  const code = new Map<string, boolean>();
  for (let n = 0n; n <= head; n++) {
    const b = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const t of b.transactions) {
      if (!t.to) continue;
      const to = t.to.toLowerCase();
      if (!code.has(to)) code.set(to, ((await client.getCode({ address: t.to })) ?? "0x") !== "0x");
      if (!code.get(to)) continue;
      const r = await client.getTransactionReceipt({ hash: t.hash });
      const h = out.get(to) ?? { count: 0, gas: 0n };
      out.set(to, { count: h.count + 1, gas: h.gas + r.gasUsed });
    }
  }
  return out;
}

describe("/api/v2/stats/hot-smart-contracts from the hot-contracts stage", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let k: ActivityContracts;
  const stages = () => indexerStages({ logger: createLogger("silent"), bus: new EventBus(), notify: false });
  const get = async (url: string) => {
    const r = await app.inject({ method: "GET", url: `/api/v2/stats/hot-smart-contracts${url}` });
    return { status: r.statusCode, body: r.json() as any };
  };

  beforeAll(async () => {
    chain = await startTestChain();
    t = await createTestDb();
    k = await deployActivityContracts(chain.anvil.url);
    await mineActivity(chain.anvil.url, k, { blocks: 8, txPerBlock: 4, seed: 3 });
    await indexToHead(
      await createTestIndexer(t.db, chain.anvil.url, { stages: stages() }),
      t.db,
      chain.anvil.url,
    );
    app = await buildApp({ db: t.db, config: { bodyLimit: 1024 * 1024 }, logger: false });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
  });

  it("every scale counts the contracts' transactions and gas as the node has them, in Blockscout's order", async () => {
    const expected = await fromNode(chain.anvil.url);
    expect(expected.size).toBeGreaterThan(0);
    const order = [...expected.entries()].sort(
      ([a, x], [b, y]) =>
        y.count - x.count || (y.gas > x.gas ? 1 : y.gas < x.gas ? -1 : 0) || (a < b ? -1 : 1),
    );
    // The chain was mined minutes ago: every scale holds all of it.
    for (const scale of ["1h", "3h", "1d", "7d", "30d"]) {
      const r = await get(`?scale=${scale}`);
      expect(r.status, scale).toBe(200);
      expect(
        r.body.items.map((i: any) => [
          i.contract_address.hash.toLowerCase(),
          i.transactions_count,
          i.total_gas_used,
        ]),
        scale,
      ).toEqual(order.map(([a, h]) => [a, String(h.count), String(h.gas)]));
      expect(r.body.next_page_params).toBeNull();
    }
    const first = (await get("?scale=1d")).body.items[0];
    expect(Object.keys(first)).toEqual([
      "contract_address",
      "transactions_count",
      "total_gas_used",
      "balance",
    ]);
    expect(first.contract_address).toMatchObject({
      hash: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      is_contract: true,
    });
  });

  it("pages after a cursor and sorts by gas either way; bad scales are 422", async () => {
    const all = (await get("?scale=1d")).body.items;
    const last = all[0];
    const after = await get(
      `?scale=1d&contract_address_hash=${last.contract_address.hash}&transactions_count=${last.transactions_count}&total_gas_used=${last.total_gas_used}`,
    );
    expect(after.body.items).toEqual(all.slice(1));
    const asc = (await get("?scale=1d&sort=total_gas_used&order=asc")).body.items.map((i: any) =>
      BigInt(i.total_gas_used),
    );
    expect(asc).toEqual([...asc].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(asc.length).toBe(all.length);
    expect((await get("")).status).toBe(422);
    expect((await get("?scale=2d")).status).toBe(422);
    expect(
      (await get("?scale=1d&contract_address_hash=0x12&transactions_count=1&total_gas_used=1")).status,
    ).toBe(422);
  });

  it("after a reorg, the table equals the same slots summed from the transactions left", async () => {
    const url = chain.anvil.url;
    const snap = await rpc<Hex>(url, "evm_snapshot");
    await mineActivity(url, k, { blocks: 4, txPerBlock: 4, seed: 11 });
    const indexer = await createTestIndexer(t.db, url, { stages: stages() });
    await indexToHead(indexer, t.db, url);
    await rpc(url, "evm_revert", [snap]);
    await mineActivity(url, k, { blocks: 2, txPerBlock: 2, seed: 12 });
    await indexToHead(indexer, t.db, url);
    const recomputed = await t.db.query<{ row: string }>(
      `select concat_ws(' ', granularity, slot, encode(address, 'hex'), count(*), sum(gas_used)) as row
       from (
         select g.granularity, floor(extract(epoch from b.timestamp) / g.granularity)::int8 as slot,
           t.to_address as address, t.gas_used
         from transactions t join blocks b on b.number = t.block_number
         cross join (values (60), (86400)) as g (granularity)
         where t.to_address is not null) x
       group by granularity, slot, address order by 1`,
    );
    const kept = await dumpTables(t.db, ["hot_contracts"]);
    expect(kept.hot_contracts!.length).toBe(recomputed.length);
    const stored = await t.db.query<{ row: string }>(
      `select concat_ws(' ', granularity, slot, encode(address, 'hex'), transactions, gas_used) as row
       from hot_contracts order by 1`,
    );
    expect(stored.map((r) => r.row)).toEqual(recomputed.map((r) => r.row));
  });

  it("drops minute slots more than 4 hours behind the newest block, batch after batch, and keeps every day", async () => {
    const url = chain.anvil.url;
    // One indexer across the steps: each drop starts where its last committed one ended.
    const indexer = await createTestIndexer(t.db, url, { stages: stages() });
    for (const seed of [21, 22, 23]) {
      await rpc(url, "evm_increaseTime", [5 * 3600]);
      await mineActivity(url, k, { blocks: 2, txPerBlock: 2, seed });
      await indexToHead(indexer, t.db, url);
    }
    const slots = (granularity: number, since: string) =>
      t.db.query<{ row: string }>(
        `select concat_ws(' ', slot, encode(address, 'hex'), count(*), sum(gas_used)) as row
         from (
           select floor(extract(epoch from b.timestamp) / $1)::int8 as slot, t.to_address as address, t.gas_used
           from transactions t join blocks b on b.number = t.block_number
           where t.to_address is not null) x
         where slot >= ${since}
         group by slot, address order by 1`,
        [granularity],
      );
    const stored = (granularity: number) =>
      t.db.query<{ row: string }>(
        `select concat_ws(' ', slot, encode(address, 'hex'), transactions, gas_used) as row
         from hot_contracts where granularity = $1 order by 1`,
        [granularity],
      );
    const cutoff = "(select floor(extract(epoch from max(timestamp)) / 60)::int8 - 240 from blocks)";
    const minutes = await slots(60, cutoff);
    expect(minutes.length).toBeGreaterThan(0);
    // Three steps 5 hours apart: only the last one's minutes are left.
    expect((await stored(60)).map((r) => r.row)).toEqual(minutes.map((r) => r.row));
    expect((await stored(86400)).map((r) => r.row)).toEqual((await slots(86400, "0")).map((r) => r.row));
  });
});
