import { encodeDeployData, encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parityToCalls } from "../../src/chain/fetch-block.js";
import type { CallFrame, ParityTrace, RpcBlock, RpcReceipt } from "../../src/chain/types.js";
import { fromBytea, fromByteaOrNull } from "../../src/db/bytes.js";
import { flattenCallTree } from "../../src/indexer/stages/internal-transactions/derive.js";
import {
  type ActivityContracts,
  activityContracts,
  deployActivityContracts,
  mineActivity,
  rpc,
  waitForReceipt,
} from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import {
  addressesMatchCounters,
  explorerExtensions,
  recomputedCounters,
  storedCounters,
} from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";

const q = (n: number) => `0x${n.toString(16)}`;

describe("explorer indexing: internal transactions, counters, block and transaction fields", () => {
  let chain: TestChain;
  let t: TestDb;
  let k: ActivityContracts;
  let failed: Hex;
  let destroyed: Hex;

  beforeAll(async () => {
    chain = await startTestChain();
    t = await createTestDb();
    const url = chain.anvil.url;
    k = await deployActivityContracts(url);
    await mineActivity(url, k, { blocks: 25, txPerBlock: 4, seed: 5 });
    const c = activityContracts();
    const from = chain.accounts[1]!.address;
    // A transaction whose inner creation is reverted (revert reason, an errored frame).
    failed = await rpc<Hex>(url, "eth_sendTransaction", [
      {
        from,
        to: k.factory,
        gas: "0x100000",
        data: encodeFunctionData({ abi: c.Factory!.abi, functionName: "createThenRevert" }),
      },
    ]);
    // A contract holding value that self-destructs to another address.
    const doomedHash = await rpc<Hex>(url, "eth_sendTransaction", [
      { from, value: "0x1234", data: encodeDeployData({ abi: c.Doomed!.abi, bytecode: c.Doomed!.bytecode }) },
    ]);
    await rpc(url, "evm_mine");
    const doomed = (await waitForReceipt(url, doomedHash)).contractAddress!;
    destroyed = await rpc<Hex>(url, "eth_sendTransaction", [
      {
        from,
        to: doomed,
        gas: "0x100000",
        data: encodeFunctionData({
          abi: c.Doomed!.abi,
          functionName: "destroy",
          args: [chain.accounts[4]!.address],
        }),
      },
    ]);
    await rpc(url, "evm_mine");
    await waitForReceipt(url, destroyed);
    const indexer = await createTestIndexer(t.db, url, { batchSize: 6, extensions: explorerExtensions() });
    await indexToHead(indexer, t.db, url);
  });
  afterAll(async () => {
    await t?.drop();
    await chain?.stop();
  });

  it("stores every call frame of every transaction as the node's callTracer reports it", async () => {
    const url = chain.anvil.url;
    const txs = await t.db.query<{ hash: Uint8Array; block_number: number; index: number }>(
      "select hash, block_number, index from transactions order by block_number, index",
    );
    expect(txs.length).toBeGreaterThan(50);
    let frames = 0;
    for (const x of txs) {
      const hash = fromBytea(x.hash);
      const root = await rpc<CallFrame>(url, "debug_traceTransaction", [hash, { tracer: "callTracer" }]);
      const expected: Array<Record<string, unknown>> = [];
      const walk = (f: CallFrame, path: number[]) => {
        const type = f.type.toLowerCase();
        const creates = type === "create" || type === "create2";
        expected.push({
          type: type === "selfdestruct" ? "selfdestruct" : creates ? type : "call",
          from: f.from.toLowerCase(),
          to: creates ? null : (f.to?.toLowerCase() ?? null),
          created: creates && !f.error ? f.to!.toLowerCase() : null,
          value: BigInt(f.value ?? "0x0").toString(),
          error: f.error ?? null,
          trace: path,
        });
        (f.calls ?? []).forEach((c, i) => {
          walk(c, [...path, i]);
        });
      };
      walk(root, []);
      const stored = await t.db.query<{
        type: string;
        from_address: Uint8Array;
        to_address: Uint8Array | null;
        created_contract_address: Uint8Array | null;
        value: string;
        error: string | null;
        trace_address: number[];
        index: number;
        transaction_index: number;
      }>("select * from internal_transactions where transaction_hash = $1 order by index", [x.hash]);
      expect(
        stored.map((s) => ({
          type: s.type,
          from: fromBytea(s.from_address),
          to: fromByteaOrNull(s.to_address),
          created: fromByteaOrNull(s.created_contract_address),
          value: String(s.value),
          error: s.error,
          trace: s.trace_address,
        })),
        hash,
      ).toEqual(expected);
      expect(stored.map((s) => s.index)).toEqual(stored.map((_, i) => i));
      expect(stored.every((s) => s.transaction_index === x.index)).toBe(true);
      frames += stored.length;
    }
    expect(frames).toBeGreaterThan(txs.length);
    // The scenario has internal value transfers, creations of both kinds, a self-destruct and an errored frame.
    const kinds = await t.db.query<{ type: string; n: string }>(
      "select type, count(*) as n from internal_transactions where index > 0 group by type",
    );
    expect(new Set(kinds.map((r) => r.type))).toEqual(new Set(["call", "create", "create2", "selfdestruct"]));
    const [errored] = await t.db.query<{ n: string }>(
      "select count(*) as n from internal_transactions where transaction_hash = $1 and error is not null",
      [Buffer.from(failed.slice(2), "hex")],
    );
    expect(Number(errored!.n)).toBeGreaterThan(0);
    const [sd] = await t.db.query<{ value: string }>(
      "select value from internal_transactions where transaction_hash = $1 and type = 'selfdestruct'",
      [Buffer.from(destroyed.slice(2), "hex")],
    );
    expect(String(sd!.value)).toBe(String(0x1234));
    // Every block says its internal transactions were indexed (anvil gives traces).
    const [notIndexed] = await t.db.query<{ n: string }>(
      "select count(*) as n from blocks where not internal_transactions_indexed",
    );
    expect(Number(notIndexed!.n)).toBe(0);
  });

  it("converts the node's trace_block answer into the same frames as its callTracer", async () => {
    const url = chain.anvil.url;
    const rows = await t.db.query<{ block_number: number }>(
      "select distinct block_number from transactions order by block_number",
    );
    let compared = 0;
    for (const { block_number: n } of rows) {
      const block = await rpc<RpcBlock>(url, "eth_getBlockByNumber", [q(n), true]);
      const traces = await rpc<ParityTrace[]>(url, "trace_block", [q(n)]);
      const debug = await rpc<Array<{ result: CallFrame }>>(url, "debug_traceBlockByNumber", [
        q(n),
        { tracer: "callTracer" },
      ]);
      const { calls } = parityToCalls(traces, block.transactions);
      const shape = (root: CallFrame, i: number) =>
        flattenCallTree(root, {
          blockNumber: n,
          blockHash: block.hash,
          transactionIndex: i,
          transactionHash: block.transactions[i]!.hash,
        }).map((r) => ({
          type: r.type,
          callType: r.callType,
          from: r.from.toLowerCase(),
          to: r.to?.toLowerCase() ?? null,
          created: r.createdContract?.toLowerCase() ?? null,
          value: r.value,
          failed: r.error != null,
          trace: r.traceAddress,
        }));
      expect(calls.map(shape), `block ${n}`).toEqual(debug.map((d, i) => shape(d.result, i)));
      compared += calls.length;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it("keeps per-address and chain counters equal to a count from scratch", async () => {
    const kept = await storedCounters(t.db);
    const fresh = await recomputedCounters(t.db);
    expect(kept.address).toEqual(fresh.address);
    expect(kept.chain).toEqual(fresh.chain);
    expect(await addressesMatchCounters(t.db)).toEqual({ missing: 0, extra: 0 });
    // Spot check against the node: the sender of the failed transaction has its nonce worth of sent txs at least.
    const sender = chain.accounts[1]!.address.toLowerCase();
    const nonce = Number(await rpc<Hex>(chain.anvil.url, "eth_getTransactionCount", [sender, "latest"]));
    expect(Number(kept.address[sender]!.transactions_count)).toBeGreaterThanOrEqual(nonce);
    expect(Number(kept.chain.transactions)).toBe(
      Number((await t.db.query<{ n: string }>("select count(*) as n from transactions"))[0]!.n),
    );
  });

  it("with TRACES=off stores no frames and marks every block's internal transactions as not indexed", async () => {
    const off = await createTestDb();
    try {
      const indexer = await createTestIndexer(off.db, chain.anvil.url, {
        traces: "off",
        extensions: explorerExtensions(),
      });
      await indexToHead(indexer, off.db, chain.anvil.url);
      const [r] = await off.db.query<{ frames: string; indexed: string; blocks: string }>(
        `select (select count(*) from internal_transactions) as frames,
                (select count(*) from blocks where internal_transactions_indexed) as indexed,
                (select count(*) from blocks) as blocks`,
      );
      expect(Number(r!.frames)).toBe(0);
      expect(Number(r!.indexed)).toBe(0);
      expect(Number(r!.blocks)).toBeGreaterThan(20);
      const kept = await storedCounters(off.db);
      const fresh = await recomputedCounters(off.db);
      expect(kept.address).toEqual(fresh.address);
      expect(kept.chain).toEqual(fresh.chain);
      expect(kept.chain.internal_transactions).toBe("0");
    } finally {
      await off.drop();
    }
  });

  it("fills the new block and transaction columns from the node", async () => {
    const url = chain.anvil.url;
    const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    for (let n = head - 3; n <= head; n++) {
      const block = await rpc<RpcBlock & { stateRoot: Hex; extraData: Hex }>(url, "eth_getBlockByNumber", [
        q(n),
        true,
      ]);
      const receipts = await rpc<RpcReceipt[]>(url, "eth_getBlockReceipts", [q(n)]);
      const [b] = await t.db.query<Record<string, unknown>>("select * from blocks where number = $1", [n]);
      expect(fromBytea(b!.state_root as Uint8Array)).toBe(block.stateRoot);
      expect(fromBytea(b!.extra_data as Uint8Array)).toBe(block.extraData);
      const base = BigInt(block.baseFeePerGas!);
      let fees = 0n;
      let tips = 0n;
      for (const r of receipts) {
        const price = BigInt(r.effectiveGasPrice!);
        fees += BigInt(r.gasUsed) * price;
        tips += BigInt(r.gasUsed) * (price - base);
      }
      expect(String(b!.transaction_fees)).toBe(fees.toString());
      expect(String(b!.priority_fees)).toBe(tips.toString());
      expect(String(b!.burnt_fees)).toBe((BigInt(block.gasUsed) * base).toString());
      expect(b!.withdrawals_count).toBe(block.withdrawals?.length ?? null);
    }
    const [f] = await t.db.query<{ revert_reason: string | null; block_hash: Uint8Array; status: number }>(
      "select revert_reason, block_hash, status from transactions where hash = $1",
      [Buffer.from(failed.slice(2), "hex")],
    );
    expect(f!.status).toBe(0);
    // Error(string) "undone", ABI-encoded: the explorer decodes it.
    expect(f!.revert_reason).toMatch(/^0x08c379a0/);
    expect(Buffer.from(f!.revert_reason!.slice(138), "hex").toString("utf8").replace(/\0+$/, "")).toBe(
      "undone",
    );
  });

  // Last: it mines more blocks.
  it("counts what an index made before the counters existed holds, then keeps counting", async () => {
    const url = chain.anvil.url;
    const legacy = await createTestDb();
    try {
      const without = explorerExtensions().filter((x) => x.id !== "counters");
      await indexToHead(await createTestIndexer(legacy.db, url, { extensions: without }), legacy.db, url);
      const [before] = await legacy.db.query<{ n: string }>("select count(*) as n from address_counters");
      expect(Number(before!.n)).toBe(0);
      await mineActivity(url, k, { blocks: 4, txPerBlock: 3, seed: 21 });
      await indexToHead(
        await createTestIndexer(legacy.db, url, { extensions: explorerExtensions() }),
        legacy.db,
        url,
      );
      const kept = await storedCounters(legacy.db);
      const fresh = await recomputedCounters(legacy.db);
      expect(kept.address).toEqual(fresh.address);
      expect(kept.chain).toEqual(fresh.chain);
      expect(await addressesMatchCounters(legacy.db)).toEqual({ missing: 0, extra: 0 });
    } finally {
      await legacy.drop();
    }
  });
});
