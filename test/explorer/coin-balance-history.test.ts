import { Value } from "@sinclair/typebox/value";
import { type Address, encodeDeployData, encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app/http-app.js";
import { fromBytea, toBytea } from "../../src/db/bytes.js";
import type { Db } from "../../src/db/db.js";
import { CoinBalanceByDaySchema, CoinBalanceHistorySchema } from "../../src/explorer/coin-balance/schema.js";
import { getCoinBalanceSummary } from "../../src/explorer/coin-balance/service.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { activityContracts, rpc, rpcBatch } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

const q = (n: number) => `0x${n.toString(16)}`;
type Item = {
  block_number: number;
  block_timestamp: string;
  delta: string;
  transaction_hash: Hex | null;
  value: string;
};
type Page = { items: Item[]; next_page_params: { block_number: number; items_count: number } | null };

describe("coin balance history", () => {
  let chain: TestChain;
  let t: TestDb;
  let url: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const a = (i: number) => chain.anvil.accounts[i]!.address.toLowerCase() as Address;
  const coinbase = "0x00000000000000000000000000000000c0ffee00" as Address;
  const tx: Record<string, Hex> = {};
  const contracts: Record<string, Address> = {};

  const send = (o: Record<string, unknown>) =>
    rpc<Hex>(url, "eth_sendTransaction", [{ gas: "0x100000", ...o }]);
  const mine = () => rpc(url, "evm_mine");
  const receipt = (h: Hex) =>
    rpc<{ contractAddress: Address | null; status: Hex; blockNumber: Hex }>(
      url,
      "eth_getTransactionReceipt",
      [h],
    );

  async function index(db: Db) {
    const indexer = await createTestIndexer(db, url, {
      extensions: [coinBalanceExtension(), currentBalancesExtension()],
    });
    await indexToHead(indexer, db, url);
    return indexer;
  }

  async function getPage(address: string, query = ""): Promise<{ status: number; body: Page }> {
    const r = await app.inject({ url: `/api/v2/addresses/${address}/coin-balance-history${query}` });
    return { status: r.statusCode, body: r.json() };
  }

  async function walk(address: string): Promise<{ items: Item[]; pages: Page[] }> {
    const pages: Page[] = [];
    let query = "";
    for (;;) {
      const { status, body } = await getPage(address, query);
      expect(status).toBe(200);
      expect(Value.Check(CoinBalanceHistorySchema, body)).toBe(true);
      pages.push(body);
      if (!body.next_page_params) break;
      const p = body.next_page_params;
      query = `?block_number=${p.block_number}&items_count=${p.items_count}`;
    }
    return { items: pages.flatMap((p) => p.items), pages };
  }

  beforeAll(async () => {
    // Shanghai: SELFDESTRUCT still deletes the account and moves its balance (Cancun only moves it).
    chain = await startTestChain({ hardfork: "shanghai" });
    url = chain.anvil.url;
    t = await createTestDb();
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
    const c = activityContracts();
    await rpc(url, "anvil_setCoinbase", [coinbase]);
    await rpc(url, "evm_setAutomine", [false]);

    // Block 1: contracts, one of them created with value.
    const deploy = (name: string, from: Address, value = 0n) =>
      send({
        from,
        value: q(Number(value)),
        data: encodeDeployData({
          abi: c[name]!.abi,
          bytecode: c[name]!.bytecode,
          ...(name === "Child" ? { args: [5n] } : {}),
        } as never),
      });
    const fwd = await deploy("Forwarder", a(0));
    const doomed = await deploy("Doomed", a(0), 3000n);
    tx.child = await deploy("Child", a(5), 777n);
    await mine();
    contracts.forwarder = (await receipt(fwd)).contractAddress!;
    contracts.doomed = (await receipt(doomed)).contractAddress!;
    contracts.child = (await receipt(tx.child)).contractAddress!;

    // Block 2: plain transfers, several transactions of one sender, an internal forward, a failed transaction.
    tx.plain1 = await send({ from: a(1), to: a(2), value: q(1000) });
    tx.plain2 = await send({ from: a(1), to: a(3), value: q(2000) });
    tx.forward = await send({
      from: a(1),
      to: contracts.forwarder,
      value: q(5000),
      data: encodeFunctionData({ abi: c.Forwarder!.abi, functionName: "forward", args: [a(4)] }),
    });
    // Forwarding to Doomed (no receive function) reverts: the sender pays the fee only.
    tx.failed = await send({
      from: a(6),
      to: contracts.forwarder,
      value: q(9000),
      data: encodeFunctionData({ abi: c.Forwarder!.abi, functionName: "forward", args: [contracts.doomed] }),
    });
    await mine();

    // Block 3: self-destruct with a beneficiary; block 4 empty.
    tx.destroy = await send({
      from: a(7),
      to: contracts.doomed,
      data: encodeFunctionData({ abi: c.Doomed!.abi, functionName: "destroy", args: [a(8)] }),
    });
    await mine();
    await mine();

    await index(t.db);
  });

  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
  });

  async function storedRows(db: Db) {
    const rows = await db.query<{
      address: Uint8Array;
      block_number: number;
      value: string;
      delta: string;
      transaction_hash: Uint8Array | null;
    }>(
      "select address, block_number, value, delta, transaction_hash from coin_balance_changes order by 1, 2",
    );
    return rows.map((r) => ({
      address: fromBytea(r.address) as Address,
      block: r.block_number,
      value: BigInt(r.value),
      delta: BigInt(r.delta),
      tx: r.transaction_hash ? fromBytea(r.transaction_hash) : null,
    }));
  }

  it("records every balance change exactly, against the node's balances", async () => {
    const rows = await storedRows(t.db);
    const balances = await rpcBatch<Hex>(
      url,
      rows.flatMap((r) => [
        { method: "eth_getBalance", params: [r.address, q(r.block)] },
        ...(r.block > 0 ? [{ method: "eth_getBalance", params: [r.address, q(r.block - 1)] }] : []),
      ]),
    );
    let i = 0;
    for (const r of rows) {
      expect(r.delta).not.toBe(0n);
      expect(r.value, `${r.address}@${r.block}`).toBe(BigInt(balances[i++]!));
      const before = r.block > 0 ? BigInt(balances[i++]!) : 0n;
      expect(r.value - r.delta, `${r.address}@${r.block}`).toBe(before);
    }

    // Completeness: every change of every address involved is listed.
    const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    const involved = [
      ...chain.anvil.accounts.map((x) => x.address.toLowerCase() as Address),
      coinbase,
      ...Object.values(contracts),
    ];
    const all = await rpcBatch<Hex>(
      url,
      involved.flatMap((addr) =>
        Array.from({ length: head + 1 }, (_, n) => ({ method: "eth_getBalance", params: [addr, q(n)] })),
      ),
    );
    const expected: string[] = [];
    involved.forEach((addr, k) => {
      for (let n = 0; n <= head; n++) {
        const now = BigInt(all[k * (head + 1) + n]!);
        const prev = n === 0 ? 0n : BigInt(all[k * (head + 1) + n - 1]!);
        if (now !== prev) expected.push(`${addr.toLowerCase()}@${n}`);
      }
    });
    const set = new Set(involved.map((x) => x.toLowerCase()));
    expect(
      rows
        .filter((r) => set.has(r.address))
        .map((r) => `${r.address}@${r.block}`)
        .sort(),
    ).toEqual(expected.sort());
  });

  it("attributes each change to the last transaction of the block that made it", async () => {
    const rows = await storedRows(t.db);
    const at = (addr: Address, block: number) =>
      rows.find((r) => r.address === addr.toLowerCase() && r.block === block);
    const b = async (h: Hex) => Number((await receipt(h)).blockNumber);
    // Genesis allocations: no transaction.
    expect(at(a(9), 0)).toMatchObject({
      tx: null,
      delta: BigInt(await rpc<Hex>(url, "eth_getBalance", [a(9), "0x0"])),
    });
    // Creation with value.
    expect(at(contracts.child!, await b(tx.child!))).toMatchObject({ tx: tx.child, delta: 777n });
    expect(at(contracts.doomed!, 1)?.delta).toBe(3000n);
    // Several transactions of one sender in one block: the last one.
    expect(at(a(1), await b(tx.forward!))?.tx).toBe(tx.forward);
    expect(at(a(2), await b(tx.plain1!))).toMatchObject({ tx: tx.plain1, delta: 1000n });
    // Internal value transfer: credited to the forward's target, the forwarder itself unchanged.
    expect(at(a(4), await b(tx.forward!))).toMatchObject({ tx: tx.forward, delta: 5000n });
    expect(at(contracts.forwarder!, await b(tx.forward!))).toBeUndefined();
    // Failed transaction: fee only, value returned.
    const failed = at(a(6), await b(tx.failed!))!;
    expect(failed.tx).toBe(tx.failed);
    expect(failed.delta < 0n && failed.delta > -(10n ** 16n)).toBe(true);
    // Self-destruct: the contract drops to zero, the beneficiary receives its balance.
    const d = await b(tx.destroy!);
    expect(at(contracts.doomed!, d)).toMatchObject({ tx: tx.destroy, value: 0n, delta: -3000n });
    expect(at(a(8), d)).toMatchObject({ tx: tx.destroy, delta: 3000n });
    // Fee recipient: the last transaction of each block paying it.
    expect(at(coinbase, await b(tx.failed!))?.tx).toBe(tx.failed);
    expect(at(coinbase, d)?.tx).toBe(tx.destroy);
  });

  it("serves the history in Blockscout's shape, checksummed or lower-case", async () => {
    const { checksum } = { checksum: chain.anvil.accounts[1]!.address };
    const upper = await getPage(checksum);
    const lower = await getPage(checksum.toLowerCase());
    expect(upper.status).toBe(200);
    expect(upper.body).toEqual(lower.body);
    expect(Value.Check(CoinBalanceHistorySchema, upper.body)).toBe(true);
    const rows = (await storedRows(t.db)).filter((r) => r.address === a(1)).reverse();
    expect(upper.body.items.map((x) => [x.block_number, x.value, x.delta, x.transaction_hash])).toEqual(
      rows.map((r) => [r.block, r.value.toString(), r.delta.toString(), r.tx]),
    );
    expect(upper.body.next_page_params).toBeNull();
    const [block] = await t.db.query<{ timestamp: Date }>("select timestamp from blocks where number = $1", [
      rows[0]!.block,
    ]);
    expect(upper.body.items[0]!.block_timestamp).toBe(
      `${block!.timestamp.toISOString().slice(0, 19)}.000000Z`,
    );
    expect(upper.body.items[0]!.block_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/);
    // Unknown but valid address: an empty page.
    expect(await getPage(`0x${"ab".repeat(20)}`)).toEqual({
      status: 200,
      body: { items: [], next_page_params: null },
    });
    // block_number=0: nothing below genesis.
    expect((await getPage(a(1), "?block_number=0")).body).toEqual({ items: [], next_page_params: null });
  });

  it("answers bad input with Blockscout's 422 body, never a 5xx", async () => {
    const bad = async (path: string, pointer: string) => {
      const r = await app.inject({ url: path });
      expect(r.statusCode, path).toBe(422);
      const body = r.json();
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({ title: "Invalid value", source: { pointer } });
      expect(typeof body.errors[0].detail).toBe("string");
      return body;
    };
    expect(await bad("/api/v2/addresses/0x/coin-balance-history", "/address_hash_param")).toEqual({
      errors: [
        {
          title: "Invalid value",
          source: { pointer: "/address_hash_param" },
          detail: "Invalid format. Expected ~r/^0x([A-Fa-f0-9]{40})$/",
        },
      ],
    });
    const h = a(1);
    await bad(`/api/v2/addresses/${h}00/coin-balance-history`, "/address_hash_param");
    await bad(`/api/v2/addresses/0x${"g".repeat(40)}/coin-balance-history`, "/address_hash_param");
    await bad(`/api/v2/addresses/${h.slice(2)}/coin-balance-history`, "/address_hash_param");
    await bad(`/api/v2/addresses/0x/coin-balance-history-by-day`, "/address_hash_param");
    for (const v of ["abc", "-1", "1.5", "1e30", "99999999999999999999"])
      await bad(`/api/v2/addresses/${h}/coin-balance-history?block_number=${v}`, "/block_number");
    // An empty value is no value (the frontend sends empty filters), as Blockscout ignores an unparsable cursor:
    // the first page.
    const empty = await app.inject({ url: `/api/v2/addresses/${h}/coin-balance-history?block_number=` });
    const first = await app.inject({ url: `/api/v2/addresses/${h}/coin-balance-history` });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual(first.json());
    await bad(`/api/v2/addresses/${h}/coin-balance-history?block_number=1&block_number=2`, "/block_number");
    for (const v of ["0", "51", "-3", "x"])
      await bad(
        `/api/v2/addresses/${h}/coin-balance-history?block_number=5&items_count=${v}`,
        "/items_count",
      );
  });

  it("gives the address object's balance fields and the by-day chart", async () => {
    const latest = BigInt(await rpc<Hex>(url, "eth_getBalance", [a(8), "latest"]));
    const summary = await getCoinBalanceSummary(t.db, chain.anvil.accounts[8]!.address);
    expect(summary.coin_balance).toBe(latest.toString());
    expect(summary.block_number_balance_updated_at).toBe(Number((await receipt(tx.destroy!)).blockNumber));
    expect(await getCoinBalanceSummary(t.db, `0x${"ab".repeat(20)}`)).toEqual({
      coin_balance: null,
      block_number_balance_updated_at: null,
    });
    const r = await app.inject({ url: `/api/v2/addresses/${a(8)}/coin-balance-history-by-day` });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(Value.Check(CoinBalanceByDaySchema, body)).toBe(true);
    expect(body.days).toBe(10);
    expect(body.items.at(-1).value).toBe(latest.toString());
    const empty = await app.inject({
      url: `/api/v2/addresses/0x${"ab".repeat(20)}/coin-balance-history-by-day`,
    });
    expect(empty.json()).toEqual({ items: [], days: 10 });
  });

  it("pages a long history through next_page_params without gaps or duplicates", async () => {
    const from = a(5);
    const to = a(9);
    for (let i = 0; i < 160; i++) {
      await send({ from, to, value: q(1 + i) });
      await mine();
    }
    await index(t.db);
    const { items, pages } = await walk(to);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const p of pages.slice(0, -1)) {
      expect(p.items).toHaveLength(50);
      expect(p.next_page_params).toEqual({ block_number: p.items[49]!.block_number, items_count: 50 });
    }
    expect(pages.at(-1)!.next_page_params).toBeNull();
    const rows = (await storedRows(t.db)).filter((r) => r.address === to).reverse();
    expect(items.map((x) => x.block_number)).toEqual(rows.map((r) => r.block));
    expect(new Set(items.map((x) => x.block_number)).size).toBe(items.length);
    // Consecutive items chain: older.value + newer.delta == newer.value.
    for (let i = 0; i + 1 < items.length; i++)
      expect(BigInt(items[i + 1]!.value) + BigInt(items[i]!.delta)).toBe(BigInt(items[i]!.value));
  });

  it("after reorgs, equals a clean index of the same chain", async () => {
    const c = a(3);
    const snap = await rpc<Hex>(url, "evm_snapshot");
    for (let i = 0; i < 6; i++) {
      await send({ from: a(2), to: c, value: q(100 + i) });
      await mine();
    }
    await index(t.db);
    // Replace them with a shorter branch touching the same address differently.
    await rpc(url, "evm_revert", [snap]);
    const snap2 = await rpc<Hex>(url, "evm_snapshot");
    await send({ from: c, to: a(4), value: q(77) });
    await mine();
    await mine();
    const indexer = await index(t.db);
    // And once more with a longer branch.
    await rpc(url, "evm_revert", [snap2]);
    for (let i = 0; i < 9; i++) {
      await send({ from: a(7), to: c, value: q(300 + i) });
      if (i % 2) await send({ from: c, to: a(7), value: q(5) });
      await mine();
    }
    await indexToHead(indexer, t.db, url);

    const clean = await createTestDb();
    try {
      await index(clean.db);
      // The current balances (top accounts) too: recomputed on reorg, equal to a clean index's.
      const tables = ["coin_balance_changes", "address_coin_balances"];
      expect(await dumpTables(t.db, tables)).toEqual(await dumpTables(clean.db, tables));
      // The coin balance sum (stats&action=ethsupply), kept through the reorgs: the clean index's, and the sum
      // of the current balances.
      const kept = async (db: typeof t.db) =>
        (
          await db.query<{ kept: string; summed: string }>(
            `select (select value::text from chain_counters where name = 'coin_balance_sum') as kept,
               (select sum(value)::text from address_coin_balances) as summed`,
          )
        )[0]!;
      const after = await kept(t.db);
      expect(after.kept).toBe(after.summed);
      expect(after).toEqual(await kept(clean.db));
      const n = await t.db.query<{ n: number }>(
        "select count(*)::int8 as n from coin_balance_changes where address = $1 and block_number > (select min(number) from blocks) ",
        [toBytea(c)],
      );
      expect(n[0]!.n).toBeGreaterThan(0);
    } finally {
      await clean.drop();
    }
    expect((await walk(c)).items.map((x) => x.block_number)).toEqual(
      (await storedRows(t.db))
        .filter((r) => r.address === c)
        .map((r) => r.block)
        .reverse(),
    );
  });
});
