import Fastify from "fastify";
import { type Address, getAddress, type Hex, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import type { Queryable } from "../../src/db/db.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import type { MultichainChain } from "../../src/multichain/chains.js";
import { MISSING_CHAINS_HEADER, multichainRoutes } from "../../src/multichain/routes.js";
import { refreshTokenProperties } from "../../src/token-workers/properties.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke } from "../helpers/tokens.js";

// Two anvil chains of different chain ids, each indexed into its own database as a one-chain deployment does, and
// the multichain aggregator's API over both (plus, where a test says so, a chain whose database fails).

type Indexed = { chain: TestChain; db: TestDb; url: string };

async function indexChain(chain: TestChain): Promise<Indexed> {
  const url = chain.anvil.url;
  const db = await createTestDb();
  const indexer = await createTestIndexer(db.db, url, {
    extensions: [...explorerExtensions(), coinBalanceExtension(), currentBalancesExtension()],
  });
  await indexToHead(indexer, db.db, url);
  const r = createRpc({ url, batchSize: 50, timeoutMs: 10_000, retries: 1 });
  while ((await refreshTokenProperties(db.db, r)) > 0);
  return { chain, db, url };
}

async function eth(url: string, from: Address, to: Address, v: string): Promise<Hex> {
  const hash = await rpc<Hex>(url, "eth_sendTransaction", [
    { from, to, value: `0x${parseEther(v).toString(16)}` },
  ]);
  await waitForReceipt(url, hash);
  return hash;
}

const ID1 = "31337";
const ID2 = "31338";
const BROKEN = "31339";

let one: Indexed;
let two: Indexed;
let broken: TestDb;
let app: App;
let A: Address;
let B: Address;
let C: Address;
let tx1: Hex;
let tx2: Hex;
let coin: Address;
let nft: Address;
const chains: MultichainChain[] = [];

type Json = Record<string, any>;
async function get(path: string, a: { inject: App["inject"] } = app) {
  const res = await a.inject({ method: "GET", url: `/multichain${path}` });
  return { status: res.statusCode, body: res.json() as Json, missing: res.headers[MISSING_CHAINS_HEADER] };
}

beforeAll(async () => {
  const [c1, c2] = await Promise.all([
    startTestChain({ chainId: 31337 }),
    startTestChain({ chainId: 31338 }),
  ]);
  try {
    const acct = c1.anvil.accounts.slice(0, 2).map((a) => a.address.toLowerCase() as Address);
    [A, B] = acct as [Address, Address];
    // Not one of anvil's funded accounts (those hold a balance on every chain from genesis).
    C = "0x00000000000000000000000000000000000c0ffe";
    tx1 = await eth(c1.anvil.url, A, B, "1");
    coin = await deploy(c1.anvil.url, A, "TestCoin", [10n ** 24n]);
    await invoke(c1.anvil.url, A, coin, "TestCoin", "transfer", [B, 10n ** 18n]);
    // Two transfers first on chain 2: the NFT gets another address than the coin (same deployer, another nonce).
    tx2 = await eth(c2.anvil.url, A, C, "2");
    await eth(c2.anvil.url, A, C, "1");
    nft = await deploy(c2.anvil.url, A, "TestNft", ["Things", "THG", ""]);
    await invoke(c2.anvil.url, A, nft, "TestNft", "mint", [C, 7n]);
    [one, two] = await Promise.all([indexChain(c1), indexChain(c2)]);
  } catch (e) {
    await Promise.all([c1.stop(), c2.stop()]);
    throw e;
  }
  broken = await createTestDb();
  chains.push({ id: ID2, name: "Two", db: two.db.db }, { id: ID1, name: "One", db: one.db.db });
  app = await buildApp({
    db: one.db.db,
    config: { bodyLimit: 1e6 },
    logger: false,
    multichainChains: () => chains,
  });
});

afterAll(async () => {
  await app?.close();
  await broken?.drop().catch(() => {});
  for (const x of [one, two]) {
    await x?.db.drop();
    await x?.chain.stop();
  }
});

const balanceOf = async (url: string, a: Address) =>
  BigInt(await rpc<Hex>(url, "eth_getBalance", [a, "latest"]));

describe("multichain aggregator API over two chains", () => {
  it("lists the chains in chain-id order", async () => {
    const r = await get("/api/v1/chains");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      items: [
        { id: ID1, name: "One", explorer_url: "", icon_url: "" },
        { id: ID2, name: "Two", explorer_url: "", icon_url: "" },
      ],
    });
    expect((await get("/api/v1/clusters/lookout/chains")).body).toEqual(r.body);
  });

  it("finds a transaction on the chain that has it, and only there", async () => {
    for (const [hash, id] of [
      [tx1, ID1],
      [tx2, ID2],
    ] as const) {
      const r = await get(`/api/v1/search:quick?q=${hash}`);
      expect(r.status).toBe(200);
      expect(r.body.transactions).toEqual([{ hash, hash_type: "HASH_TYPE_TRANSACTION", chain_id: id }]);
      expect(r.body.blocks).toEqual([]);
      expect(r.missing).toBeUndefined();
      const list = await get(`/api/v1/transactions?q=${hash}`);
      expect(list.body).toEqual({
        items: [{ hash, hash_type: "HASH_TYPE_TRANSACTION", chain_id: id }],
        next_page_params: null,
      });
    }
  });

  it("finds a block by hash on its chain, and a block number on both", async () => {
    const b = await rpc<{ hash: Hex }>(two.url, "eth_getBlockByNumber", ["0x1", false]);
    const r = await get(`/api/v1/search:quick?q=${b.hash}`);
    expect(r.body.blocks).toEqual([{ hash: b.hash, hash_type: "HASH_TYPE_BLOCK", chain_id: ID2 }]);
    expect(r.body.transactions).toEqual([]);
    expect((await get(`/api/v1/blocks?q=${b.hash}`)).body.items).toEqual(r.body.blocks);
    const n = await get("/api/v1/search:quick?q=1");
    expect(n.body.block_numbers).toEqual([
      { chain_id: ID1, block_number: "1" },
      { chain_id: ID2, block_number: "1" },
    ]);
    // Chain 1 has 3 blocks after genesis, chain 2 has 4.
    expect((await get("/api/v1/search:quick?q=4")).body.block_numbers).toEqual([
      { chain_id: ID2, block_number: "4" },
    ]);
    expect((await get("/api/v1/search:quick?q=5")).body.block_numbers).toEqual([]);
  });

  it("finds tokens by name, symbol and address on their chain", async () => {
    const byName = await get("/api/v1/search:quick?q=Test%20Coin");
    expect(byName.body.tokens).toEqual([
      {
        address: getAddress(coin),
        icon_url: null,
        name: "Test Coin",
        symbol: "TCN",
        chain_id: ID1,
        is_verified_contract: false,
      },
    ]);
    expect(byName.body.nfts).toEqual([]);
    const nftHit = await get("/api/v1/search:quick?q=THG");
    expect(nftHit.body.tokens.map((t: Json) => [t.address, t.chain_id])).toEqual([[getAddress(nft), ID2]]);
    expect(nftHit.body.nfts).toMatchObject([
      {
        hash: getAddress(nft),
        chain_id: ID2,
        token_type: "TOKEN_TYPE_ERC_721",
        is_token: true,
        token_name: "Things",
      },
    ]);
    const byAddress = await get(`/api/v1/search:quick?q=${coin}`);
    expect(byAddress.body.tokens.map((t: Json) => t.chain_id)).toEqual([ID1]);
    expect(byAddress.body.addresses).toEqual([
      {
        hash: getAddress(coin),
        domain_info: null,
        contract_name: null,
        token_name: "Test Coin",
        token_type: "TOKEN_TYPE_ERC_20",
        is_contract: true,
        is_verified_contract: false,
        is_token: true,
        chain_id: ID1,
      },
    ]);
    const list = await get("/api/v1/tokens?q=thin");
    expect(list.body.items.map((t: Json) => [t.name, t.chain_id])).toEqual([["Things", ID2]]);
  });

  it("shows an address on every chain it is on, with each chain's balance", async () => {
    const q = await get(`/api/v1/search:quick?q=${A}`);
    expect(q.body.addresses.map((a: Json) => [a.hash, a.chain_id, a.is_contract])).toEqual([
      [getAddress(A), ID1, false],
      [getAddress(A), ID2, false],
    ]);
    const r = await get(`/api/v1/clusters/lookout/addresses/${A}`);
    expect(r.status).toBe(200);
    const [b1, b2] = await Promise.all([balanceOf(one.url, A), balanceOf(two.url, A)]);
    expect(r.body).toEqual({
      hash: getAddress(A),
      chain_infos: {
        [ID1]: { coin_balance: b1.toString(), is_contract: false, is_verified: false, contract_name: null },
        [ID2]: { coin_balance: b2.toString(), is_contract: false, is_verified: false, contract_name: null },
      },
      has_tokens: true,
      has_interop_message_transfers: false,
      coin_balance: (b1 + b2).toString(),
      exchange_rate: null,
      domains: [],
    });
    // C received on chain 2 only; the token contract is on chain 1 only.
    const c = await get(`/api/v1/clusters/lookout/addresses/${C}`);
    expect(Object.keys(c.body.chain_infos)).toEqual([ID2]);
    expect(c.body.coin_balance).toBe((await balanceOf(two.url, C)).toString());
    const k = await get(`/api/v1/clusters/lookout/addresses/${coin}`);
    expect(k.body.chain_infos).toEqual({
      [ID1]: { coin_balance: "0", is_contract: true, is_verified: false, contract_name: null },
    });
    const nobody = await get("/api/v1/clusters/lookout/addresses/0x00000000000000000000000000000000000000aa");
    expect(nobody.body).toMatchObject({ chain_infos: {}, coin_balance: "0", has_tokens: false });
  });

  it("the cluster's quick search: an address as one answer across chains, tokens as aggregated infos", async () => {
    const a = await get(`/api/v1/clusters/lookout/search:quick?q=${A}`);
    expect(a.status).toBe(200);
    expect(a.body.addresses).toEqual([(await get(`/api/v1/clusters/lookout/addresses/${A}`)).body]);
    expect(Object.keys(a.body.addresses[0].chain_infos)).toEqual([ID1, ID2]);
    const t = await get("/api/v1/clusters/lookout/search:quick?q=THG");
    expect(t.body.nfts).toEqual([
      {
        address_hash: getAddress(nft),
        circulating_market_cap: null,
        decimals: null,
        holders_count: null,
        icon_url: null,
        name: "Things",
        symbol: "THG",
        // TestNft has no totalSupply(): none indexed.
        total_supply: null,
        type: "TOKEN_TYPE_ERC_721",
        exchange_rate: null,
        chain_infos: {
          [ID2]: { holders_count: null, total_supply: null, is_verified: false, contract_name: null },
        },
      },
    ]);
    expect(t.body.tokens).toEqual(t.body.nfts);
    const h = await get(`/api/v1/clusters/lookout/search:quick?q=${tx2}`);
    expect(h.body.transactions).toEqual([{ hash: tx2, hash_type: "HASH_TYPE_TRANSACTION", chain_id: ID2 }]);
    expect(h.body.addresses).toEqual([]);
  });

  it("pages with the aggregator's page tokens, each page after the last", async () => {
    const walk = async (path: string) => {
      const seen: Json[] = [];
      let token: string | null = null;
      for (let i = 0; i < 10; i++) {
        const r: Awaited<ReturnType<typeof get>> = await get(
          `${path}&page_size=1${token ? `&page_token=${encodeURIComponent(token)}` : ""}`,
        );
        expect(r.status).toBe(200);
        expect(r.body.items.length).toBeLessThanOrEqual(1);
        seen.push(...r.body.items);
        if (!r.body.next_page_params) return seen;
        expect(r.body.next_page_params.page_size).toBe(1);
        token = r.body.next_page_params.page_token;
      }
      throw new Error("paging did not end");
    };
    const numbers = await walk("/api/v1/block-numbers?q=2");
    expect(numbers).toEqual([
      { chain_id: ID1, block_number: "2" },
      { chain_id: ID2, block_number: "2" },
    ]);
    const addresses = await walk(`/api/v1/addresses?q=${A}`);
    expect(addresses.map((a) => a.chain_id)).toEqual([ID1, ID2]);
    const all = (await get("/api/v1/tokens?q=")).body.items;
    expect(all.map((t: Json) => t.chain_id)).toEqual([ID1, ID2]);
    expect(await walk("/api/v1/tokens?q=")).toEqual(all);
    // A chain filter keeps the others out.
    const only2 = await get(`/api/v1/tokens?chain_id=${ID2}`);
    expect(only2.body.items.map((t: Json) => t.name)).toEqual(["Things"]);
    const both = await get(`/api/v1/block-numbers?q=1&chain_id=${ID2},${ID1}`);
    expect(both.body.items.map((b: Json) => b.chain_id)).toEqual([ID1, ID2]);
  });

  it("answers bad input with the aggregator's {code, message} and a 4xx", async () => {
    const bad = async (path: string, status: number, code: number, message: RegExp) => {
      const r = await get(path);
      expect(r.status, path).toBe(status);
      expect(r.body, path).toEqual({ code, message: expect.stringMatching(message) });
    };
    await bad("/api/v1/tokens?page_token=%21%21", 400, 3, /invalid page_token/);
    await bad(
      `/api/v1/tokens?page_token=${Buffer.from('["1"]').toString("base64url")}`,
      400,
      3,
      /page_token/,
    );
    await bad("/api/v1/tokens?page_size=ten", 400, 3, /page_size/);
    await bad("/api/v1/tokens?chain_id=abc", 400, 3, /invalid value abc/);
    await bad("/api/v1/tokens?chain_id=1", 400, 3, /invalid cluster chain id: 1/);
    await bad("/api/v1/search:quick?q=x&unlimited_per_chain=maybe", 400, 3, /unlimited_per_chain/);
    await bad(`/api/v1/clusters/other/addresses/${A}`, 404, 5, /cluster not found: other/);
    await bad("/api/v1/clusters/lookout/addresses/0x1234", 400, 3, /invalid value 0x1234/);
    await bad("/api/v1/nowhere", 404, 5, /./);
    // The colon written encoded, as some clients send it.
    expect((await get(`/api/v1/search%3Aquick?q=${tx1}`)).body.transactions).toHaveLength(1);
  });

  it("answers without a chain whose database fails, naming it as missing", async () => {
    await broken.drop();
    chains.push({ id: BROKEN, name: "Broken", db: broken.db });
    try {
      expect((await get("/api/v1/chains")).body.items.map((c: Json) => c.id)).toEqual([ID1, ID2, BROKEN]);
      const q = await get(`/api/v1/search:quick?q=${tx1}`);
      expect(q.status).toBe(200);
      expect(q.body.transactions.map((t: Json) => t.chain_id)).toEqual([ID1]);
      expect(q.missing).toBe(BROKEN);
      const a = await get(`/api/v1/clusters/lookout/addresses/${A}`);
      expect(a.status).toBe(200);
      expect(Object.keys(a.body.chain_infos)).toEqual([ID1, ID2]);
      expect(a.missing).toBe(BROKEN);
      const n = await get("/api/v1/block-numbers?q=1");
      expect(n.body.items.map((b: Json) => b.chain_id)).toEqual([ID1, ID2]);
      expect(n.missing).toBe(BROKEN);
    } finally {
      chains.pop();
    }
  });

  it("answers without a chain that does not answer in time", async () => {
    const hung: Queryable = { query: () => new Promise(() => {}), exec: async () => {} };
    const bare = Fastify();
    await bare.register(multichainRoutes, {
      prefix: "/multichain",
      chains: () => [...chains, { id: BROKEN, name: "Hung", db: hung }],
      limits: { timeoutMs: 3_000, concurrency: 2 },
    });
    try {
      const q = await get(`/api/v1/search:quick?q=${tx2}`, bare as never);
      expect(q.status).toBe(200);
      expect(q.body.transactions.map((t: Json) => t.chain_id)).toEqual([ID2]);
      expect(q.missing).toBe(BROKEN);
    } finally {
      await bare.close();
    }
  });

  it("serves today's one chain when the app is given no chain list", async () => {
    const single = await buildApp({
      db: two.db.db,
      config: { bodyLimit: 1e6, chainName: "Solo" },
      logger: false,
    });
    try {
      expect((await get("/api/v1/chains", single)).body.items).toEqual([
        { id: ID2, name: "Solo", explorer_url: "", icon_url: "" },
      ]);
      expect((await get(`/api/v1/search:quick?q=${tx2}`, single)).body.transactions).toHaveLength(1);
      expect((await get(`/api/v1/search:quick?q=${tx1}`, single)).body.transactions).toEqual([]);
    } finally {
      await single.close();
    }
  });
});
