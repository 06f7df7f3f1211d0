import { readFileSync } from "node:fs";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { encodeFunctionData, getAddress, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app/http-app.js";
import { MarketChartSchema, TransactionsChartSchema } from "../../src/explorer/chart/schema.js";
import { BlockInternalTransactionsResponseSchema } from "../../src/explorer/internal-transaction/block-schema.js";
import {
  WithdrawalsCountersSchema,
  WithdrawalsResponseSchema,
} from "../../src/explorer/withdrawal/list-schema.js";
import { packagePath } from "../../src/util/package-root.js";
import {
  activityContracts,
  deployActivityContracts,
  mineActivity,
  rpc,
  rpcBatch,
} from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { solcModule } from "../helpers/solc.js";
import { buildVerifierApp, offlineVerifierCompilers } from "../helpers/verify.js";
import { standardJsonText, versionFor } from "../helpers/verify-contracts.js";
import { startWithdrawalsNode, withdrawalsOf } from "../helpers/withdrawals-node.js";

type Frame = { type: string; from: Hex; to?: Hex; value?: Hex; calls?: Frame[] };
type NodeBlock = { number: Hex; hash: Hex; timestamp: Hex; transactions: Hex[] };
type NodeFrame = { block: number; txIndex: number; index: number; frame: Frame };

const DAY = 86_400;
const num = (h: Hex) => Number(BigInt(h));

describe("more /api/v2 routes: block internal transactions, withdrawals, home charts", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let compilers: Awaited<ReturnType<typeof offlineVerifierCompilers>>;
  let node: Awaited<ReturnType<typeof startWithdrawalsNode>>;
  const blocks: NodeBlock[] = [];
  const frames: NodeFrame[] = [];
  const now = Math.floor(Date.now() / 1000);
  let token: Hex;

  const get = async (url: string, schema?: TSchema) => {
    const r = await app.inject({ url });
    const body = r.json() as any;
    if (schema && r.statusCode === 200) expect(Value.Errors(schema, body).First()?.message).toBeUndefined();
    return { status: r.statusCode, body };
  };
  const walk = async (path: string, schema: TSchema) => {
    const items: any[] = [];
    let params: Record<string, unknown> | null = null;
    for (let i = 0; i < 100; i++) {
      const [base, query] = path.split("?") as [string, string | undefined];
      const qs = new URLSearchParams(query);
      for (const [k, v] of Object.entries(params ?? {})) qs.set(k, String(v));
      const r = await get(qs.size ? `${base}?${qs}` : base, schema);
      expect(r.status).toBe(200);
      items.push(...r.body.items);
      params = r.body.next_page_params;
      if (!params) return items;
      expect(r.body.items).toHaveLength(50);
    }
    throw new Error("no last page");
  };

  beforeAll(async () => {
    // Genesis 12 days back, so blocks can fall on the chart's past days.
    chain = await startTestChain({
      args: ["--gas-limit", "300000000", "--timestamp", String(now - 12 * DAY)],
    });
    const url = chain.anvil.url;
    await rpc(url, "evm_setAutomine", [false]);
    const from = chain.accounts.map((a) => a.address);
    for (let d = 11; d >= 1; d--) {
      // Some days get no block, some several blocks with a few transfers each.
      if (d % 4 === 0) continue;
      for (let b = 0; b < (d % 3) + 1; b++) {
        for (let i = 0; i < ((d + b) % 4) + 1; i++)
          await rpc(url, "eth_sendTransaction", [{ from: from[i], to: from[9], value: "0x1" }]);
        await rpc(url, "evm_setNextBlockTimestamp", [now - d * DAY + b * 600]);
        await rpc(url, "evm_mine");
      }
    }
    await rpc(url, "evm_setNextBlockTimestamp", [now]);
    const k = await deployActivityContracts(url);
    token = k.token;
    // Large blocks: more than a page of internal transactions in one block.
    await mineActivity(url, k, { blocks: 4, txPerBlock: 100, seed: 7 });
    await rpc(url, "evm_setAutomine", [true]);

    node = await startWithdrawalsNode(url);
    t = await createTestDb();
    compilers = await offlineVerifierCompilers();
    app = await buildVerifierApp(t.db, chain, compilers);
    const indexer = await createTestIndexer(t.db, node.url, { extensions: explorerExtensions() });
    await indexToHead(indexer, t.db, node.url);

    // SimpleToken verified with the compiler and settings its fixture was built with: its calls then decode.
    const v = await app.inject({
      method: "POST",
      url: "/api/v1/solidity/sources:verify-standard-json",
      payload: {
        contracts: [{ chainId: String(chain.anvil.chainId), address: k.token }],
        compiler: versionFor(compilers, solcModule().version().split("+")[0]!),
        input: standardJsonText(
          { "Activity.sol": readFileSync(packagePath("test/contracts/Activity.sol"), "utf8") },
          { optimizer: { enabled: true, runs: 200 } },
        ),
      },
    });
    expect(v.json().contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");

    const head = num(await rpc<Hex>(url, "eth_blockNumber"));
    blocks.push(
      ...(await rpcBatch<NodeBlock>(
        url,
        Array.from({ length: head + 1 }, (_, n) => ({
          method: "eth_getBlockByNumber",
          params: [`0x${n.toString(16)}`, false],
        })),
      )),
    );
    const txs = blocks.flatMap((b) =>
      b.transactions.map((h, i) => ({ h, block: num(b.number), txIndex: i })),
    );
    const traces = await rpcBatch<Frame>(
      url,
      txs.map((x) => ({ method: "debug_traceTransaction", params: [x.h, { tracer: "callTracer" }] })),
    );
    traces.forEach((root, i) => {
      let index = 0;
      const visit = (f: Frame) => {
        frames.push({ block: txs[i]!.block, txIndex: txs[i]!.txIndex, index: index++, frame: f });
        for (const c of f.calls ?? []) visit(c);
      };
      visit(root);
    });
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await compilers?.close();
    await t?.drop();
    await node?.close();
    await chain?.stop();
  });

  // Blockscout leaves out the top-level call (it repeats the transaction); a top-level create stays.
  const listed = (f: NodeFrame) => !(f.index === 0 && f.frame.type === "CALL");
  const row = (i: any) => [
    i.transaction_index,
    i.index,
    i.type,
    i.from.hash,
    i.to?.hash ?? null,
    i.created_contract?.hash ?? null,
    i.value,
  ];
  const expectedRow = (f: NodeFrame) => {
    const create = f.frame.type.startsWith("CREATE");
    return [
      f.txIndex,
      f.index,
      f.frame.type.toLowerCase(),
      getAddress(f.frame.from),
      create ? null : getAddress(f.frame.to!),
      create ? getAddress(f.frame.to!) : null,
      BigInt(f.frame.value ?? 0).toString(),
    ];
  };

  it("a block's internal transactions are the node's frames in execution order, paged and filtered", async () => {
    const perBlock = new Map<number, NodeFrame[]>();
    for (const f of frames.filter(listed)) perBlock.set(f.block, [...(perBlock.get(f.block) ?? []), f]);
    const [busy, expected] = [...perBlock.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(expected.length).toBeGreaterThan(50);
    const all = await walk(
      `/api/v2/blocks/${busy}/internal-transactions`,
      BlockInternalTransactionsResponseSchema,
    );
    expect(all.map(row)).toEqual(expected.map(expectedRow));
    expect(all.every((i) => i.block_number === busy)).toBe(true);
    // By hash, the same list.
    const hash = blocks[busy]!.hash;
    const first = await get(`/api/v2/blocks/${hash}/internal-transactions`);
    expect(first.body.items).toEqual(all.slice(0, 50));
    expect(first.body.next_page_params).toEqual({
      transaction_index: all[49].transaction_index,
      index: all[49].index,
      items_count: 50,
    });

    const creates = await walk(
      `/api/v2/blocks/${busy}/internal-transactions?type=create,create2`,
      BlockInternalTransactionsResponseSchema,
    );
    expect(creates.map(row)).toEqual(
      expected.filter((f) => f.frame.type === "CREATE" || f.frame.type === "CREATE2").map(expectedRow),
    );
    // call_type wins over type, as in Blockscout.
    const calls = await walk(
      `/api/v2/blocks/${busy}/internal-transactions?type=create&call_type=call`,
      BlockInternalTransactionsResponseSchema,
    );
    expect(calls.map(row)).toEqual(expected.filter((f) => f.frame.type === "CALL").map(expectedRow));
    // Unknown labels are dropped: no filter left.
    const unknown = await get(`/api/v2/blocks/${busy}/internal-transactions?type=nothing`);
    expect(unknown.body.items).toEqual(all.slice(0, 50));
    // `type` is not repeated in next_page_params (Blockscout drops it).
    expect(unknown.body.next_page_params).not.toHaveProperty("type");

    expect((await get("/api/v2/blocks/0/internal-transactions")).body).toEqual({
      items: [],
      next_page_params: null,
    });
    expect((await get("/api/v2/blocks/999999/internal-transactions")).status).toBe(404);
    expect((await get(`/api/v2/blocks/${busy}/internal-transactions?call_type=jump`)).status).toBe(422);
  });

  it("withdrawals list every block's withdrawals by index, and the counters sum them", async () => {
    const expected = blocks
      .flatMap((b) => withdrawalsOf(num(b.number)).map((w) => ({ w, b })))
      .sort((x, y) => num(y.w.index) - num(x.w.index));
    expect(expected.length).toBeGreaterThan(50);
    const all = await walk("/api/v2/withdrawals", WithdrawalsResponseSchema);
    expect(
      all.map((i) => [i.index, i.validator_index, i.block_number, i.receiver.hash, i.amount, i.timestamp]),
    ).toEqual(
      expected.map(({ w, b }) => [
        num(w.index),
        num(w.validatorIndex),
        num(b.number),
        getAddress(w.address),
        (BigInt(w.amount) * 10n ** 9n).toString(),
        new Date(num(b.timestamp) * 1000).toISOString().replace(".000Z", ".000000Z"),
      ]),
    );
    const c = await get("/api/v2/withdrawals/counters", WithdrawalsCountersSchema);
    expect(c.body).toEqual({
      withdrawals_count: String(expected.length),
      withdrawals_sum: expected.reduce((s, { w }) => s + BigInt(w.amount) * 10n ** 9n, 0n).toString(),
    });
    expect((await get("/api/v2/withdrawals?index=0")).body).toEqual({ items: [], next_page_params: null });
  });

  it("the transactions chart counts the node's transactions per UTC day, yesterday back 30 days", async () => {
    const dayOf = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
    const perDay = new Map<string, number>();
    for (const b of blocks)
      perDay.set(dayOf(num(b.timestamp)), (perDay.get(dayOf(num(b.timestamp))) ?? 0) + b.transactions.length);
    const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
    const genesisDay = Math.floor(num(blocks[0]!.timestamp) / DAY) * DAY;
    const days: string[] = [];
    for (let d = today - DAY; d >= Math.max(genesisDay, today - 31 * DAY); d -= DAY) days.push(dayOf(d));
    const r = await get("/api/v2/stats/charts/transactions", TransactionsChartSchema);
    expect(r.body).toEqual({
      chart_data: days.map((date) => ({ date, transactions_count: perDay.get(date) ?? 0 })),
    });
    expect(r.body.chart_data.some((d: any) => d.transactions_count > 0)).toBe(true);
    expect(r.body.chart_data.some((d: any) => d.transactions_count === 0)).toBe(true);
    const m = await get("/api/v2/stats/charts/market", MarketChartSchema);
    expect(m).toEqual({ status: 200, body: { chart_data: [], available_supply: 0 } });
  });

  it("decode-calldata decodes with the verified ABI of the address, by GET and POST", async () => {
    const to = "0x00000000000000000000000000000000000000aa";
    const calldata = encodeFunctionData({
      abi: activityContracts().SimpleToken!.abi,
      functionName: "transfer",
      args: [to, 1234n],
    });
    const decoded = {
      method_id: calldata.slice(2, 10),
      method_call: "transfer(address to, uint256 value)",
      parameters: [
        { name: "to", type: "address", value: getAddress(to) },
        { name: "value", type: "uint256", value: "1234" },
      ],
    };
    const g = await get(`/api/v2/utils/decode-calldata?calldata=${calldata}&address_hash=${token}`);
    expect(g.status).toBe(200);
    expect(g.body).toEqual({ result: decoded });
    const p = await app.inject({
      method: "POST",
      url: "/api/v2/utils/decode-calldata",
      payload: { calldata, address_hash: token },
    });
    expect(p.json()).toEqual(g.body);
    // No address, or an address without a verified ABI: nothing to decode with.
    expect((await get(`/api/v2/utils/decode-calldata?calldata=${calldata}`)).body).toEqual({ result: null });
    expect((await get(`/api/v2/utils/decode-calldata?calldata=${calldata}&address_hash=${to}`)).body).toEqual(
      {
        result: null,
      },
    );
    for (const bad of ["calldata=0x123", "calldata=zz", "", `calldata=${calldata}&address_hash=0x12`]) {
      const r = await get(`/api/v2/utils/decode-calldata?${bad}`);
      expect([r.status, r.body]).toEqual([422, { message: "Invalid parameter(s)" }]);
    }
  });
});
