import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  padHex,
  toHex,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { InternalTransactionsResponseSchema } from "../../src/explorer/internal-transaction/schema.js";
import { LogsResponseTxSchema } from "../../src/explorer/log/schema.js";
import { FrontendTokensResponse } from "../../src/explorer/token/schema.js";
import { TopAccountsResponseSchema } from "../../src/explorer/top-account/schema.js";
import {
  AddressTransactionsPageSchema,
  TransactionsPageSchema,
} from "../../src/explorer/transaction/schema.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { blockRewardsExtension } from "../../src/indexer/stages/block-rewards/extension.js";
import { countersExtension } from "../../src/indexer/stages/counters/extension.js";
import { internalTransactionsExtension } from "../../src/indexer/stages/internal-transactions/extension.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { withdrawalsExtension } from "../../src/indexer/stages/withdrawals/extension.js";
import { packagePath } from "../../src/util/package-root.js";
import {
  type ActivityContracts,
  activityContracts,
  deployActivityContracts,
  mineActivity,
  rpc,
  rpcBatch,
} from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { compileSolidity } from "../helpers/solc.js";
import { callData, tokenContracts } from "../helpers/tokens.js";

/*
 * Every filter and sort order the frontend (v2.0.3) offers on the lists Lookout serves, sent as the frontend sends
 * it (filters and sorting merged with next_page_params on every page), each answer walked to its last page and
 * compared with what the node says: /transactions `type` (TypeFilter) and `method` (MethodFilter),
 * /internal-transactions `transaction_hash`, /addresses/{h}/transactions `sort`/`order` (TransactionsSorting,
 * with `filter`), /tokens `sort`/`order` (TokensSorting), /addresses `sort`/`order` (Blockscout's addresses_sorting).
 */

const CAST = packagePath("node_modules/@foundry-rs/cast-linux-amd64/bin/cast");
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const TRANSFER_SINGLE = "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62";
const TRANSFER_BATCH = "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb";
const ZERO = "0x0000000000000000000000000000000000000000";

/** Pays each recipient 1 wei and logs it: a transaction with more internal transactions and logs than a page. */
const FANOUT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Fanout {
    event Paid(address to);
    function fan(address[] calldata to) external payable {
        for (uint256 i = 0; i < to.length; i++) {
            payable(to[i]).transfer(1);
            emit Paid(to[i]);
        }
    }
}`;

type NodeTx = {
  hash: Hex;
  from: Hex;
  to: Hex | null;
  value: Hex;
  input: Hex;
  type: Hex;
  blockNumber: Hex;
  transactionIndex: Hex;
};
type Receipt = {
  transactionHash: Hex;
  contractAddress: Hex | null;
  gasUsed: Hex;
  effectiveGasPrice: Hex;
  status: Hex;
  logs: Array<{ address: Hex; topics: Hex[]; data: Hex }>;
};
type Frame = { type: string; from: Hex; to?: Hex; value?: Hex; calls?: Frame[] };
type Tx = NodeTx & { block: number; index: number; receipt: Receipt; fee: bigint };

const lower = (a: string) => a.toLowerCase();
const num = (h: Hex) => Number(BigInt(h));
const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
/** Newest first, as every transaction list's default. */
const newest = (a: Tx, b: Tx) => b.block - a.block || b.index - a.index;
const fresh = (i: number) => lower(`0x${(0xf00000 + i).toString(16).padStart(40, "0")}`) as Address;

describe("list filters and sort orders against the node", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let indexer: Indexer;
  let url: string;
  let k: ActivityContracts;
  const txs: Tx[] = [];
  let fanTx: Hex;
  let fanFrames: Frame[];
  let blobTx: Hex;
  let early: Hex;
  let nftCreation: Hex;
  const addr = (i: number) => lower(chain.accounts[i]!.address) as Address;
  const checked: Array<{ url: string; schema: TSchema; body: unknown }> = [];

  /** Sends from unlocked accounts one by one (anvil numbers them), then mines them into one block. */
  async function mine(sends: Array<Record<string, unknown>>): Promise<Hex[]> {
    const hashes: Hex[] = [];
    for (const tx of sends)
      hashes.push(await rpc<Hex>(url, "eth_sendTransaction", [{ gas: "0x1000000", ...tx }]));
    await rpc(url, "evm_mine");
    return hashes;
  }

  const get = async (path: string, schema?: TSchema) => {
    const r = await app.inject({ url: path });
    const body = r.json() as any;
    if (schema && r.statusCode === 200) checked.push({ url: path, schema, body });
    return { status: r.statusCode, body };
  };

  /** Follows next_page_params to the end as the frontend does (the list's query merged under them). */
  const walk = async (path: string, schema: TSchema) => {
    const items: any[] = [];
    const pages: any[] = [];
    let params: Record<string, unknown> | null = null;
    for (let i = 0; i < 100; i++) {
      const [base, query] = path.split("?") as [string, string | undefined];
      const qs = new URLSearchParams(query);
      for (const [key, v] of Object.entries(params ?? {})) if (v !== null) qs.set(key, String(v));
      const full = qs.size ? `${base}?${qs}` : base;
      const r = await get(full, schema);
      expect(r.status, JSON.stringify([full, r.body])).toBe(200);
      items.push(...r.body.items);
      pages.push(r.body.next_page_params);
      params = r.body.next_page_params;
      if (!params) return { items, pages };
      expect(r.body.items, full).toHaveLength(50);
    }
    throw new Error("no last page");
  };

  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
    t = await createTestDb();
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
    k = await deployActivityContracts(url);
    const c = activityContracts();
    const tokens = tokenContracts();
    const fanout = compileSolidity({ "Fanout.sol": FANOUT }).Fanout!;

    // Paid before anything is there; created there (CREATE2) 60 blocks later: then it was a contract call.
    const salt = keccak256(toHex("counterfactual"));
    const childInit = encodeDeployData({ abi: c.Child!.abi, bytecode: c.Child!.bytecode, args: [42n] });
    const future = lower(
      getContractAddress({ opcode: "CREATE2", from: k.factory, salt, bytecode: childInit }),
    ) as Address;
    early = (await mine([{ from: addr(1), to: future, value: toHex(123n) }]))[0]!;
    // An NFT contract whose first token event comes two batches after its creation.
    const nftDeploy = encodeDeployData({
      abi: tokens.TestNft!.abi,
      bytecode: tokens.TestNft!.bytecode,
      args: ["Late", "L", ""],
    });
    nftCreation = (await mine([{ from: addr(3), data: nftDeploy }]))[0]!;
    const nft = lower(
      (await rpc<Receipt>(url, "eth_getTransactionReceipt", [nftCreation])).contractAddress!,
    ) as Address;

    await mineActivity(url, k, { blocks: 60, txPerBlock: 6, seed: 11 });

    await mine([
      {
        from: addr(1),
        to: k.factory,
        data: encodeFunctionData({ abi: c.Factory!.abi, functionName: "create2", args: [42n, salt] }),
      },
      { from: addr(3), to: nft, data: callData("TestNft", "mintMany", [addr(5), 1n, 3n]) },
    ]);
    // The method names the frontend offers, called on an account (no code runs: the selector is what counts).
    const selectors = ["0x095ea7b3", "0x40c10f19", "0x5ae401dc", "0xf14fcbc8", "0x12345678"];
    await mine(
      selectors.flatMap((s, i) => [
        { from: addr(2), to: addr(3), data: padHex(s as Hex, { size: 36, dir: "right" }) },
        { from: addr(6), to: k.forwarder, data: s, value: toHex(BigInt(i)) },
      ]),
    );
    // 57 tokens of 1 to 4 holders (ties: the address decides), and a fan-out to 60 new accounts of 1 wei each.
    const simple = c.SimpleToken!;
    const deployed = await mine(
      Array.from({ length: 55 }, (_, i) => ({
        from: addr(4),
        data: encodeDeployData({ abi: simple.abi, bytecode: simple.bytecode, args: [BigInt(1000 + i)] }),
      })),
    );
    const madeTokens = await rpcBatch<Receipt>(
      url,
      deployed.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })),
    );
    await mine(
      madeTokens.flatMap((r, i) =>
        Array.from({ length: i % 4 }, (_, j) => ({
          from: addr(4),
          to: r.contractAddress!,
          data: encodeFunctionData({ abi: simple.abi, functionName: "transfer", args: [addr(5 + j), 1n] }),
        })),
      ),
    );
    const [fanDeploy] = await mine([{ from: addr(7), data: fanout.bytecode }]);
    const fanAddress = (await rpc<Receipt>(url, "eth_getTransactionReceipt", [fanDeploy])).contractAddress!;
    fanTx = (
      await mine([
        {
          from: addr(7),
          to: fanAddress,
          value: toHex(60n),
          data: encodeFunctionData({
            abi: fanout.abi,
            functionName: "fan",
            args: [Array.from({ length: 60 }, (_, i) => fresh(i))],
          }),
        },
      ])
    )[0]!;
    await mine(
      Array.from({ length: 20 }, (_, i) => ({
        from: addr(8),
        to: fresh(100 + i),
        value: toHex(BigInt(5 + (i % 3))),
      })),
    );
    // A blob transaction (cast builds the sidecar), mined on its own.
    await rpc(url, "evm_setAutomine", [true]);
    const blobFile = join(tmpdir(), `lookout-blob-${process.pid}.txt`);
    writeFileSync(blobFile, "blob data for the type filter");
    const { stdout } = await promisify(execFile)(
      CAST,
      [
        "send",
        "--blob",
        "--path",
        blobFile,
        "--rpc-url",
        url,
        "--private-key",
        chain.anvil.accounts[9]!.privateKey,
        "--json",
        addr(2),
      ],
      { timeout: 60_000 },
    );
    blobTx = JSON.parse(stdout).transactionHash;
    await rpc(url, "evm_setAutomine", [false]);
    await mineActivity(url, k, { blocks: 5, txPerBlock: 4, seed: 12 });

    indexer = await createTestIndexer(t.db, url, {
      extensions: [
        coinBalanceExtension(),
        currentBalancesExtension(),
        createTokensExtension(),
        createProxiesExtension(),
        internalTransactionsExtension(),
        withdrawalsExtension(),
        blockRewardsExtension(),
        countersExtension(),
      ],
    });
    await indexToHead(indexer, t.db, url);

    // The truth: every transaction with its receipt, from the node.
    const head = num(await rpc<Hex>(url, "eth_blockNumber"));
    const blocks = await rpcBatch<{ transactions: NodeTx[] }>(
      url,
      Array.from({ length: head + 1 }, (_, n) => ({
        method: "eth_getBlockByNumber",
        params: [toHex(n), true],
      })),
    );
    const all = blocks.flatMap((b) => b.transactions);
    const receipts = await rpcBatch<Receipt>(
      url,
      all.map((x) => ({ method: "eth_getTransactionReceipt", params: [x.hash] })),
    );
    all.forEach((x, i) => {
      const r = receipts[i]!;
      txs.push({
        ...x,
        from: lower(x.from) as Hex,
        to: x.to ? (lower(x.to) as Hex) : null,
        block: num(x.blockNumber),
        index: num(x.transactionIndex),
        receipt: r,
        fee: BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice),
      });
    });
    const root = await rpc<Frame>(url, "debug_traceTransaction", [fanTx, { tracer: "callTracer" }]);
    fanFrames = root.calls ?? [];
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
  });

  /** Addresses that emitted a token event anywhere: the tokens. */
  const tokenEmitters = () =>
    new Set(
      txs.flatMap((x) =>
        x.receipt.logs
          .filter((l) => [TRANSFER, TRANSFER_SINGLE, TRANSFER_BATCH].includes(l.topics[0] as string))
          .map((l) => lower(l.address)),
      ),
    );
  const hashes = (items: Array<{ hash: string }>) => items.map((i) => i.hash);

  it("/transactions?type= keeps the transactions of any listed type, newest first, page after page", async () => {
    const emitters = tokenEmitters();
    const tos = [...new Set(txs.flatMap((x) => (x.to ? [x.to] : [])))];
    const codes = await rpcBatch<Hex>(
      url,
      tos.map((a) => ({ method: "eth_getCode", params: [a, "latest"] })),
    );
    const contracts = new Set(tos.filter((_, i) => codes[i] !== "0x"));
    const is: Record<string, (x: Tx) => boolean> = {
      coin_transfer: (x) => BigInt(x.value) > 0n,
      contract_call: (x) => x.to !== null && contracts.has(x.to),
      contract_creation: (x) => x.to === null,
      token_transfer: (x) =>
        x.receipt.logs.some((l) =>
          [TRANSFER, TRANSFER_SINGLE, TRANSFER_BATCH].includes(l.topics[0] as string),
        ),
      token_creation: (x) =>
        x.receipt.contractAddress !== null && emitters.has(lower(x.receipt.contractAddress)),
      blob_transaction: (x) => x.type === "0x3",
    };
    // Each type alone, a few together as the frontend sends them, and all of them.
    const lists = [
      ...Object.keys(is).map((k) => [k]),
      ["token_transfer", "contract_creation"],
      Object.keys(is),
    ];
    for (const types of lists) {
      const expected = txs.filter((x) => types.some((k) => is[k]!(x))).sort(newest);
      const { items, pages } = await walk(
        `/api/v2/transactions?filter=validated&type=${types.join(",")}`,
        TransactionsPageSchema,
      );
      expect(hashes(items), types.join(",")).toEqual(expected.map((x) => x.hash));
      // What transaction_types says of each item agrees with the filter.
      for (const item of items) expect(types.some((k) => item.transaction_types.includes(k))).toBe(true);
      // Blockscout's next_page_params: the cursor only (type and filter are not repeated).
      for (const p of pages.filter(Boolean))
        expect(Object.keys(p).sort()).toEqual(["block_number", "index", "items_count"]);
    }
    const counts = Object.fromEntries(Object.entries(is).map(([k, f]) => [k, txs.filter(f).length]));
    // Enough of each to mean something: several pages of the common ones, the rare ones present.
    expect(counts.contract_call).toBeGreaterThan(100);
    expect(counts.coin_transfer).toBeGreaterThan(100);
    expect(counts.token_transfer).toBeGreaterThan(100);
    expect(counts.contract_creation).toBeGreaterThan(50);
    expect(counts.token_creation).toBe(57);
    expect(txs.filter(is.blob_transaction!).map((x) => x.hash)).toEqual([blobTx]);
    // Paid before the address had code, created there later: a contract call now, as Blockscout says.
    expect(is.contract_call!(txs.find((x) => x.hash === early)!)).toBe(true);
    expect(is.token_creation!(txs.find((x) => x.hash === nftCreation)!)).toBe(true);
    // A block's transactions take the same filter (the frontend's blob tab; Blockscout's block_txs `type`), in
    // block order: the busiest block (the 55 token deployments), each type, every page.
    const counts1 = new Map<number, number>();
    for (const x of txs) counts1.set(x.block, (counts1.get(x.block) ?? 0) + 1);
    const busiest = [...counts1].sort((a, b) => b[1] - a[1])[0]![0];
    for (const types of [...lists, ["coin_transfer", "token_creation"]]) {
      const expected = txs.filter((x) => x.block === busiest && types.some((k) => is[k]!(x)));
      const { items } = await walk(
        `/api/v2/blocks/${busiest}/transactions?type=${types.join(",")}`,
        TransactionsPageSchema,
      );
      expect(hashes(items), `block ${busiest} ${types}`).toEqual(expected.map((x) => x.hash));
    }
    const blobBlock = txs.find((x) => x.hash === blobTx)!.block;
    expect(
      hashes((await get(`/api/v2/blocks/${blobBlock}/transactions?type=blob_transaction`)).body.items),
    ).toEqual([blobTx]);
    // Brackets, as Blockscout's parse_filter also reads them; pending: none (no mempool).
    const br = await get("/api/v2/transactions?type=[blob_transaction]");
    expect(hashes(br.body.items)).toEqual([blobTx]);
    expect((await get("/api/v2/transactions?filter=pending&type=coin_transfer")).body).toEqual({
      items: [],
      next_page_params: null,
    });
    const bad = await get("/api/v2/transactions?type=token_transfer,nonsense");
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/type");
  });

  it("/transactions?method= keeps the transactions calling any listed selector or named method", async () => {
    const selectorOf = (x: Tx) => x.input.slice(0, 10);
    const cases: Array<[string, string[]]> = [
      ["approve", ["0x095ea7b3"]],
      ["transfer", ["0xa9059cbb"]],
      ["multicall", ["0x5ae401dc"]],
      ["mint", ["0x40c10f19"]],
      ["commit", ["0xf14fcbc8"]],
      ["approve,0x12345678,F14FCBC8", ["0x095ea7b3", "0x12345678", "0xf14fcbc8"]],
    ];
    for (const [method, selectors] of cases) {
      const expected = txs
        .filter((x) => x.input.length >= 10 && selectors.includes(selectorOf(x)))
        .sort(newest);
      expect(expected.length, method).toBeGreaterThan(0);
      const { items } = await walk(
        `/api/v2/transactions?filter=validated&method=${method}`,
        TransactionsPageSchema,
      );
      expect(hashes(items), method).toEqual(expected.map((x) => x.hash));
    }
    // With a type: both hold (the forwarder calls of these selectors move coin, the calls on an account do not).
    const both = txs
      .filter((x) => selectorOf(x) === "0x40c10f19" || selectorOf(x) === "0x5ae401dc")
      .filter((x) => BigInt(x.value) > 0n)
      .sort(newest);
    const r = await walk(
      "/api/v2/transactions?method=mint,multicall&type=coin_transfer",
      TransactionsPageSchema,
    );
    expect(hashes(r.items)).toEqual(both.map((x) => x.hash));
    expect(both.length).toBeGreaterThan(0);
    const transfers = txs.filter((x) => selectorOf(x) === "0xa9059cbb").length;
    expect(transfers).toBeGreaterThan(50);
    expect((await get("/api/v2/transactions?method=0x1234")).status).toBe(422);
  });

  it("/internal-transactions?transaction_hash= lists that transaction's internal transactions, paged", async () => {
    const { items, pages } = await walk(
      `/api/v2/internal-transactions?transaction_hash=${fanTx}`,
      InternalTransactionsResponseSchema,
    );
    expect(fanFrames).toHaveLength(60);
    expect(items.map((i: any) => [i.transaction_hash, lower(i.to.hash), i.value, i.type])).toEqual(
      fanFrames.map((f) => [fanTx, lower(f.to!), BigInt(f.value!).toString(), "call"]),
    );
    expect(items.map((i: any) => i.index)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(pages[0]).toMatchObject({ transaction_hash: fanTx, index: 50, items_count: 50 });
    // A transaction without internal transactions, an unknown one, a malformed hash.
    expect((await get(`/api/v2/internal-transactions?transaction_hash=${early}`)).body).toEqual({
      items: [],
      next_page_params: null,
    });
    expect(
      (await get(`/api/v2/internal-transactions?transaction_hash=0x${"12".repeat(32)}`)).body.items,
    ).toEqual([]);
    expect((await get("/api/v2/internal-transactions?transaction_hash=0x12")).status).toBe(422);
  });

  it("/addresses/{h}/transactions?sort=&order=: every sort the frontend offers, each filter, every page", async () => {
    const sorts: Record<string, (a: Tx, b: Tx) => number> = {
      "value-asc": (a, b) => cmp(BigInt(a.value), BigInt(b.value)) || newest(a, b),
      "value-desc": (a, b) => cmp(BigInt(b.value), BigInt(a.value)) || newest(a, b),
      "fee-asc": (a, b) => cmp(a.fee, b.fee) || newest(a, b),
      "fee-desc": (a, b) => cmp(b.fee, a.fee) || newest(a, b),
      "block_number-asc": (a, b) => a.block - b.block || a.index - b.index,
      "block_number-desc": newest,
      default: newest,
    };
    let pagesWalked = 0;
    for (const address of [addr(0), addr(4), k.token]) {
      for (const filter of [null, "from", "to"]) {
        const mine = txs.filter(
          (x) =>
            (filter !== "to" && x.from === address) ||
            (filter !== "from" &&
              (x.to === address ||
                (x.receipt.status === "0x1" && lower(x.receipt.contractAddress ?? "") === address))),
        );
        for (const [sort, order] of Object.entries(sorts)) {
          const [by, dir] = sort.split("-");
          const q = new URLSearchParams();
          if (filter) q.set("filter", filter);
          if (dir) {
            q.set("sort", by!);
            q.set("order", dir);
          }
          const path = `/api/v2/addresses/${address}/transactions?${q}`;
          const { items, pages } = await walk(path, AddressTransactionsPageSchema);
          expect(hashes(items), path).toEqual([...mine].sort(order).map((x) => x.hash));
          pagesWalked += pages.length;
          const last = items[49];
          if (pages[0])
            expect(pages[0], path).toEqual({
              block_number: last.block_number,
              fee: last.fee.value,
              hash: last.hash,
              index: last.position,
              inserted_at: last.timestamp,
              items_count: 50,
              value: last.value,
            });
        }
      }
    }
    expect(pagesWalked).toBeGreaterThan(100);
    // Paging by value needs the value of the cursor.
    const noValue = await get(
      `/api/v2/addresses/${addr(0)}/transactions?sort=value&order=asc&block_number=9&index=0`,
    );
    expect(noValue.status).toBe(422);
  });

  it("/tokens?sort=&order=: every sort the frontend offers, every page", async () => {
    // Holders from the node's Transfer logs (ERC-20 balances; ERC-721 owners).
    const balances = new Map<string, Map<string, bigint>>();
    for (const x of txs)
      for (const l of x.receipt.logs) {
        if (l.topics[0] !== TRANSFER) continue;
        const token = lower(l.address);
        const m = balances.get(token) ?? new Map<string, bigint>();
        balances.set(token, m);
        const from = lower(`0x${l.topics[1]!.slice(26)}`);
        const to = lower(`0x${l.topics[2]!.slice(26)}`);
        const amount = l.topics.length === 4 ? 1n : BigInt(l.data);
        if (from !== ZERO) m.set(from, (m.get(from) ?? 0n) - amount);
        m.set(to, (m.get(to) ?? 0n) + amount);
      }
    const holders = [...balances].map(([token, m]) => ({
      token,
      n: [...m].filter(([a, v]) => v > 0n && a !== ZERO).length,
    }));
    expect(holders.length).toBe(57);
    const byHolders = (dir: 1 | -1) => (a: (typeof holders)[0], b: (typeof holders)[0]) =>
      dir * (a.n - b.n) || (a.token < b.token ? -1 : 1);
    const expected: Record<string, string[]> = {
      "holders_count-asc": [...holders].sort(byHolders(1)).map((h) => h.token),
    };
    // Fiat value and market cap are unknown (null) for every token: those sorts leave the default order.
    const defaultOrder = [...holders].sort(byHolders(-1)).map((h) => h.token);
    for (const s of ["holders_count-desc", "fiat_value-asc", "fiat_value-desc", "circulating_market_cap-asc"])
      expected[s] = defaultOrder;
    expected["circulating_market_cap-desc"] = defaultOrder;
    expected.default = defaultOrder;
    for (const [s, order] of Object.entries(expected)) {
      const [sort, dir] = s.split("-");
      const { items, pages } = await walk(
        dir ? `/api/v2/tokens?sort=${sort}&order=${dir}` : "/api/v2/tokens",
        FrontendTokensResponse,
      );
      expect(
        items.map((i: any) => lower(i.address_hash)),
        s,
      ).toEqual(order);
      expect(items.map((i: any) => Number(i.holders_count))).toEqual(
        order.map((a) => holders.find((h) => h.token === a)!.n),
      );
      expect(pages).toHaveLength(2);
    }
  });

  it("/addresses?sort=&order=: balance and transaction count either way, every page", async () => {
    const candidates = new Set<string>();
    for (const x of txs) {
      candidates.add(x.from);
      if (x.to) candidates.add(x.to);
      if (x.receipt.contractAddress) candidates.add(lower(x.receipt.contractAddress));
    }
    const traces = await rpcBatch<Frame>(
      url,
      txs.map((x) => ({ method: "debug_traceTransaction", params: [x.hash, { tracer: "callTracer" }] })),
    );
    const visit = (f: Frame) => {
      if (f.to) candidates.add(lower(f.to));
      for (const c of f.calls ?? []) visit(c);
    };
    traces.forEach(visit);
    const head = await rpc<{ miner: Hex }>(url, "eth_getBlockByNumber", ["latest", false]);
    candidates.add(lower(head.miner));
    const list = [...candidates];
    const balances = await rpcBatch<Hex>(
      url,
      list.map((a) => ({ method: "eth_getBalance", params: [a, "latest"] })),
    );
    // Lookout's transaction count (the counters'): transactions an address sent, received or created.
    const count = (a: string) =>
      txs.filter(
        (x) =>
          x.from === a ||
          x.to === a ||
          (x.receipt.status !== "0x0" && lower(x.receipt.contractAddress ?? "") === a),
      ).length;
    const rows = list
      .map((a, i) => ({ a, balance: BigInt(balances[i]!), n: count(a) }))
      .filter((r) => r.balance > 0n);
    expect(rows.length).toBeGreaterThan(90);
    const hash = (x: (typeof rows)[0], y: (typeof rows)[0]) => (x.a < y.a ? -1 : 1);
    const sorts: Record<string, (x: (typeof rows)[0], y: (typeof rows)[0]) => number> = {
      "balance-desc": (x, y) => cmp(y.balance, x.balance) || hash(x, y),
      "balance-asc": (x, y) => cmp(x.balance, y.balance) || hash(x, y),
      // Ties of the count by hash in the index's direction, not by balance first (top-account/query.ts).
      "transactions_count-asc": (x, y) => x.n - y.n || hash(y, x),
      "transactions_count-desc": (x, y) => y.n - x.n || hash(x, y),
    };
    sorts.default = sorts["balance-desc"]!;
    for (const [s, order] of Object.entries(sorts)) {
      const [sort, dir] = s.split("-");
      const { items, pages } = await walk(
        dir ? `/api/v2/addresses?sort=${sort}&order=${dir}` : "/api/v2/addresses",
        TopAccountsResponseSchema,
      );
      const expected = [...rows].sort(order);
      expect(
        items.map((i: any) => [lower(i.hash), i.coin_balance, i.transactions_count]),
        s,
      ).toEqual(expected.map((r) => [r.a, r.balance.toString(), String(r.n)]));
      const last = items[49];
      expect(pages[0]).toEqual({
        fetched_coin_balance: last.coin_balance,
        hash: lower(last.hash),
        transactions_count: Number(last.transactions_count),
        items_count: 50,
      });
    }
  });

  it("next_page_params: logs by {block_number, index}; filters and types are not repeated", async () => {
    const { items, pages } = await walk(`/api/v2/transactions/${fanTx}/logs`, LogsResponseTxSchema);
    expect(items).toHaveLength(60);
    const block = txs.find((x) => x.hash === fanTx)!.block;
    expect(pages[0]).toEqual({ block_number: block, index: items[49].index, items_count: 50 });
    // What Lookout gave before still pages the same way.
    const old = await get(
      `/api/v2/transactions/${fanTx}/logs?index=${items[49].index}&transaction_hash=${fanTx}&items_count=50`,
    );
    expect(old.body.items).toEqual(items.slice(50));
    for (const path of [
      `/api/v2/addresses/${addr(4)}/token-transfers?filter=from&type=ERC-20`,
      "/api/v2/token-transfers?type=ERC-20",
      `/api/v2/addresses/${addr(0)}/transactions?filter=from`,
      `/api/v2/addresses/${addr(0)}/internal-transactions?filter=to`,
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      if (!r.body.next_page_params) continue;
      expect(Object.keys(r.body.next_page_params), path).not.toContain("type");
      expect(Object.keys(r.body.next_page_params), path).not.toContain("filter");
    }
    expect(
      (await get(`/api/v2/addresses/${addr(4)}/token-transfers?filter=from&type=ERC-20`)).body
        .next_page_params,
    ).not.toBeNull();
  });

  it("every answer has the frontend's shape", () => {
    expect(checked.length).toBeGreaterThan(100);
    for (const c of checked)
      expect([...Value.Errors(c.schema, c.body)].map((e) => `${c.url} ${e.path}`)).toEqual([]);
  });
});
