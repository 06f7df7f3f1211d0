import type { Socket } from "phoenix";
import { type Hex, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app/http-app.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { type LiveUpdates, startLiveUpdates } from "../../src/live/index.js";
import { createLogger } from "../../src/util/logger.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { collect, join, phoenixSocket, serveSocket } from "../helpers/live.js";

type NodeBlock = { number: Hex; hash: Hex; miner: Hex; gasUsed: Hex; transactions: Hex[] };

describe("live updates over the Phoenix socket (the frontend's client)", () => {
  let chain: TestChain;
  let db: TestDb;
  let live: LiveUpdates;
  let indexer: Indexer;
  let app: App;
  let base: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    chain = await startTestChain();
    db = await createTestDb();
    live = startLiveUpdates({ db: db.db, databaseUrl: db.url, logger: createLogger("silent"), serve: true });
    indexer = await createTestIndexer(db.db, chain.anvil.url, {
      extensions: [coinBalanceExtension(), currentBalancesExtension(), live.extension()],
    });
    await indexToHead(indexer, db.db, chain.anvil.url);
    // 1,000 subscribers below come from one address: lift the per-address limit (SOCKET_MAX_PER_CLIENT) here.
    ({ app, base } = await serveSocket(db.db, live.hub, { maxSocketsPerClient: 2000 }));
  }, 60_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await app?.close();
    await live?.stop();
    await db?.drop();
    await chain?.stop();
  });

  const mineAndIndex = async () => {
    await rpc(chain.anvil.url, "evm_mine");
    await indexToHead(indexer, db.db, chain.anvil.url);
    return rpc<NodeBlock>(chain.anvil.url, "eth_getBlockByNumber", ["latest", false]);
  };

  it("answers heartbeats and refuses unknown topics and bad addresses as Blockscout does", async () => {
    const s = phoenixSocket(base);
    sockets.push(s);
    await expect(join(s, "blocks:new_block")).resolves.toBeTruthy();
    await expect(join(s, "nonsense:topic")).rejects.toThrow(/unmatched topic/);
    await expect(join(s, "addresses:0x1234")).rejects.toThrow(/invalid address hash/);
    const ch = await join(s, "transactions:new_transaction");
    const heartbeat = await new Promise((resolve) =>
      ch.push("not_an_event", {}).receive("error", (r) => resolve(r)),
    );
    expect(heartbeat).toEqual({ reason: "unmatched event" });
  });

  it("sends new_block with the block after the indexer commits it", async () => {
    const s = phoenixSocket(base);
    sockets.push(s);
    const blocks = collect(await join(s, "blocks:new_block"), "new_block");
    const txCounts = collect(await join(s, "transactions:new_transaction"), "transaction");
    const to = chain.accounts[3]!.address;
    const hash = await rpc<Hex>(chain.anvil.url, "eth_sendTransaction", [
      { from: chain.accounts[0]!.address, to, value: `0x${parseEther("1").toString(16)}` },
    ]);
    await waitForReceipt(chain.anvil.url, hash);
    await indexToHead(indexer, db.db, chain.anvil.url);
    const node = await rpc<NodeBlock>(chain.anvil.url, "eth_getBlockByNumber", ["latest", false]);
    const got = await blocks.next((p) => p.block.height === Number(node.number));
    expect(got.block).toMatchObject({
      hash: node.hash,
      height: Number(node.number),
      transactions_count: node.transactions.length,
      gas_used: String(BigInt(node.gasUsed)),
      type: "block",
    });
    expect(got.block.miner.hash.toLowerCase()).toBe(node.miner.toLowerCase());
    expect(typeof got.average_block_time).toBe("string");
    // The explorer's own Block, as Blockscout's socket renders it: the list form (`/blocks`, `/main-page/blocks`).
    const listed = (await (await fetch(`${base}/api/v2/blocks`)).json()) as { items: { height: number }[] };
    expect(got.block).toEqual(listed.items.find((b) => b.height === got.block.height));
    expect((await txCounts.next()).transaction).toBe(1);

    const mined = await mineAndIndex();
    expect((await blocks.next((p) => p.block.hash === mined.hash)).block.transactions_count).toBe(0);
  });

  it("sends an address its transactions, balance and coin balance changes", async () => {
    const watched = chain.accounts[5]!.address.toLowerCase() as Hex;
    const s = phoenixSocket(base);
    sockets.push(s);
    const ch = await join(s, `addresses:${watched}`);
    const txs = collect(ch, "transaction");
    const balances = collect(ch, "balance");
    const current = collect(ch, "current_coin_balance");
    const coin = collect(ch, "coin_balance");
    const hash = await rpc<Hex>(chain.anvil.url, "eth_sendTransaction", [
      { from: chain.accounts[0]!.address, to: watched, value: "0x2540be400" },
    ]);
    await waitForReceipt(chain.anvil.url, hash);
    await indexToHead(indexer, db.db, chain.anvil.url);
    const nodeBalance = BigInt(await rpc<Hex>(chain.anvil.url, "eth_getBalance", [watched, "latest"]));
    const receipt = await rpc<{ blockNumber: Hex }>(chain.anvil.url, "eth_getTransactionReceipt", [hash]);

    const t = await txs.next();
    expect(t.transactions.map((x: { hash: string }) => x.hash)).toEqual([hash]);
    expect(t.transactions[0]).toMatchObject({
      value: "10000000000",
      status: "ok",
      block_number: Number(receipt.blockNumber),
    });
    expect(t.transactions[0].to.hash.toLowerCase()).toBe(watched);
    // The explorer's own list item (`/api/v2/transactions`), as Blockscout's socket renders it.
    const listed = (await (await fetch(`${base}/api/v2/transactions`)).json()) as {
      items: { hash: string }[];
    };
    expect(t.transactions[0]).toEqual(listed.items.find((x) => x.hash === hash));
    const b = await balances.next();
    expect(b).toEqual({
      balance: nodeBalance.toString(),
      block_number: Number(receipt.blockNumber),
      exchange_rate: null,
    });
    expect((await current.next()).coin_balance).toBe(nodeBalance.toString());
    expect((await coin.next()).coin_balance).toMatchObject({
      delta: "10000000000",
      value: nodeBalance.toString(),
    });

    // Another address's traffic is not sent here.
    const other = await rpc<Hex>(chain.anvil.url, "eth_sendTransaction", [
      { from: chain.accounts[0]!.address, to: chain.accounts[6]!.address, value: "0x1" },
    ]);
    await waitForReceipt(chain.anvil.url, other);
    await indexToHead(indexer, db.db, chain.anvil.url);
    await live.idle();
    expect(txs.seen).toHaveLength(1);
  });

  it("delivers a new block to 1,000 concurrent subscribers", async () => {
    const n = 1000;
    const many = Array.from({ length: n }, () => phoenixSocket(base));
    sockets.push(...many);
    const collectors = await Promise.all(
      many.map(async (s) => collect(await join(s, "blocks:new_block", 60_000), "new_block")),
    );
    expect(live.hub.subscribers("blocks:new_block")).toBeGreaterThanOrEqual(n);
    const mined = await mineAndIndex();
    const got = await Promise.all(collectors.map((c) => c.next((p) => p.block.hash === mined.hash, 60_000)));
    expect(got).toHaveLength(n);
    expect(got.every((p) => p.block.height === Number(mined.number))).toBe(true);
  }, 120_000);
});
