import { type Hex, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { fromBytea } from "../../src/db/bytes.js";
import type { Db } from "../../src/db/db.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions, recomputedCounters } from "../helpers/explorer-index.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

/**
 * /addresses?sort=transactions_count reads the count from address_counters' index joined to the positive balances
 * (migration 153): after reorgs that take an address's every transaction back, the list equals a clean index's and
 * the counts recomputed from the rows, page by page, and an address only its genesis balance shows stays in it.
 */
describe("top accounts by transaction count through reorgs", () => {
  let chain: TestChain;
  let url: string;
  let t: TestDb;
  let clean: TestDb | undefined;
  const apps: App[] = [];
  const a = (i: number) => chain.accounts[i]!.address.toLowerCase() as Hex;
  // Fresh recipients: enough positive balances for several pages.
  const fresh = (i: number) => `0x${(0xabc000 + i).toString(16).padStart(40, "0")}` as Hex;

  const send = (from: Hex, to: Hex, value: bigint) =>
    rpc<Hex>(url, "eth_sendTransaction", [{ from, to, value: toHex(value), gas: "0x100000" }]);
  const mine = () => rpc(url, "evm_mine");
  const stages = () => [coinBalanceExtension(), currentBalancesExtension(), ...explorerExtensions()];

  /** Every page of one order, as the frontend follows next_page_params. */
  async function walk(app: App, query: string): Promise<Array<[string, string, string]>> {
    const items: Array<[string, string, string]> = [];
    let params: Record<string, unknown> | null = null;
    for (let i = 0; i < 20; i++) {
      const qs = new URLSearchParams(query);
      for (const [k, v] of Object.entries(params ?? {})) if (v !== null) qs.set(k, String(v));
      const r = await app.inject({ url: `/api/v2/addresses?${qs}` });
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json() as {
        items: Array<{ hash: string; coin_balance: string; transactions_count: string }>;
        next_page_params: Record<string, unknown> | null;
      };
      items.push(
        ...body.items.map(
          (x) => [x.hash.toLowerCase(), x.coin_balance, x.transactions_count] as [string, string, string],
        ),
      );
      params = body.next_page_params;
      if (!params) return items;
    }
    throw new Error("no last page");
  }

  /** The count orders from scratch: positive balances with the recomputed counts, ties by hash in the scan's way. */
  async function expected(db: Db, order: "asc" | "desc"): Promise<Array<[string, string, string]>> {
    const counts = (await recomputedCounters(db)).address;
    const rows = (
      await db.query<{ address: Uint8Array; value: string }>(
        "select address, value::text as value from address_coin_balances where value > 0",
      )
    ).map((r) => {
      const h = fromBytea(r.address).toLowerCase();
      return { h, value: r.value, n: BigInt(counts[h]?.transactions_count ?? "-1") };
    });
    // Every address with a balance has its counters row (zeros when only the balance shows it).
    expect(rows.filter((r) => r.n < 0n).map((r) => r.h)).toEqual([]);
    const byHash = (x: { h: string }, y: { h: string }) => (x.h < y.h ? -1 : x.h > y.h ? 1 : 0);
    rows.sort((x, y) =>
      order === "desc"
        ? x.n === y.n
          ? byHash(x, y)
          : x.n > y.n
            ? -1
            : 1
        : x.n === y.n
          ? byHash(y, x)
          : x.n < y.n
            ? -1
            : 1,
    );
    return rows.map((r) => [r.h, r.value, String(r.n)]);
  }

  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
    t = await createTestDb();
    apps.push(await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false }));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await clean?.drop();
    await t?.drop();
    await chain?.stop();
  });

  it("after reorgs, the count orders equal a clean index and a recount, page by page", async () => {
    for (let i = 0; i < 70; i++) {
      await send(a(0), fresh(i), BigInt(1000 + i));
      if (i % 10 === 9) await mine();
    }
    const indexer = await createTestIndexer(t.db, url, { extensions: stages(), batchSize: 4 });
    await indexToHead(indexer, t.db, url);
    // a(9) has only its genesis balance: in the list with no transaction.
    const before = await walk(apps[0]!, "sort=transactions_count&order=asc");
    expect(before.find((r) => r[0] === a(9))?.[2]).toBe("0");

    // A branch where a(9) sends, then a longer one where it does not: its every transaction is taken back.
    const snap = await rpc<Hex>(url, "evm_snapshot");
    for (let i = 0; i < 3; i++) {
      await send(a(9), fresh(i), 5n);
      await send(a(1), fresh(70 + i), 7n);
      await mine();
    }
    await indexToHead(indexer, t.db, url);
    const during = await walk(apps[0]!, "sort=transactions_count&order=desc");
    expect(during.find((r) => r[0] === a(9))?.[2]).toBe("3");
    expect(during.find((r) => r[0] === fresh(70))?.[2]).toBe("1");

    await rpc(url, "evm_revert", [snap]);
    for (let i = 0; i < 5; i++) {
      await send(a(2), fresh(i), 9n);
      if (i % 2) await send(a(3), fresh(i + 10), 11n);
      await mine();
    }
    await indexToHead(indexer, t.db, url);

    clean = await createTestDb();
    await indexToHead(await createTestIndexer(clean.db, url, { extensions: stages() }), clean.db, url);
    apps.push(await buildApp({ db: clean.db, config: { bodyLimit: 1e6 }, logger: false }));
    const tables = ["address_counters", "address_coin_balances", "addresses", "coin_balance_changes"];
    expect(await dumpTables(t.db, tables)).toEqual(await dumpTables(clean.db, tables));

    for (const order of ["asc", "desc"] as const) {
      const query = `sort=transactions_count&order=${order}`;
      const reorged = await walk(apps[0]!, query);
      expect(reorged.length).toBeGreaterThan(50);
      expect(reorged, order).toEqual(await walk(apps[1]!, query));
      expect(reorged, order).toEqual(await expected(t.db, order));
    }
    const after = await walk(apps[0]!, "sort=transactions_count&order=asc");
    // a(9)'s counters all went back to 0; its genesis balance keeps it (and its row) in the list.
    expect(after.find((r) => r[0] === a(9))?.[2]).toBe("0");
    // fresh(70) was only paid in the lost branch: no balance, no counters row.
    expect(after.find((r) => r[0] === fresh(70))).toBeUndefined();
    const [gone] = await t.db.query<{ n: string }>(
      "select count(*)::text as n from address_counters where address = decode($1, 'hex')",
      [fresh(70).slice(2)],
    );
    expect(gone!.n).toBe("0");
  });
});
