import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import type { IndexerExtension } from "../../src/indexer/pipeline/extension.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";
import { deploy, holdingKey, invoke, read, walkNft } from "../helpers/tokens.js";

const TOKEN_TABLES = [
  "tokens",
  "token_transfers",
  "token_holdings",
  "token_fungible_balances",
  "token_instances",
];
const E18 = 10n ** 18n;

describe("token holdings", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let url: string;
  let acct: Address[];
  let nft: Address;
  let multi: Address;
  let hybrid: Address;
  let indexer: Awaited<ReturnType<typeof createTestIndexer>>;
  const ext = createTokensExtension();
  const ids721 = [1n, 2n, 3n, 4n, 5n];
  const ids1155 = [1n, 2n, 3n, 4n];

  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
    acct = chain.accounts.slice(0, 5).map((a) => a.address.toLowerCase() as Address);
    t = await createTestDb();
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
    nft = await deploy(url, acct[0]!, "TestNft", ["Things", "THG", "https://meta.example/"]);
    multi = await deploy(url, acct[0]!, "Test1155", ["https://meta.example/{id}.json"]);
    hybrid = await deploy(url, acct[0]!, "Test404", ["https://meta.example/h/"]);
    await deploy(url, acct[0]!, "TestCoin", [10n ** 24n]);
    indexer = await createTestIndexer(t.db, url, { extensions: [ext, createProxiesExtension()] });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
  });

  /** Holdings the contracts themselves report, per holder. */
  async function contractHoldings(): Promise<Map<Address, string[]>> {
    const out = new Map<Address, string[]>(acct.map((a) => [a, []]));
    for (const id of ids721) {
      const o = await read(url, nft, "TestNft", "ownerOf", [id]);
      if (o) out.get(`0x${o.slice(26)}` as Address)?.push(holdingKey("ERC-721", nft, id, 1n));
    }
    for (const a of acct) {
      for (const id of ids1155) {
        const b = BigInt((await read(url, multi, "Test1155", "balanceOf", [id, a]))!);
        if (b > 0n) out.get(a)!.push(holdingKey("ERC-1155", multi, id, b));
      }
      const owned = (await read(url, hybrid, "Test404", "owned721", [a]))!;
      const n = Number(BigInt(`0x${owned.slice(66, 130)}`));
      for (let i = 0; i < n; i++) {
        const id = BigInt(`0x${owned.slice(130 + i * 64, 194 + i * 64)}`);
        out.get(a)!.push(holdingKey("ERC-404", hybrid, id, 1n));
      }
    }
    for (const v of out.values()) v.sort();
    return out;
  }

  async function servedHoldings(): Promise<Map<Address, string[]>> {
    const out = new Map<Address, string[]>();
    for (const a of acct) {
      const { items } = await walkNft(app, a);
      out.set(a, items.map((i) => holdingKey(i.token_type, i.token.address_hash, i.id, i.value)).sort());
    }
    return out;
  }

  async function check() {
    await indexToHead(indexer, t.db, url);
    expect(await servedHoldings()).toEqual(await contractHoldings());
    // A holding that reached zero is gone, as a clean index would not have it (the pages filter it either way).
    const [zero] = await t.db.query<{ n: number }>(
      `select (select count(*) from token_holdings where value = 0)
         + (select count(*) from token_fungible_balances where value = 0)
         + (select count(*) from token_erc721_balances where value = 0) as n`,
    );
    expect(Number(zero!.n)).toBe(0);
  }

  it("follows mints, transfers, approvals, batches and burns exactly", async () => {
    const [A, B, C, D, E] = acct as [Address, Address, Address, Address, Address];
    await invoke(url, A, nft, "TestNft", "mintMany", [A, 1n, 5n]);
    await invoke(url, A, multi, "Test1155", "mint", [A, 1n, 10n]);
    await invoke(url, A, multi, "Test1155", "mintBatch", [B, [2n, 3n, 4n], [5n, 1n, 7n]]);
    await invoke(url, A, hybrid, "Test404", "mintUnits", [A, 3n]);
    await check();

    await invoke(url, A, nft, "TestNft", "transferFrom", [A, B, 1n]);
    await invoke(url, A, nft, "TestNft", "approve", [C, 2n]);
    await invoke(url, C, nft, "TestNft", "transferFrom", [A, D, 2n]);
    await invoke(url, A, nft, "TestNft", "setApprovalForAll", [E, true]);
    await invoke(url, E, nft, "TestNft", "safeTransferFrom", [A, C, 3n]);
    await check();

    await invoke(url, A, multi, "Test1155", "safeTransferFrom", [A, C, 1n, 4n, "0x"]);
    await invoke(url, B, multi, "Test1155", "safeBatchTransferFrom", [B, A, [2n, 3n], [5n, 1n], "0x"]);
    await invoke(url, B, multi, "Test1155", "setApprovalForAll", [D, true]);
    await invoke(url, D, multi, "Test1155", "safeTransferFrom", [B, E, 4n, 7n, "0x"]);
    await check();

    await invoke(url, A, nft, "TestNft", "burn", [4n]);
    await invoke(url, C, multi, "Test1155", "burn", [C, 1n, 4n]);
    await invoke(url, A, hybrid, "Test404", "transfer", [B, (3n * E18) / 2n]);
    const owned = (await read(url, hybrid, "Test404", "owned721", [A]))!;
    const remaining = BigInt(`0x${owned.slice(130, 194)}`);
    await invoke(url, A, hybrid, "Test404", "transferFrom", [A, C, remaining]);
    await check();

    // Token rows: types from events, holder counts current.
    const tokens = await t.db.query<{ type: string; holders_count: number }>(
      "select type, holders_count from tokens order by type",
    );
    expect(tokens.map((x) => x.type)).toEqual(["ERC-1155", "ERC-20", "ERC-404", "ERC-721"]);
    const nftHolders = await t.db.query<{ n: number }>(
      "select holders_count as n from tokens where address = $1",
      [Buffer.from(nft.slice(2), "hex")],
    );
    expect(Number(nftHolders[0]!.n)).toBe(new Set((await contractHoldingsOwners(nft)).values()).size);
  });

  async function contractHoldingsOwners(token: Address) {
    const owners = new Map<bigint, string>();
    for (const id of ids721) {
      const o = await read(url, token, "TestNft", "ownerOf", [id]);
      if (o) owners.set(id, o);
    }
    return owners;
  }

  it("skips and counts malformed token events without stopping", async () => {
    const bad = await deploy(url, acct[0]!, "Malformed");
    const before = ext.stats.malformed;
    await invoke(url, acct[0]!, bad, "Malformed", "emitBad");
    await check();
    expect(ext.stats.malformed - before).toBe(3);
  });

  it("restores holdings exactly after a reorganisation", async () => {
    const [A, B, C] = acct as [Address, Address, Address];
    await invoke(url, A, nft, "TestNft", "mint", [A, 105n]);
    ids721.push(105n);
    await check();
    const snapshot = await rpc<Hex>(url, "evm_snapshot");
    const before = await dumpTables(t.db, TOKEN_TABLES);
    // Blocks that will be orphaned: ownership moves, 1155 batch, 404 mint.
    await invoke(url, B, nft, "TestNft", "transferFrom", [B, C, 1n]);
    await invoke(url, A, multi, "Test1155", "mintBatch", [C, [1n, 2n], [3n, 3n]]);
    await invoke(url, A, hybrid, "Test404", "mintUnits", [C, 2n]);
    await invoke(url, A, nft, "TestNft", "burn", [105n]);
    await check();
    await rpc(url, "evm_revert", [snapshot]);
    // The reverted transactions are gone; the same heights get other (empty) blocks.
    await rpc(url, "anvil_mine", ["0x2"]);
    await indexToHead(indexer, t.db, url);
    expect(await dumpTables(t.db, TOKEN_TABLES)).toEqual(before);
    // The new branch then goes on with other activity.
    await invoke(url, A, multi, "Test1155", "mint", [B, 3n, 2n]);
    await check();
  });

  it("recovers from a crash in the middle of a batch", async () => {
    const [A, B] = acct as [Address, Address];
    let fail = true;
    const crash: IndexerExtension = {
      id: "test-crash",
      async write() {
        if (fail) {
          fail = false;
          throw new Error("simulated crash after the token rows were written");
        }
      },
      async revert() {},
    };
    const crashing = await createTestIndexer(t.db, url, { extensions: [ext, crash] });
    await invoke(url, A, multi, "Test1155", "safeTransferFrom", [A, B, 2n, 1n, "0x"]);
    await invoke(url, A, nft, "TestNft", "transferFrom", [A, B, 5n]);
    await expect(crashing.step()).rejects.toThrow(/simulated crash/);
    await indexToHead(crashing, t.db, url);
    expect(await servedHoldings()).toEqual(await contractHoldings());
    // Same rows as indexing everything from scratch into an empty database.
    const fresh = await createTestDb();
    try {
      const again = await createTestIndexer(fresh.db, url, { extensions: [createTokensExtension()] });
      await indexToHead(again, fresh.db, url);
      const strip = (d: Record<string, string[]>) => ({ ...d, tokens: [], token_instances: [] });
      expect(strip(await dumpTables(fresh.db, TOKEN_TABLES))).toEqual(
        strip(await dumpTables(t.db, TOKEN_TABLES)),
      );
    } finally {
      await fresh.drop();
    }
  });
});
