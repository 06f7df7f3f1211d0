import { Value } from "@sinclair/typebox/value";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { TokenTransferResponseSchema } from "../../src/explorer/token-transfer/schema.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { refreshTokenProperties } from "../../src/token-workers/properties.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke, walkNft } from "../helpers/tokens.js";

const ORDER = ["ERC-721", "ERC-1155", "ERC-404"];

// Frontend types quoted in the spec notes (§6): the keys every object must carry.
const ADDRESS_KEYS = [
  "ens_domain_name",
  "hash",
  "implementations",
  "is_contract",
  "is_verified",
  "metadata",
  "name",
  "private_tags",
  "proxy_type",
  "public_tags",
  "reputation",
  "watchlist_names",
];
const TOKEN_KEYS = [
  "address_hash",
  "circulating_market_cap",
  "decimals",
  "exchange_rate",
  "holders_count",
  "icon_url",
  "name",
  "symbol",
  "total_supply",
  "type",
];
const ITEM_KEYS = [
  "animation_url",
  "external_app_url",
  "holder_address_hash",
  "id",
  "image_url",
  "is_unique",
  "media_type",
  "media_url",
  "metadata",
  "owner",
  "thumbnails",
  "token",
  "token_type",
  "value",
];

describe("GET /api/v2/addresses/{h}/nft", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let holder: Address;
  let expected: string[];
  let proxy: Address;
  let hybrid404: Address;

  beforeAll(async () => {
    chain = await startTestChain();
    const url = chain.anvil.url;
    const [A, H] = chain.accounts.map((a) => a.address.toLowerCase() as Address) as [Address, Address];
    holder = H;
    t = await createTestDb();
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
    const nftA = await deploy(url, A, "TestNft", ["Alpha", "A", ""]);
    const nftB = await deploy(url, A, "TestNft", ["Beta", "B", ""]);
    const m1 = await deploy(url, A, "Test1155", [""]);
    const m2 = await deploy(url, A, "Test1155", [""]);
    const h = await deploy(url, A, "Test404", [""]);
    hybrid404 = h;
    proxy = await deploy(url, A, "TestProxy", [nftA]);
    await invoke(url, A, nftA, "TestNft", "mintMany", [H, 1n, 48n]);
    await invoke(url, A, nftB, "TestNft", "mintMany", [H, 1000n, 5n]);
    const ids = Array.from({ length: 40 }, (_, i) => BigInt(i + 1));
    await invoke(url, A, m1, "Test1155", "mintBatch", [H, ids, ids.map(() => 2n)]);
    await invoke(url, A, m2, "Test1155", "mintBatch", [H, ids.slice(0, 15), ids.slice(0, 15).map(() => 1n)]);
    await invoke(url, A, h, "Test404", "mintUnits", [H, 7n]);
    const indexer = await createTestIndexer(t.db, url, {
      extensions: [createTokensExtension(), createProxiesExtension()],
    });
    await indexToHead(indexer, t.db, url);
    const rpc = createRpc({ url, batchSize: 50, timeoutMs: 5000, retries: 1 });
    while ((await refreshTokenProperties(t.db, rpc)) > 0);
    const sorted = (token: Address, type: string, list: bigint[]) =>
      [...list].sort((a, b) => (a < b ? 1 : -1)).map((id) => `${type}|${token}|${id}`);
    const byContract = (pairs: Array<[Address, string[]]>) =>
      pairs.sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([, v]) => v);
    expected = [
      ...byContract([
        [
          nftA,
          sorted(
            nftA,
            "ERC-721",
            Array.from({ length: 48 }, (_, i) => BigInt(i + 1)),
          ),
        ],
        [nftB, sorted(nftB, "ERC-721", [1000n, 1001n, 1002n, 1003n, 1004n])],
      ]),
      ...byContract([
        [m1, sorted(m1, "ERC-1155", ids)],
        [m2, sorted(m2, "ERC-1155", ids.slice(0, 15))],
      ]),
      ...sorted(h, "ERC-404", [1n, 2n, 3n, 4n, 5n, 6n, 7n]),
    ];
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
  });

  const subsets = [
    [],
    ["ERC-721"],
    ["ERC-1155"],
    ["ERC-404"],
    ["ERC-721", "ERC-1155"],
    ["ERC-721", "ERC-404"],
    ["ERC-1155", "ERC-404"],
    ORDER,
  ];

  it("walks every type combination in the fixed order, without duplicates or gaps", async () => {
    for (const s of subsets) {
      // "[]" is no list of known labels: a 422 upstream (its pattern), so the empty subset is only "".
      for (const form of s.length ? [s.join(","), `[${[...s].reverse().join(",")}]`] : [""]) {
        const { items, pages } = await walkNft(app, holder, form);
        const got = items.map((i) => `${i.token_type}|${i.token.address_hash.toLowerCase()}|${i.id}`);
        const want = s.length ? expected.filter((e) => s.includes(e.split("|")[0]!)) : expected;
        expect(got, `type=${form}`).toEqual(want);
        expect(pages.slice(0, -1).every((n) => n === 50)).toBe(true);
      }
    }
  });

  it("serves the shapes the frontend expects", async () => {
    const res = await app.inject(`/api/v2/addresses/${holder.toUpperCase().replace("0X", "0x")}/nft`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body.next_page_params).sort()).toEqual([
      "items_count",
      "token_contract_address_hash",
      "token_id",
      "token_type",
    ]);
    expect(body.next_page_params.items_count).toBe(50);
    expect(typeof body.next_page_params.token_id).toBe("string");
    for (const item of body.items) {
      for (const k of ITEM_KEYS) expect(item).toHaveProperty(k);
      for (const k of TOKEN_KEYS) expect(item.token).toHaveProperty(k);
      expect(item.is_unique).toBe(true);
      for (const k of ADDRESS_KEYS) expect(item.owner).toHaveProperty(k);
      expect(item.owner.hash).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(item.owner.hash).not.toBe(item.owner.hash.toLowerCase());
      expect(item.value).toBe("1");
    }
    const first = body.items[0];
    expect(first.token).toMatchObject({ name: "Alpha", symbol: "A", type: "ERC-721", holders_count: "1" });
    const { items } = await walkNft(app, holder, "ERC-1155");
    expect(items[0]).toMatchObject({ value: "2", is_unique: false, owner: null });
    const hybrid = (await walkNft(app, holder, "ERC-404")).items[0]!;
    expect(hybrid).toMatchObject({ value: (10n ** 18n).toString(), is_unique: true });
    expect((hybrid.token as Record<string, unknown>).decimals).toBe("18");
  });

  it("ERC-404 transfers: the fungible side carries the value, the NFT side its id and no value (as Blockscout)", async () => {
    const r = await app.inject({ url: `/api/v2/tokens/${hybrid404}/transfers` });
    expect(r.statusCode).toBe(200);
    expect([...Value.Errors(TokenTransferResponseSchema, r.json())].map((e) => e.path)).toEqual([]);
    const items = r.json().items as Array<{ token_type: string; total: Record<string, unknown> }>;
    // mintUnits(H, 7): one ERC20Transfer of 7 units, seven ERC721Transfer of ids 1..7.
    expect(items.every((i) => i.token_type === "ERC-404")).toBe(true);
    const fungible = items.filter((i) => i.total.token_id === null);
    const nfts = items.filter((i) => i.total.token_id !== null);
    expect(fungible.map((i) => i.total)).toEqual([
      { value: (7n * 10n ** 18n).toString(), decimals: "18", token_id: null, token_instance: null },
    ]);
    expect(nfts.map((i) => i.total.token_id).sort()).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
    for (const n of nfts)
      expect(n.total).toMatchObject({ value: null, token_instance: { id: n.total.token_id } });
  });

  it("search: an ERC-404's total_supply in whole units (the frontend's 'Items N'), the token page keeps the raw supply", async () => {
    const token = (await app.inject({ url: `/api/v2/tokens/${hybrid404}` })).json();
    expect(token.total_supply).toBe((7n * 10n ** 18n).toString());
    for (const url of [
      "/api/v2/search?q=Test%20Hybrid",
      "/api/v2/search/quick?q=Test%20Hybrid",
      `/api/v2/search?q=${hybrid404}`,
    ]) {
      const r = await app.inject({ url });
      const body = r.json();
      const items = (Array.isArray(body) ? body : body.items) as Array<{
        type: string;
        token_type?: string;
        total_supply?: string;
      }>;
      const hit = items.find((i) => i.type === "token" && i.token_type === "ERC-404");
      expect(hit?.total_supply, url).toBe("7");
    }
  });

  it("answers 422 on malformed input and an empty page for an unknown address", async () => {
    const bad = [
      ["/api/v2/addresses/0x1234/nft", "/address_hash_param"],
      [`/api/v2/addresses/${holder}/nft?type=FOO`, "/type"],
      [`/api/v2/addresses/${holder}/nft?items_count=0`, "/items_count"],
      [`/api/v2/addresses/${holder}/nft?token_id=abc&token_contract_address_hash=${holder}`, "/token_id"],
      [
        `/api/v2/addresses/${holder}/nft?token_contract_address_hash=0x12&token_id=1`,
        "/token_contract_address_hash",
      ],
      [
        `/api/v2/addresses/${holder}/nft?token_contract_address_hash=${holder}&token_id=1&token_type=ERC-20`,
        "/token_type",
      ],
    ];
    for (const [u, pointer] of bad) {
      const res = await app.inject(u!);
      expect(res.statusCode, u).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ title: "Invalid value", source: { pointer } });
    }
    const unknown = await app.inject(`/api/v2/addresses/0x${"ab".repeat(20)}/nft`);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ items: [], next_page_params: null });
  });

  it("builds address objects and the address page", async () => {
    const res = await app.inject(`/api/v2/addresses/${proxy}`);
    expect(res.statusCode).toBe(200);
    const a = res.json();
    for (const k of [
      ...ADDRESS_KEYS,
      "coin_balance",
      "creator_address_hash",
      "creation_transaction_hash",
      "token",
      "has_tokens",
      "has_token_transfers",
    ])
      expect(a).toHaveProperty(k);
    expect(a).toMatchObject({
      is_contract: true,
      proxy_type: "eip1967",
      is_verified: false,
      is_scam: false,
      reputation: "ok",
    });
    expect(a.implementations).toHaveLength(1);
    expect(a.creation_transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const h = (await app.inject(`/api/v2/addresses/${holder}`)).json();
    expect(h).toMatchObject({ is_contract: false, has_tokens: true, has_token_transfers: true, token: null });
    expect(h.has_validated_blocks).toBe(false);
    // The block producer of the indexed blocks (anvil's coinbase) has validated blocks.
    const [block] = await t.db.query<{ miner: Uint8Array }>(
      "select miner from blocks order by number desc limit 1",
    );
    const producer = (
      await app.inject(`/api/v2/addresses/0x${Buffer.from(block!.miner).toString("hex")}`)
    ).json();
    expect(producer.has_validated_blocks).toBe(true);
    const stub = (await app.inject(`/api/v2/addresses/0x${"cd".repeat(20)}`)).json();
    expect(stub).toMatchObject({ is_contract: false, has_tokens: false, name: null, coin_balance: null });
    const collections = (await app.inject(`/api/v2/addresses/${holder}/nft/collections`)).json();
    expect(collections.items.map((c: { token: { type: string } }) => c.token.type)).toEqual([
      "ERC-721",
      "ERC-721",
      "ERC-1155",
      "ERC-1155",
      "ERC-404",
    ]);
    expect(collections.items[0].token_instances.length).toBeLessThanOrEqual(9);
  });
});
