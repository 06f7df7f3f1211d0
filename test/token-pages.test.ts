import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRpc } from "../src/chain/rpc.js";
import { type App, buildApp } from "../src/http/app.js";
import { createTokensExtension } from "../src/indexer/tokens/extension.js";
import { refreshTokenProperties } from "../src/tokens/properties.js";
import { rpc } from "./helpers/activity.js";
import { startTestChain, type TestChain } from "./helpers/anvil.js";
import { createTestDb, type TestDb } from "./helpers/db.js";
import { createTestIndexer, indexToHead } from "./helpers/indexer.js";
import { deploy, invoke, read, walkNft } from "./helpers/tokens.js";

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
});
