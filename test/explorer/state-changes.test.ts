import { Value } from "@sinclair/typebox/value";
import { type Address, type Hex, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { StateChangesSchema } from "../../src/explorer/state-change/schema.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { callData, deploy as deployToken } from "../helpers/tokens.js";

type Diff = { pre: Record<string, { balance?: Hex }>; post: Record<string, { balance?: Hex }> };

/**
 * Several transactions in one block: each one's state changes must be the node's own balances just before and
 * just after it (the prestate tracer's diff of that transaction), which only replaying the block's earlier
 * transactions gives.
 */
describe("transaction state changes within a block (against anvil's prestate diffs)", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let url: string;
  let coin: Address;
  let nft: Address;
  let multi: Address;
  const hashes: Hex[] = [];
  const nftHashes: Hex[] = [];

  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
    const [A, B, C] = chain.accounts.map((a) => a.address.toLowerCase() as Address) as [
      Address,
      Address,
      Address,
    ];
    t = await createTestDb();
    coin = await deployToken(url, A, "TestCoin", [10n ** 24n]);
    nft = await deployToken(url, A, "TestNft", ["Test NFT", "TNF", "ipfs://x/"]);
    multi = await deployToken(url, A, "Test1155", ["ipfs://m/{id}"]);
    await rpc(url, "evm_setAutomine", [false]);
    const send = async (o: { from: Address; to: Address; value?: bigint; data?: Hex }) =>
      rpc<Hex>(url, "eth_sendTransaction", [
        {
          from: o.from,
          to: o.to,
          gas: toHex(200_000n),
          ...(o.value ? { value: toHex(o.value) } : {}),
          ...(o.data ? { data: o.data } : {}),
        },
      ]);
    // Sender and recipient meet again in later transactions of the block, in coin and in the token.
    hashes.push(await send({ from: A, to: B, value: 10n ** 18n }));
    hashes.push(await send({ from: A, to: coin, data: callData("TestCoin", "transfer", [B, 500n]) }));
    hashes.push(await send({ from: B, to: C, value: 3n * 10n ** 17n }));
    hashes.push(await send({ from: B, to: coin, data: callData("TestCoin", "transfer", [C, 200n]) }));
    hashes.push(await send({ from: C, to: A, value: 12345n }));
    await rpc(url, "evm_mine", []);
    // A second block: an NFT minted then moved on, and ERC-1155 units minted.
    nftHashes.push(await send({ from: A, to: nft, data: callData("TestNft", "mint", [B, 7n]) }));
    nftHashes.push(await send({ from: B, to: nft, data: callData("TestNft", "transferFrom", [B, C, 7n]) }));
    nftHashes.push(await send({ from: A, to: multi, data: callData("Test1155", "mint", [B, 1n, 5n]) }));
    await rpc(url, "evm_mine", []);
    await rpc(url, "evm_setAutomine", [true]);
    for (const h of [...hashes, ...nftHashes]) await waitForReceipt(url, h);
    const indexer = await createTestIndexer(t.db, url, {
      extensions: [coinBalanceExtension(), currentBalancesExtension(), ...explorerExtensions()],
    });
    await indexToHead(indexer, t.db, url);
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
  });

  it("gives every transaction of the block the node's balances just before and after it", async () => {
    const blocks = new Set<string>();
    for (const h of hashes) {
      const r = await app.inject({ url: `/api/v2/transactions/${h}/state-changes` });
      expect(r.statusCode).toBe(200);
      const body = r.json() as { items: any[]; next_page_params: unknown };
      expect([...Value.Errors(StateChangesSchema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      const receipt = await rpc<{ blockNumber: Hex }>(url, "eth_getTransactionReceipt", [h]);
      blocks.add(receipt.blockNumber);
      const diff = await rpc<Diff>(url, "debug_traceTransaction", [
        h,
        { tracer: "prestateTracer", tracerConfig: { diffMode: true } },
      ]);
      // Accounts whose balance the transaction changed, as the node saw it.
      const expected = Object.keys({ ...diff.pre, ...diff.post })
        .map((a) => {
          const before = BigInt(diff.pre[a]?.balance ?? "0x0");
          const after = BigInt(diff.post[a]?.balance ?? diff.pre[a]?.balance ?? "0x0");
          return {
            address: a.toLowerCase(),
            before: String(before),
            after: String(after),
            change: String(after - before),
          };
        })
        .filter((e) => e.change !== "0")
        .sort((x, y) => (x.address < y.address ? -1 : 1));
      const coins = body.items
        .filter((i) => i.type === "coin")
        .map((i) => ({
          address: i.address.hash.toLowerCase(),
          before: i.balance_before,
          after: i.balance_after,
          change: i.change,
        }));
      expect({ h, coins }).toEqual({ h, coins: expected });
    }
    // All in one block: the later ones needed the earlier ones replayed.
    expect(blocks.size).toBe(1);
  });

  it("gives token holders balanceOf as it stood between the block's transactions", async () => {
    const n = Number(
      (await rpc<{ blockNumber: Hex }>(url, "eth_getTransactionReceipt", [hashes[3]!])).blockNumber,
    );
    const balanceAt = async (a: string, block: number) =>
      BigInt(
        await rpc<Hex>(url, "eth_call", [
          { to: coin, data: callData("TestCoin", "balanceOf", [a]) },
          toHex(block),
        ]),
      );
    const r = await app.inject({ url: `/api/v2/transactions/${hashes[3]}/state-changes` });
    const tokens = (r.json().items as any[]).filter((i) => i.type === "token");
    // B → C 200 of the token, after A → B 500 earlier in the same block.
    const [, B, C] = chain.accounts.map((a) => a.address.toLowerCase());
    const bBefore = (await balanceAt(B!, n - 1)) + 500n;
    const cBefore = await balanceAt(C!, n - 1);
    expect(
      tokens.map((e) => [e.address.hash.toLowerCase(), e.balance_before, e.balance_after, e.change]),
    ).toEqual(
      [
        [B, String(bBefore), String(bBefore - 200n), "-200"],
        [C, String(cBefore), String(cBefore + 200n), "200"],
      ].sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
    );
  });

  it("lists an NFT's moves in and out per holder, and ERC-1155 units per id", async () => {
    const [, B, C] = chain.accounts.map((a) => a.address.toLowerCase());
    const zero = `0x${"0".repeat(40)}`;
    const changes = async (h: Hex) => {
      const r = await app.inject({ url: `/api/v2/transactions/${h}/state-changes` });
      const body = r.json() as { items: any[] };
      expect([...Value.Errors(StateChangesSchema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      return body.items
        .filter((i) => i.type === "token")
        .map((e) => ({
          holder: e.address.hash.toLowerCase(),
          type: e.token.type,
          id: e.token_id,
          before: e.balance_before,
          after: e.balance_after,
          change: Array.isArray(e.change)
            ? e.change.map((c: any) => `${c.direction}:${c.total.token_id}`)
            : e.change,
        }));
    };
    const byHolder = <T extends { holder: string }>(xs: T[]) =>
      [...xs].sort((x, y) => (x.holder < y.holder ? -1 : 1));
    // The mint: the zero address gives (no balance to show), B receives its first.
    expect(await changes(nftHashes[0]!)).toEqual(
      byHolder([
        { holder: zero, type: "ERC-721", id: null, before: null, after: null, change: ["from:7"] },
        { holder: B!, type: "ERC-721", id: null, before: "0", after: "1", change: ["to:7"] },
      ]),
    );
    // The same block's next transaction starts from the mint's result.
    expect(await changes(nftHashes[1]!)).toEqual(
      byHolder([
        { holder: B!, type: "ERC-721", id: null, before: "1", after: "0", change: ["from:7"] },
        { holder: C!, type: "ERC-721", id: null, before: "0", after: "1", change: ["to:7"] },
      ]),
    );
    expect(await changes(nftHashes[2]!)).toEqual(
      byHolder([
        { holder: zero, type: "ERC-1155", id: "1", before: null, after: null, change: "-5" },
        { holder: B!, type: "ERC-1155", id: "1", before: "0", after: "5", change: "5" },
      ]),
    );
  });
});
