import { Value } from "@sinclair/typebox/value";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { FrontendTokenCounters, FrontendTokensResponse } from "../../src/explorer/token/schema.js";
import { FrontendTokenHolders } from "../../src/explorer/token-holder/schema.js";
import {
  FrontendTokenInstanceTransfersCount,
  FrontendTokenInventory,
} from "../../src/explorer/token-instance/schema.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { refreshTokenProperties } from "../../src/token-workers/properties.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke, read, walkNft } from "../helpers/tokens.js";

const E18 = 10n ** 18n;
const word = (hex: Hex | null) => (hex === null || hex === "0x" ? null : BigInt(hex.slice(0, 66)));

describe("token pages: fidelity and counters", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let url: string;
  let acct: Address[];
  let nft: Address;
  let counted: Address;
  let multi: Address;
  let hybrid: Address;
  let coin: Address;
  let indexer: Awaited<ReturnType<typeof createTestIndexer>>;
  const ids721 = [1n, 2n, 3n, 4n];
  const ids1155 = [1n, 2n, 3n];
  // Coin receivers beyond the accounts (to page the holders list).
  const many = Array.from(
    { length: 55 },
    (_, i) => `0x${(0xbeef00 + i).toString(16).padStart(40, "0")}` as Address,
  );

  const get = async (u: string) => {
    const res = await app.inject(u);
    return { status: res.statusCode, body: res.json() };
  };
  async function sync() {
    await indexToHead(indexer, t.db, url);
    const r = createRpc({ url, batchSize: 50, timeoutMs: 5000, retries: 1 });
    while ((await refreshTokenProperties(t.db, r)) > 0);
  }

  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
    acct = chain.accounts.slice(0, 5).map((a) => a.address.toLowerCase() as Address);
    t = await createTestDb();
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
    const A = acct[0]!;
    nft = await deploy(url, A, "TestNft", ["Things", "THG", ""]);
    counted = await deploy(url, A, "TestNftSupply");
    multi = await deploy(url, A, "Test1155", [""]);
    hybrid = await deploy(url, A, "Test404", [""]);
    coin = await deploy(url, A, "TestCoin", [10n ** 24n]);
    indexer = await createTestIndexer(t.db, url, { extensions: [createTokensExtension()] });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
  });

  /** What the contracts say: holders (balanceOf/ownerOf over every account that ever took part) per token. */
  async function nodeHolders(): Promise<Record<string, number>> {
    const holders = { [nft]: new Set<string>(), [multi]: new Set<string>() } as Record<string, Set<string>>;
    for (const id of ids721) {
      const o = await read(url, nft, "TestNft", "ownerOf", [id]);
      if (o) holders[nft]!.add(o.slice(26));
    }
    let coinHolders = 0;
    let hybridHolders = 0;
    for (const a of many) if (word(await read(url, coin, "TestCoin", "balanceOf", [a]))! > 0n) coinHolders++;
    for (const a of acct) {
      for (const id of ids1155)
        if (word(await read(url, multi, "Test1155", "balanceOf", [id, a]))! > 0n) holders[multi]!.add(a);
      if (word(await read(url, coin, "TestCoin", "balanceOf", [a]))! > 0n) coinHolders++;
      if (word(await read(url, hybrid, "Test404", "erc20BalanceOf", [a]))! > 0n) hybridHolders++;
    }
    return {
      [nft]: holders[nft]!.size,
      [multi]: holders[multi]!.size,
      [coin]: coinHolders,
      [hybrid]: hybridHolders,
    };
  }

  /** The counters as stored, beside a fresh count over the current balances and transfers. */
  async function storedAndRecounted() {
    const rows = await t.db.query<{
      a: Uint8Array;
      stored: string;
      fresh: string;
      tc: string;
      tfresh: string;
    }>(
      `select address as a, holders_count::text as stored, transfers_count::text as tc,
         (case when type in ('ERC-20', 'ERC-404')
           then (select count(*) from token_fungible_balances f where f.token_address = t.address and f.value > 0)
           else (select count(distinct holder) from token_holdings h where h.token_address = t.address and h.value > 0)
         end)::text as fresh,
         (select count(distinct (block_number, log_index)) from token_transfers x where x.token_address = t.address)::text as tfresh
       from tokens t`,
    );
    return Object.fromEntries(
      rows.map((r) => [
        `0x${Buffer.from(r.a).toString("hex")}`,
        { stored: r.stored, fresh: r.fresh, tc: r.tc, tfresh: r.tfresh },
      ]),
    );
  }

  async function checkCounters() {
    await sync();
    const counters = await storedAndRecounted();
    const truth = await nodeHolders();
    for (const token of [nft, multi, coin, hybrid]) {
      const c = counters[token]!;
      expect(c.stored, `${token} holders vs recount`).toBe(c.fresh);
      expect(Number(c.stored), `${token} holders vs node`).toBe(truth[token]);
      expect(c.tc, `${token} transfers vs recount`).toBe(c.tfresh);
    }
    return counters;
  }

  it("answers as Blockscout does: instances, collections, supply, ERC-404 value, type filter", async () => {
    const [A, B] = acct as [Address, Address];
    await invoke(url, A, nft, "TestNft", "mintMany", [A, 1n, 3n]);
    await invoke(url, A, nft, "TestNft", "burn", [3n]);
    await invoke(url, A, counted, "TestNftSupply", "mint", [A, 7n]);
    await invoke(url, A, counted, "TestNftSupply", "mint", [B, 8n]);
    await invoke(url, A, counted, "TestNftSupply", "mint", [B, 9n]);
    await invoke(url, A, counted, "TestNftSupply", "burn", [8n]);
    await invoke(url, A, multi, "Test1155", "mintBatch", [B, ids1155, [5n, 1n, 7n]]);
    await invoke(url, A, hybrid, "Test404", "mintUnits", [B, 2n]);
    await sync();

    // Instances: minted (and burned) ids exist; a never-minted id and any id of an ERC-20 are 404s.
    expect((await get(`/api/v2/tokens/${nft}/instances/1`)).status).toBe(200);
    expect((await get(`/api/v2/tokens/${nft}/instances/3`)).status).toBe(200);
    expect((await get(`/api/v2/tokens/${nft}/instances/99`)).status).toBe(404);
    expect((await get(`/api/v2/tokens/${coin}/instances/1`)).status).toBe(404);
    expect((await get(`/api/v2/tokens/${multi}/instances/4`)).status).toBe(404);
    expect((await get(`/api/v2/tokens/${multi}/instances/3`)).status).toBe(200);

    // The token object carries circulating_supply; total_supply is what the contract tells, when it tells it.
    const supply = word(await read(url, counted, "TestNftSupply", "totalSupply"));
    expect(supply).toBe(2n);
    const countedToken = await get(`/api/v2/tokens/${counted}`);
    expect(countedToken.body).toMatchObject({ type: "ERC-721", total_supply: "2", circulating_supply: null });
    expect(countedToken.body).toHaveProperty("circulating_supply");
    expect((await get(`/api/v2/tokens/${nft}`)).body.total_supply).toBeNull();

    // Collections: an ERC-1155 amount is the number of distinct ids held (3), not the sum of balances (13).
    const collections = (await get(`/api/v2/addresses/${B}/nft/collections`)).body;
    const byType = Object.fromEntries(
      collections.items.map((c: { token: { type: string }; amount: string }) => [c.token.type, c]),
    );
    expect(byType["ERC-1155"].amount).toBe("3");
    expect(byType["ERC-721"].amount).toBe("1");
    expect(byType["ERC-404"].amount).toBe("2");
    expect(byType["ERC-721"].token).toHaveProperty("circulating_supply", null);

    // ERC-404 ids: one unit in base units, so the frontend's value / 10^decimals shows "Qty 1".
    const hybridItems = (await walkNft(app, B, "ERC-404")).items;
    expect(hybridItems).toHaveLength(2);
    for (const i of hybridItems) expect(i.value).toBe(E18.toString());
    expect(byType["ERC-404"].token_instances[0].value).toBe(E18.toString());
    const multiItems = (await walkNft(app, B, "ERC-1155")).items;
    expect(multiItems.map((i) => i.value).sort()).toEqual(["1", "5", "7"]);

    // type: known labels (any case, brackets, ERC-20 accepted and dropped); an unknown label is a 422.
    for (const path of ["nft", "nft/collections"]) {
      for (const bad of ["ERC-999", "ERC-721,ERC-999", "FOO"]) {
        const r = await get(`/api/v2/addresses/${B}/${path}?type=${bad}`);
        expect(r.status, `${path} ${bad}`).toBe(422);
        expect(r.body.errors[0]).toMatchObject({ source: { pointer: "/type" } });
      }
      for (const ok of ["ERC-20", "erc-1155", "[ERC-721,ERC-404]", ""])
        expect((await get(`/api/v2/addresses/${B}/${path}?type=${ok}`)).status, `${path} ${ok}`).toBe(200);
    }
  });

  it("keeps holder and transfer counts incrementally, equal to a recount and to the node, across a reorg", async () => {
    const [A, B, C, D] = acct as [Address, Address, Address, Address];
    await invoke(url, A, nft, "TestNft", "mint", [A, 4n]);
    await invoke(url, A, coin, "TestCoin", "transfer", [B, 5n]);
    await invoke(url, A, coin, "TestCoin", "transfer", [C, 5n]);
    await checkCounters();

    // Transfers that move whole holdings (holders leave and arrive), batches, burns.
    await invoke(url, B, coin, "TestCoin", "transfer", [D, 5n]);
    await invoke(url, A, nft, "TestNft", "transferFrom", [A, C, 1n]);
    await invoke(url, B, multi, "Test1155", "safeBatchTransferFrom", [B, C, [1n, 2n], [5n, 1n], "0x"]);
    await invoke(url, C, multi, "Test1155", "burn", [C, 2n, 1n]);
    await invoke(url, B, hybrid, "Test404", "transfer", [A, E18]);
    await checkCounters();

    const before = await storedAndRecounted();
    const snapshot = await rpc<Hex>(url, "evm_snapshot");
    // Orphaned activity: every kind of holder change, then a reorg to empty blocks.
    await invoke(url, C, coin, "TestCoin", "transfer", [B, 5n]);
    await invoke(url, C, nft, "TestNft", "transferFrom", [C, D, 1n]);
    await invoke(url, A, nft, "TestNft", "burn", [2n]);
    await invoke(url, B, multi, "Test1155", "safeTransferFrom", [B, A, 3n, 7n, "0x"]);
    await invoke(url, A, hybrid, "Test404", "transfer", [D, E18]);
    const during = await checkCounters();
    expect(during).not.toEqual(before);
    await rpc(url, "evm_revert", [snapshot]);
    await rpc(url, "anvil_mine", ["0x3"]);
    expect(await checkCounters()).toEqual(before);

    // The new branch goes on.
    await invoke(url, A, coin, "TestCoin", "transfer", [D, 1n]);
    await invoke(url, A, multi, "Test1155", "mint", [D, 1n, 2n]);
    await checkCounters();
  });

  /** Walks a list through next_page_params, checking every page against the frontend's type. */
  async function walk(path: string, schema: Parameters<typeof Value.Check>[0]) {
    const items: Array<Record<string, unknown>> = [];
    let params: Record<string, unknown> | null = {};
    for (let guard = 0; params && guard < 100; guard++) {
      const qs = new URLSearchParams(
        Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const r = await get(`${path}${path.includes("?") ? "&" : "?"}${qs}`);
      expect(r.status, path).toBe(200);
      expect(
        Value.Check(schema, r.body),
        `${path} ${JSON.stringify([...Value.Errors(schema, r.body)][0])}`,
      ).toBe(true);
      items.push(...r.body.items);
      params = r.body.next_page_params;
    }
    return items;
  }

  it("serves the token pages: holders, counters, inventory, instance holders and transfer counts, the list", async () => {
    const [A, B, C] = acct as [Address, Address, Address];
    // Enough to page: 55 coin holders, 60 more NFT ids, 60 ids of one ERC-1155 holder.
    for (const [i, to] of many.entries())
      await invoke(url, A, coin, "TestCoin", "transfer", [to, BigInt(1 + (i % 7))]);
    await invoke(url, A, nft, "TestNft", "mintMany", [C, 100n, 60n]);
    const ids = Array.from({ length: 60 }, (_, i) => BigInt(200 + i));
    await invoke(url, A, multi, "Test1155", "mintBatch", [B, ids, ids.map(() => 3n)]);
    for (let i = 100n; i < 160n; i++) ids721.push(i);
    for (const id of ids) ids1155.push(id);
    await checkCounters();

    // Holders equal balanceOf, item for item, across pages.
    const key = (i: Record<string, unknown>) =>
      `${(i.address as { hash: string }).hash.toLowerCase()}|${i.token_id ?? ""}|${i.value}`;
    const coinHolders = (await walk(`/api/v2/tokens/${coin}/holders`, FrontendTokenHolders)).map(key);
    const coinTruth: string[] = [];
    for (const a of [...acct, ...many]) {
      const b = word(await read(url, coin, "TestCoin", "balanceOf", [a]))!;
      if (b > 0n) coinTruth.push(`${a}||${b}`);
    }
    expect(coinHolders.length).toBeGreaterThan(50);
    expect([...coinHolders].sort()).toEqual(coinTruth.sort());
    const values = coinHolders.map((k) => BigInt(k.split("|")[2]!));
    expect(values).toEqual([...values].sort((x, y) => (x < y ? 1 : x > y ? -1 : 0)));

    const nftTruth = new Map<string, number>();
    for (const id of ids721) {
      const o = await read(url, nft, "TestNft", "ownerOf", [id]);
      if (o) nftTruth.set(`0x${o.slice(26)}`, (nftTruth.get(`0x${o.slice(26)}`) ?? 0) + 1);
    }
    const nftHolders = await walk(`/api/v2/tokens/${nft}/holders`, FrontendTokenHolders);
    expect(nftHolders.map(key).sort()).toEqual([...nftTruth].map(([a, n]) => `${a}||${n}`).sort());

    const multiTruth: string[] = [];
    for (const a of acct)
      for (const id of ids1155) {
        const b = word(await read(url, multi, "Test1155", "balanceOf", [id, a]))!;
        if (b > 0n) multiTruth.push(`${a}|${id}|${b}`);
      }
    const multiHolders = await walk(`/api/v2/tokens/${multi}/holders`, FrontendTokenHolders);
    expect(multiHolders.length).toBeGreaterThan(50);
    expect(multiHolders.map(key).sort()).toEqual(multiTruth.sort());

    const hybridTruth: string[] = [];
    for (const a of acct) {
      const b = word(await read(url, hybrid, "Test404", "erc20BalanceOf", [a]))!;
      if (b > 0n) hybridTruth.push(`${a}||${b}`);
    }
    expect((await walk(`/api/v2/tokens/${hybrid}/holders`, FrontendTokenHolders)).map(key).sort()).toEqual(
      hybridTruth.sort(),
    );

    // Counters: the node's holders; transfers as a recount of the events.
    const counters = await storedAndRecounted();
    for (const [token, holders] of [
      [coin, coinTruth.length],
      [nft, nftTruth.size],
      [hybrid, hybridTruth.length],
    ] as const) {
      const r = await get(`/api/v2/tokens/${token}/counters`);
      expect(Value.Check(FrontendTokenCounters, r.body)).toBe(true);
      expect(r.body).toEqual({ token_holders_count: String(holders), transfers_count: counters[token]!.tc });
    }

    // Inventory: every id ever minted, id descending, owners from ownerOf (a burned id has none).
    const inventory = await walk(`/api/v2/tokens/${nft}/instances`, FrontendTokenInventory);
    expect(inventory.map((i) => i.id)).toEqual([...ids721].sort((x, y) => (x < y ? 1 : -1)).map(String));
    for (const i of inventory) {
      const o = await read(url, nft, "TestNft", "ownerOf", [BigInt(i.id as string)]);
      expect((i.owner as { hash: string } | null)?.hash.toLowerCase() ?? null, `id ${i.id}`).toBe(
        o ? `0x${o.slice(26)}` : null,
      );
    }

    // Instance holders and transfer counts.
    const idHolders = await walk(`/api/v2/tokens/${multi}/instances/1/holders`, FrontendTokenHolders);
    expect(idHolders.map(key).sort()).toEqual(multiTruth.filter((k) => k.split("|")[1] === "1").sort());
    const tc = await get(`/api/v2/tokens/${nft}/instances/1/transfers-count`);
    expect(Value.Check(FrontendTokenInstanceTransfersCount, tc.body)).toBe(true);
    const [{ n }] = (await t.db.query<{ n: string }>(
      "select count(*)::text as n from token_transfers where token_address = $1 and token_id = 1",
      [Buffer.from(nft.slice(2), "hex")],
    )) as [{ n: string }];
    expect(tc.body.transfers_count).toBe(Number(n));
    expect(tc.body.transfers_count).toBe(2);

    // 404s: unknown token, ERC-20 inventory; 422s: malformed input.
    const unknown = `0x${"ab".repeat(20)}`;
    for (const u of [
      `/api/v2/tokens/${unknown}/counters`,
      `/api/v2/tokens/${unknown}/holders`,
      `/api/v2/tokens/${coin}/instances`,
      `/api/v2/tokens/${coin}/instances/1/holders`,
      `/api/v2/tokens/${coin}/instances/1/transfers-count`,
    ])
      expect((await get(u)).status, u).toBe(404);
    for (const u of [
      `/api/v2/tokens?type=ERC-999`,
      `/api/v2/tokens/${nft}/holders?value=x&address_hash=${A}`,
    ])
      expect((await get(u)).status, u).toBe(422);

    // The list: holders descending, then name, then address; q and type filter.
    const list = await walk("/api/v2/tokens", FrontendTokensResponse);
    const order = list.map((i) => [
      Number(i.holders_count),
      i.name,
      (i.address_hash as string).toLowerCase(),
    ]);
    const sorted = [...order].sort(
      (x, y) =>
        (y[0] as number) - (x[0] as number) ||
        (x[1] === null ? 1 : 0) - (y[1] === null ? 1 : 0) ||
        String(x[1] ?? "").localeCompare(String(y[1] ?? "")) ||
        String(x[2]).localeCompare(String(y[2])),
    );
    expect(order).toEqual(sorted);
    expect(list).toHaveLength(5);
    const erc721 = await walk("/api/v2/tokens?type=ERC-721", FrontendTokensResponse);
    expect(erc721.map((i) => i.type)).toEqual(["ERC-721", "ERC-721"]);
    const found = await walk("/api/v2/tokens?q=test%20coin", FrontendTokensResponse);
    expect(found.map((i) => (i.address_hash as string).toLowerCase())).toEqual([coin]);
    expect((await walk(`/api/v2/tokens?q=${nft}`, FrontendTokensResponse)).map((i) => i.name)).toEqual([
      "Things",
    ]);
    // 48 more coins (same name, one holder each): the list pages on the address tiebreak without gaps or repeats.
    for (let i = 0; i < 48; i++) await deploy(url, A, "TestCoin", [1000n]);
    await sync();
    const long = await walk("/api/v2/tokens", FrontendTokensResponse);
    const addresses = long.map((i) => (i.address_hash as string).toLowerCase());
    expect(long).toHaveLength(53);
    expect(new Set(addresses).size).toBe(53);
    const longOrder = long.map((i) => [
      Number(i.holders_count),
      i.name,
      (i.address_hash as string).toLowerCase(),
    ]);
    expect(longOrder).toEqual(
      [...longOrder].sort(
        (x, y) =>
          (y[0] as number) - (x[0] as number) ||
          String(x[1] ?? "").localeCompare(String(y[1] ?? "")) ||
          String(x[2]).localeCompare(String(y[2])),
      ),
    );
  });
});
