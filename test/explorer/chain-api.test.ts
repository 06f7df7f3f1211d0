import { readFileSync } from "node:fs";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { type Address, encodeFunctionData, erc20Abi, getAddress, type Hex, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { BlockListSchema, BlockSchema, BlocksPageSchema } from "../../src/explorer/block/schema.js";
import { QuickSearchSchema, RedirectSchema, SearchResultSchema } from "../../src/explorer/search/schema.js";
import { StateChangesSchema } from "../../src/explorer/state-change/schema.js";
import {
  BackendVersionSchema,
  HomeStatsSchema,
  IndexingStatusSchema,
} from "../../src/explorer/stats/schema.js";
import {
  RawTraceSchema,
  TransactionListSchema,
  TransactionSchema,
  TransactionsPageSchema,
} from "../../src/explorer/transaction/schema.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { automaticVerificationExtension } from "../../src/indexer/stages/auto-verify/extension.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { refreshTokenProperties } from "../../src/token-workers/properties.js";
import { packagePath } from "../../src/util/package-root.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy as deployToken, invoke } from "../helpers/tokens.js";
import { buildVerifierApp, offlineVerifierCompilers } from "../helpers/verify.js";
import { type Built, build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

type NodeTx = {
  hash: Hex;
  from: Address;
  to: Address | null;
  value: Hex;
  nonce: Hex;
  type: Hex;
  blockNumber: Hex;
  transactionIndex: Hex;
  gas: Hex;
  maxPriorityFeePerGas?: Hex;
};
type NodeBlock = {
  number: Hex;
  hash: Hex;
  parentHash: Hex;
  miner: Address;
  gasUsed: Hex;
  gasLimit: Hex;
  baseFeePerGas?: Hex;
  size: Hex;
  timestamp: Hex;
  transactions: NodeTx[];
};
type Receipt = { status: Hex; gasUsed: Hex; effectiveGasPrice: Hex; contractAddress: Address | null };

const SOURCES = { "Activity.sol": readFileSync(packagePath("test/contracts/Activity.sol"), "utf8") };
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };

describe("explorer API: blocks, transactions, stats, search (against anvil)", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let indexer: Indexer;
  let compilers: CompilerRegistry;
  let url: string;
  let A: Address;
  let B: Address;
  let C: Address;
  let coin: Address;
  let forwarder: Address;
  let factory: Address;
  let built: Record<string, Built>;
  const tx: Record<string, Hex> = {};
  let blocks: NodeBlock[];
  const receipts = new Map<Hex, Receipt>();

  const get = async (path: string) => {
    const r = await app.inject({ url: path });
    return { status: r.statusCode, body: r.json() as any };
  };
  /** Validates against the frontend type's schema; the message names the failing members. */
  const conforms = (schema: TSchema, body: unknown) => {
    const errors = [...Value.Errors(schema, body)].slice(0, 5).map((e) => `${e.path}: ${e.message}`);
    expect(errors).toEqual([]);
  };
  const send = async (o: { from: Address; to?: Address; data?: Hex; value?: bigint; gas?: bigint }) => {
    const hash = await rpc<Hex>(url, "eth_sendTransaction", [
      {
        from: o.from,
        ...(o.to ? { to: o.to } : {}),
        ...(o.data ? { data: o.data } : {}),
        ...(o.value ? { value: toHex(o.value) } : {}),
        gas: toHex(o.gas ?? 3_000_000n),
      },
    ]);
    await waitForReceipt(url, hash);
    return hash;
  };
  /** Follows next_page_params to the end, collecting every item (the params merged over the path's own, as the frontend does). */
  const walk = async (path: string, schema: TSchema) => {
    const [base, own] = path.split("?") as [string, string | undefined];
    const items: any[] = [];
    let params: Record<string, unknown> | null = {};
    for (let i = 0; params && i < 100; i++) {
      const qs = new URLSearchParams(own);
      for (const [k, v] of Object.entries(params)) qs.set(k, String(v));
      const r = await get(`${base}?${qs}`);
      expect(r.status).toBe(200);
      conforms(schema, r.body);
      expect(r.body.items.length).toBeLessThanOrEqual(50);
      items.push(...r.body.items);
      params = r.body.next_page_params;
    }
    return items;
  };

  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
    [A, B, C] = chain.accounts.map((a) => a.address.toLowerCase() as Address) as [Address, Address, Address];
    t = await createTestDb();
    compilers = await offlineVerifierCompilers();
    app = await buildVerifierApp(t.db, chain, compilers);
    indexer = await createTestIndexer(t.db, url, {
      // As `lookout start` runs it: the coin balance history gives state changes their balances.
      extensions: [
        coinBalanceExtension(),
        currentBalancesExtension(),
        createProxiesExtension(),
        automaticVerificationExtension(),
        ...explorerExtensions(),
      ],
    });

    const version = versionFor(compilers, "0.8.26");
    built = await build(compilers, version, SOURCES, SETTINGS);
    const deploy = async (name: string) => {
      const h = await send({ from: A, data: deployData(built[name]!) });
      tx[`deploy${name}`] = h;
      return (
        await rpc<Receipt>(url, "eth_getTransactionReceipt", [h])
      ).contractAddress!.toLowerCase() as Address;
    };
    forwarder = await deploy("Forwarder");
    factory = await deploy("Factory");
    coin = await deployToken(url, A, "TestCoin", [10n ** 24n]);
    // 55 plain ETH transfers from B: more than a page of B's transactions and of blocks.
    for (let i = 0; i < 55; i++) tx[`eth${i}`] = await send({ from: B, to: C, value: BigInt(i + 1) });
    tx.erc20 = await invoke(url, A, coin, "TestCoin", "transfer", [B, 12345n]);
    const fwd = built.Forwarder!.abi;
    tx.forward = await send({
      from: B,
      to: forwarder,
      value: 5000n,
      data: encodeFunctionData({ abi: fwd, functionName: "forward", args: [C] }),
    });
    const fac = built.Factory!.abi;
    tx.create = await send({
      from: B,
      to: factory,
      value: 7n,
      data: encodeFunctionData({ abi: fac, functionName: "create", args: [42n] }),
    });
    tx.revert = await send({
      from: B,
      to: factory,
      gas: 500_000n,
      data: encodeFunctionData({ abi: fac, functionName: "createThenRevert" }),
    });
    // Forwarder and Factory verified in our store: their calls decode.
    const chainId = String(chain.anvil.chainId);
    const v = await app.inject({
      method: "POST",
      url: "/api/v1/solidity/sources:verify-standard-json",
      payload: {
        contracts: [
          { chainId, address: forwarder },
          { chainId, address: factory },
        ],
        compiler: version,
        input: standardJsonText(SOURCES, SETTINGS),
      },
    });
    expect(v.statusCode).toBe(200);

    await indexToHead(indexer, t.db, url);
    const r = createRpc({ url, batchSize: 50, timeoutMs: 10_000, retries: 2 });
    while ((await refreshTokenProperties(t.db, r)) > 0);

    const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    blocks = await Promise.all(
      Array.from({ length: head + 1 }, (_, n) =>
        rpc<NodeBlock>(url, "eth_getBlockByNumber", [toHex(n), true]),
      ),
    );
    for (const b of blocks)
      for (const x of b.transactions)
        receipts.set(x.hash, await rpc<Receipt>(url, "eth_getTransactionReceipt", [x.hash]));
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await compilers?.close();
    await t?.drop();
    await chain?.stop();
  });

  const allTxs = () => blocks.flatMap((b) => b.transactions);
  const newestFirst = (txs: NodeTx[]) =>
    [...txs].sort(
      (x, y) =>
        Number(y.blockNumber) - Number(x.blockNumber) ||
        Number(y.transactionIndex) - Number(x.transactionIndex),
    );

  it("serves a transaction as the node has it, with Blockscout's fee fields", async () => {
    for (const h of [tx.eth0!, tx.erc20!, tx.forward!, tx.create!, tx.deployForwarder!]) {
      const r = await get(`/api/v2/transactions/${h}`);
      expect(r.status).toBe(200);
      conforms(TransactionSchema, r.body);
      const n = allTxs().find((x) => x.hash === h)!;
      const rc = receipts.get(h)!;
      const blk = blocks[Number(n.blockNumber)]!;
      expect(r.body).toMatchObject({
        hash: h,
        block_number: Number(n.blockNumber),
        position: Number(n.transactionIndex),
        nonce: Number(n.nonce),
        value: BigInt(n.value).toString(),
        type: Number(n.type),
        gas_limit: BigInt(n.gas).toString(),
        gas_used: BigInt(rc.gasUsed).toString(),
        status: "ok",
        result: "success",
        timestamp: new Date(Number(blk.timestamp) * 1000).toISOString().replace(".000Z", ".000000Z"),
        fee: { type: "actual", value: (BigInt(rc.gasUsed) * BigInt(rc.effectiveGasPrice)).toString() },
        gas_price: BigInt(rc.effectiveGasPrice).toString(),
        base_fee_per_gas: BigInt(blk.baseFeePerGas!).toString(),
        transaction_burnt_fee: (BigInt(blk.baseFeePerGas!) * BigInt(rc.gasUsed)).toString(),
        priority_fee: (
          (BigInt(rc.effectiveGasPrice) - BigInt(blk.baseFeePerGas!)) *
          BigInt(rc.gasUsed)
        ).toString(),
        confirmations: blocks.length - Number(n.blockNumber),
      });
      expect(r.body.from.hash).toBe(getAddress(n.from));
      expect(r.body.to?.hash ?? null).toBe(n.to ? getAddress(n.to) : null);
      expect(r.body.created_contract?.hash ?? null).toBe(
        rc.contractAddress ? getAddress(rc.contractAddress) : null,
      );
    }
  });

  it("decodes calls of verified contracts and names their methods", async () => {
    const fwd = (await get(`/api/v2/transactions/${tx.forward}`)).body;
    expect(fwd.method).toBe("forward");
    expect(fwd.decoded_input).toEqual({
      // Bare hex, as Blockscout encodes the selector.
      method_id: encodeFunctionData({ abi: built.Forwarder!.abi, functionName: "forward", args: [C] }).slice(
        2,
        10,
      ),
      method_call: "forward(address to)",
      parameters: [{ name: "to", type: "address", value: getAddress(C) }],
    });
    expect(fwd.transaction_types).toEqual(["coin_transfer", "contract_call"]);
    expect(fwd.has_error_in_internal_transactions).toBe(false);
    const create = (await get(`/api/v2/transactions/${tx.create}`)).body;
    expect(create.decoded_input.parameters).toEqual([{ name: "x", type: "uint256", value: "42" }]);
    // TestCoin is not verified: the method id, as Blockscout shows it for a contract it cannot decode.
    const erc20 = (await get(`/api/v2/transactions/${tx.erc20}`)).body;
    expect(erc20.decoded_input).toBeNull();
    expect(erc20.method).toBe("0xa9059cbb");
    expect(erc20.transaction_types).toEqual(["contract_call", "token_transfer"]);
    // The details page carries the token-transfer preview; lists carry none, as Blockscout's.
    expect(erc20.token_transfers_overflow).toBe(false);
    expect(erc20.token_transfers).toHaveLength(1);
    expect(erc20.token_transfers[0]).toMatchObject({
      transaction_hash: tx.erc20,
      from: { hash: getAddress(A) },
      to: { hash: getAddress(B) },
      total: { value: "12345" },
    });
    const listed = (await get("/api/v2/transactions")).body.items.find(
      (x: { hash: Hex }) => x.hash === tx.erc20,
    );
    expect(listed).toMatchObject({
      token_transfers: null,
      token_transfers_overflow: null,
      method: "0xa9059cbb",
    });
    const plain = (await get(`/api/v2/transactions/${tx.eth3}`)).body;
    expect(plain).toMatchObject({ method: null, decoded_input: null, transaction_types: ["coin_transfer"] });
    const creation = (await get(`/api/v2/transactions/${tx.deployForwarder}`)).body;
    expect(creation.transaction_types).toEqual(["contract_creation"]);
  });

  it("shows a reverted transaction's status, error and decoded revert reason", async () => {
    const r = await get(`/api/v2/transactions/${tx.revert}`);
    conforms(TransactionSchema, r.body);
    expect(receipts.get(tx.revert!)!.status).toBe("0x0");
    expect(r.body.status).toBe("error");
    expect(r.body.result.toLowerCase()).toContain("revert");
    expect(r.body.revert_reason).toEqual({
      method_id: "08c379a0",
      method_call: "Error(string reason)",
      parameters: [{ name: "reason", type: "string", value: "undone" }],
    });
  });

  it("serves the raw trace from the stored call frames", async () => {
    const r = await get(`/api/v2/transactions/${tx.forward}/raw-trace`);
    expect(r.status).toBe(200);
    conforms(RawTraceSchema, r.body);
    expect(r.body).toHaveLength(2);
    expect(r.body[0]).toMatchObject({ type: "call", subtraces: 1, traceAddress: [] });
    expect(r.body[1]).toMatchObject({
      type: "call",
      traceAddress: [0],
      subtraces: 0,
      action: { callType: "call", from: forwarder, to: C, value: toHex(5000n) },
    });
    const c = await get(`/api/v2/transactions/${tx.create}/raw-trace`);
    expect(c.body[1]).toMatchObject({ type: "create", action: { from: factory, value: toHex(7n) } });
    expect((await get(`/api/v2/transactions/${tx.forward}/summary`)).status).toBe(403);
  });

  it("shows each transaction's state changes as the node's balances before and after it", async () => {
    const balance = async (a: Address, n: number) =>
      BigInt(await rpc<Hex>(url, "eth_getBalance", [a, toHex(n)]));
    const tokenBalance = async (a: Address, n: number) =>
      BigInt(
        await rpc<Hex>(url, "eth_call", [
          { to: coin, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [a] }) },
          toHex(n),
        ]),
      );
    for (const name of ["erc20", "forward", "create", "revert", "eth0", "deployForwarder"]) {
      const h = tx[name]!;
      const nodeTx = allTxs().find((x) => x.hash === h)!;
      const n = Number(nodeTx.blockNumber);
      const r = await get(`/api/v2/transactions/${h}/state-changes`);
      expect(r.status).toBe(200);
      conforms(StateChangesSchema, r.body);
      expect(r.body.next_page_params).toBeNull();
      const coins = (r.body.items as any[]).filter((i) => i.type === "coin");
      // Every coin entry is the node's balance at the end of the previous block and of this one (one
      // transaction per block here), and every participant whose balance moved has one.
      for (const c of coins) {
        const a = c.address.hash.toLowerCase() as Address;
        const [before, after] = [await balance(a, n - 1), await balance(a, n)];
        expect({ a, before: c.balance_before, after: c.balance_after, change: c.change }).toEqual({
          a,
          before: String(before),
          after: String(after),
          change: String(after - before),
        });
        expect(c.is_miner).toBe(a === blocks[n]!.miner.toLowerCase());
      }
      const participants = [nodeTx.from, nodeTx.to, blocks[n]!.miner, ...(name === "forward" ? [C] : [])]
        .filter((a): a is Address => !!a)
        .map((a) => a.toLowerCase() as Address);
      for (const a of new Set(participants))
        if ((await balance(a, n - 1)) !== (await balance(a, n)))
          expect(coins.map((c) => c.address.hash.toLowerCase())).toContain(a);
      const tokens = (r.body.items as any[]).filter((i) => i.type === "token");
      if (name !== "erc20") {
        expect(tokens).toEqual([]);
        continue;
      }
      // The ERC-20 transfer A → B: both holders, with balanceOf before and after, by address.
      expect(tokens.map((e) => e.address.hash.toLowerCase())).toEqual([A, B].sort());
      for (const e of tokens) {
        const a = e.address.hash.toLowerCase() as Address;
        const [before, after] = [await tokenBalance(a, n - 1), await tokenBalance(a, n)];
        expect(e).toMatchObject({
          is_miner: false,
          token: { address_hash: getAddress(coin), type: "ERC-20" },
          balance_before: String(before),
          balance_after: String(after),
          change: String(after - before),
        });
      }
    }
    expect((await get(`/api/v2/transactions/0x${"ab".repeat(32)}/state-changes`)).status).toBe(404);
  });

  it("pages every transaction newest first, to the end, without gaps or repeats", async () => {
    const items = await walk("/api/v2/transactions", TransactionsPageSchema);
    expect(items.map((i) => i.hash)).toEqual(newestFirst(allTxs()).map((x) => x.hash));
    const filtered = await get("/api/v2/transactions?filter=validated");
    // Blockscout drops `filter` from next_page_params (the frontend sends it with every page).
    expect(filtered.body.next_page_params).toEqual({
      block_number: items[49].block_number,
      index: items[49].position,
      items_count: 50,
    });
    expect(await get("/api/v2/transactions?filter=pending")).toEqual({
      status: 200,
      body: { items: [], next_page_params: null },
    });
  });

  it("pages an address's transactions with filter=from|to", async () => {
    const txs = allTxs();
    const involving = (a: Address, f?: "from" | "to") =>
      newestFirst(
        txs.filter((x) => {
          const from = x.from.toLowerCase() === a;
          const to = x.to?.toLowerCase() === a || receipts.get(x.hash)!.contractAddress?.toLowerCase() === a;
          return f === "from" ? from : f === "to" ? to : from || to;
        }),
      ).map((x) => x.hash);
    const all = await walk(`/api/v2/addresses/${B}/transactions`, TransactionsPageSchema);
    expect(all.length).toBeGreaterThan(50);
    expect(all.map((i) => i.hash)).toEqual(involving(B));
    const from = await walk(`/api/v2/addresses/${B}/transactions?filter=from`, TransactionsPageSchema);
    expect(from.map((i) => i.hash)).toEqual(involving(B, "from"));
    const to = await walk(
      `/api/v2/addresses/${getAddress(C)}/transactions?filter=to`,
      TransactionsPageSchema,
    );
    expect(to.map((i) => i.hash)).toEqual(involving(C, "to"));
    const created = await walk(`/api/v2/addresses/${forwarder}/transactions`, TransactionsPageSchema);
    expect(created.map((i) => i.hash)).toEqual(involving(forwarder));
    expect(created.at(-1).hash).toBe(tx.deployForwarder);
    const unknown = await get(`/api/v2/addresses/0x${"12".repeat(20)}/transactions`);
    expect(unknown.body).toEqual({ items: [], next_page_params: null });
  });

  it("serves blocks as the node has them and pages them to the end", async () => {
    const items = await walk("/api/v2/blocks?type=block", BlocksPageSchema);
    expect(items.map((b) => b.hash)).toEqual([...blocks].reverse().map((b) => b.hash));
    expect(await get("/api/v2/blocks?type=uncle")).toEqual({
      status: 200,
      body: { items: [], next_page_params: null },
    });
    const n = Number(allTxs().find((x) => x.hash === tx.forward)!.blockNumber);
    const node = blocks[n]!;
    for (const id of [String(n), node.hash]) {
      const r = await get(`/api/v2/blocks/${id}`);
      expect(r.status).toBe(200);
      conforms(BlockSchema, r.body);
      const used = BigInt(node.gasUsed);
      const base = BigInt(node.baseFeePerGas!);
      const fees = node.transactions.reduce(
        (s, x) => s + BigInt(receipts.get(x.hash)!.gasUsed) * BigInt(receipts.get(x.hash)!.effectiveGasPrice),
        0n,
      );
      expect(r.body).toMatchObject({
        height: n,
        hash: node.hash,
        parent_hash: node.parentHash,
        miner: { hash: getAddress(node.miner) },
        transactions_count: node.transactions.length,
        gas_used: used.toString(),
        gas_limit: BigInt(node.gasLimit).toString(),
        base_fee_per_gas: base.toString(),
        burnt_fees: (base * used).toString(),
        priority_fee: (fees - base * used).toString(),
        transaction_fees: fees.toString(),
        size: Number(node.size),
        timestamp: new Date(Number(node.timestamp) * 1000).toISOString().replace(".000Z", ".000000Z"),
        type: "block",
        internal_transactions_count: 1,
      });
      expect(r.body.gas_used_percentage).toBeCloseTo((Number(used) / Number(node.gasLimit)) * 100, 6);
    }
    const txs = await get(`/api/v2/blocks/${n}/transactions`);
    conforms(TransactionsPageSchema, txs.body);
    expect(txs.body.items.map((x: { hash: Hex }) => x.hash)).toEqual(node.transactions.map((x) => x.hash));
  });

  it("lists the blocks an address validated", async () => {
    const miner = blocks[1]!.miner.toLowerCase() as Address;
    const items = await walk(`/api/v2/addresses/${miner}/blocks-validated`, BlocksPageSchema);
    expect(items.map((b) => b.height)).toEqual(
      blocks
        .filter((b) => b.miner.toLowerCase() === miner)
        .map((b) => Number(b.number))
        .reverse(),
    );
  });

  it("answers the home page: stats, newest blocks and transactions, indexing status, version", async () => {
    const s = await get("/api/v2/stats");
    conforms(HomeStatsSchema, s.body);
    expect(s.body.total_blocks).toBe(String(blocks.length));
    expect(s.body.total_transactions).toBe(String(allTxs().length));
    const gas = blocks.reduce((x, b) => x + BigInt(b.gasUsed), 0n);
    expect(s.body.total_gas_used).toBe(gas.toString());
    expect(s.body.transactions_today).toBe(String(allTxs().length));
    // The gas price oracle, derived here from the node: per block, the 35/60/90th percentile (percentile_disc) of
    // the priority fees its successful transactions offered; the mean over blocks, plus the newest base fee, in gwei
    // rounded up to 0.01.
    const pct = (xs: bigint[], f: number) => {
      const sorted = [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return sorted[Math.max(0, Math.ceil(f * sorted.length) - 1)]!;
    };
    const paying = blocks
      .map((b) =>
        b.transactions.filter(
          (x) =>
            receipts.get(x.hash)!.status === "0x1" && BigInt(receipts.get(x.hash)!.effectiveGasPrice) > 0n,
        ),
      )
      .filter((xs) => xs.length > 0)
      .slice(-200);
    expect(paying.length).toBeGreaterThan(10);
    const base = BigInt(blocks.at(-1)!.baseFeePerGas!);
    const ceilGwei = (sum: bigint, n: bigint) =>
      Number((sum + n * 10_000_000n - 1n) / (n * 10_000_000n)) / 100;
    const level = (f: number) => {
      const prios = paying.map((xs) =>
        pct(
          xs.map((x) => BigInt(x.maxPriorityFeePerGas!)),
          f,
        ),
      );
      const sum = prios.reduce((a, b) => a + b, 0n);
      const n = BigInt(prios.length);
      return {
        price: ceilGwei(sum + base * n, n),
        priority_fee: ceilGwei(sum, n),
        base_fee: ceilGwei(base, 1n),
      };
    };
    expect(s.body.gas_prices).toMatchObject({ slow: level(0.35), average: level(0.6), fast: level(0.9) });
    expect(s.body.gas_prices.average).toMatchObject({ fiat_price: null, time: s.body.average_block_time });
    expect(Date.parse(s.body.gas_price_updated_at)).toBeGreaterThan(Date.now() - 60_000);
    const mb = await get("/api/v2/main-page/blocks");
    conforms(BlockListSchema, mb.body);
    expect(mb.body.map((b: { height: number }) => b.height)).toEqual(
      [0, 1, 2, 3].map((i) => blocks.length - 1 - i),
    );
    const mt = await get("/api/v2/main-page/transactions");
    conforms(TransactionListSchema, mt.body);
    expect(mt.body.map((x: { hash: Hex }) => x.hash)).toEqual(
      newestFirst(allTxs())
        .slice(0, 6)
        .map((x) => x.hash),
    );
    const st = await get("/api/v2/main-page/indexing-status");
    conforms(IndexingStatusSchema, st.body);
    expect(st.body).toMatchObject({ finished_indexing_blocks: true, indexed_blocks_ratio: "1.00" });
    conforms(BackendVersionSchema, (await get("/api/v2/config/backend-version")).body);
  });

  it("searches addresses, tokens, verified contracts, transactions and blocks", async () => {
    const search = async (q: string) => {
      const r = await get(`/api/v2/search?q=${encodeURIComponent(q)}`);
      expect(r.status).toBe(200);
      conforms(SearchResultSchema, r.body);
      const quick = await get(`/api/v2/search/quick?q=${encodeURIComponent(q)}`);
      conforms(QuickSearchSchema, quick.body);
      expect(quick.body).toEqual(r.body.items);
      return r.body.items as any[];
    };
    expect(await search(B)).toMatchObject([{ type: "address", address_hash: getAddress(B) }]);
    expect(await search(tx.forward!)).toMatchObject([{ type: "transaction", transaction_hash: tx.forward }]);
    const n = Number(allTxs().find((x) => x.hash === tx.forward)!.blockNumber);
    expect(await search(String(n))).toMatchObject([
      { type: "block", block_number: n, block_hash: blocks[n]!.hash },
    ]);
    expect(await search(blocks[n]!.hash)).toMatchObject([{ type: "block", block_number: n }]);
    expect(await search("test co")).toMatchObject([
      {
        type: "token",
        name: "Test Coin",
        symbol: "TCN",
        address_hash: getAddress(coin),
        token_type: "ERC-20",
      },
    ]);
    // Every word a prefix of a word of symbol and name, in any order (Blockscout's full-text search).
    expect(await search("coin")).toMatchObject([{ type: "token", address_hash: getAddress(coin) }]);
    expect(await search("Coi tcn")).toMatchObject([{ type: "token", address_hash: getAddress(coin) }]);
    expect(await search("test coins cheap")).toEqual([]);
    // Names from three characters on, as Blockscout.
    expect(await search("te")).toEqual([]);
    expect(await search("forwar")).toMatchObject([
      {
        type: "contract",
        name: "Forwarder",
        address_hash: getAddress(forwarder),
        is_smart_contract_verified: true,
      },
    ]);
    expect(await search("nothing-like-this")).toEqual([]);
    for (const [q, type] of [
      [tx.forward!, "transaction"],
      [blocks[n]!.hash, "block"],
      [B, "address"],
    ] as const) {
      const r = await get(`/api/v2/search/check-redirect?q=${q}`);
      conforms(RedirectSchema, r.body);
      expect(r.body).toMatchObject({ redirect: true, type });
    }
    expect((await get("/api/v2/search/check-redirect?q=zzz")).body).toEqual({
      redirect: false,
      type: null,
      parameter: null,
    });
  });

  it("answers unknown transactions and blocks with 404 and bad input with Blockscout's 422", async () => {
    const missing = `0x${"ab".repeat(32)}`;
    for (const path of [
      `/api/v2/transactions/${missing}`,
      `/api/v2/transactions/${missing}/raw-trace`,
      `/api/v2/blocks/${missing}`,
      "/api/v2/blocks/999999",
      "/api/v2/blocks/999999/transactions",
    ])
      expect(await get(path)).toEqual({ status: 404, body: { message: "Not found" } });
    for (const [path, pointer] of [
      ["/api/v2/transactions/0x12", "/transaction_hash_param"],
      ["/api/v2/blocks/latest", "/block_hash_or_number_param"],
      ["/api/v2/blocks?type=sideways", "/type"],
      ["/api/v2/transactions?filter=mined", "/filter"],
      ["/api/v2/transactions?block_number=-1&index=0", "/block_number"],
      [`/api/v2/addresses/${B}/transactions?filter=both`, "/filter"],
      ["/api/v2/addresses/0x12/transactions", "/address_hash_param"],
      ["/api/v2/addresses/0x12/blocks-validated", "/address_hash_param"],
      ["/api/v2/search", "/q"],
    ] as const) {
      const r = await get(path);
      expect(r.status, path).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ title: "Invalid value", source: { pointer } });
    }
  });
});
