import { Value } from "@sinclair/typebox/value";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { detectCapabilities } from "../../src/chain/capabilities.js";
import { OP_L1_BLOCK } from "../../src/chain/chain-type.js";
import { createRpc } from "../../src/chain/rpc.js";
import { fromBytea } from "../../src/db/bytes.js";
import { TransactionSchema } from "../../src/explorer/transaction/schema.js";
import { opStackExtension } from "../../src/indexer/stages/op-stack/extension.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { type JsonRpcCall, type JsonRpcServer, startJsonRpcServer } from "../helpers/json-rpc-server.js";
import {
  ALLOY_FJORD_RECEIPT,
  OP_ALLOY_ECOTONE_DEPOSIT_RECEIPT,
  replayChain,
  VIEM_BEDROCK_RECEIPT,
  VIEM_DEPOSIT_TRANSACTION,
} from "../helpers/op-recorded.js";

const dec = (h: string) => BigInt(h).toString();

/** A JSON-RPC node that serves the recorded OP Mainnet receipts (test/helpers/op-recorded.ts) and nothing else. */
function replay(call: JsonRpcCall) {
  const chain = replayChain();
  const p = call.params ?? [];
  const byTag = (tag: unknown) =>
    tag === "latest" || tag === "finalized" || tag === "safe"
      ? chain.blocks.length - 1
      : typeof tag === "string" && /^0x[0-9a-f]+$/i.test(tag)
        ? Number(tag)
        : -1;
  const block = (n: number, full: unknown) => {
    const b = chain.blocks[n];
    if (!b) return null;
    return full ? b : { ...b, transactions: b.transactions.map((t) => t.hash) };
  };
  switch (call.method) {
    case "eth_chainId":
      return { result: "0xa" };
    case "eth_blockNumber":
      return { result: `0x${(chain.blocks.length - 1).toString(16)}` };
    case "eth_getBlockByNumber":
      return { result: block(byTag(p[0]), p[1]) };
    case "eth_getBlockByHash":
      return {
        result: block(
          chain.blocks.findIndex((b) => b.hash === p[0]),
          p[1],
        ),
      };
    case "eth_getBlockReceipts":
      return { result: chain.receipts[byTag(p[0])] ?? null };
    case "eth_getTransactionReceipt":
      return { result: chain.receipts.flat().find((r) => r.transactionHash === p[0]) ?? null };
    case "eth_getCode":
      // The L1Block predeploy has code on every OP-stack chain (CHAIN_TYPE=auto finds it).
      return { result: String(p[0]).toLowerCase() === OP_L1_BLOCK ? "0x6080604052" : "0x" };
    default:
      return { error: { code: -32601, message: `the method ${call.method} does not exist` } };
  }
}

/**
 * Real OP Mainnet receipts (Bedrock, Ecotone, Fjord) through the whole path: the replay node, the indexer's op-stack
 * stage, op_transactions, and the transaction page as the frontend reads it, with Blockscout's fee total
 * (L2 fee + L1 fee) and its `l1_*` members.
 */
describe("recorded OP Mainnet receipts: the L1 fee members and fees", () => {
  let node: JsonRpcServer;
  let t: TestDb;
  let app: App;

  beforeAll(async () => {
    node = await startJsonRpcServer(replay);
    t = await createTestDb();
    const indexer = await createTestIndexer(t.db, node.url, {
      extensions: [opStackExtension(), ...explorerExtensions()],
    });
    await indexToHead(indexer, t.db, node.url);
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await node?.close();
  });

  const details = async (hash: string) => {
    const res = await app.inject({ url: `/api/v2/transactions/${hash}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Value.Errors(TransactionSchema, body).First()).toBeUndefined();
    return body;
  };

  it("finds the chain to be OP stack by the L1Block predeploy (CHAIN_TYPE=auto)", async () => {
    const caps = await detectCapabilities(
      createRpc({ url: node.url, batchSize: 10, timeoutMs: 5000, retries: 0 }),
      {
        traces: "auto",
      },
    );
    expect(caps).toMatchObject({ chainType: "optimism", traces: "none", prestateDiff: false });
  });

  it("Bedrock: l1FeeScalar as a decimal, the L1 fee in the fee", async () => {
    const r = VIEM_BEDROCK_RECEIPT;
    const d = await details(r.transactionHash);
    expect(d).toMatchObject({
      type: 2,
      l1_fee: "44700351261503",
      l1_fee_scalar: "0.684",
      l1_gas_price: "15694378178",
      l1_gas_used: "4164",
      gas_used: "228719",
      gas_price: "58",
    });
    expect(d.fee).toEqual({ type: "actual", value: (228719n * 58n + 44700351261503n).toString() });
    expect(d.token_transfers.length).toBeGreaterThan(0);
  });

  it("Fjord: the scalars' successors kept, l1_fee_scalar 0 as Blockscout stores a missing one", async () => {
    const r = ALLOY_FJORD_RECEIPT;
    const d = await details(r.transactionHash);
    expect(d).toMatchObject({
      type: 0,
      l1_fee: dec(r.l1Fee),
      l1_fee_scalar: "0",
      l1_gas_price: dec(r.l1GasPrice),
      l1_gas_used: dec(r.l1GasUsed),
    });
    expect(d.fee.value).toBe((BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice) + BigInt(r.l1Fee)).toString());
    const [row] = await t.db.query<Record<string, string | null>>(
      `select l1_base_fee_scalar::text as a, l1_blob_base_fee::text as b, l1_blob_base_fee_scalar::text as c,
         l1_fee_scalar::text as d from op_transactions where transaction_hash = decode($1, 'hex')`,
      [r.transactionHash.slice(2)],
    );
    expect(row).toEqual({
      a: dec(r.l1BaseFeeScalar),
      b: dec(r.l1BlobBaseFee),
      c: dec(r.l1BlobBaseFeeScalar),
      d: null,
    });
  });

  it("deposits pay nothing: fee 0 even where the receipt names an L1 fee or operator fee scalars", async () => {
    const viem = await details(VIEM_DEPOSIT_TRANSACTION.hash);
    expect(viem).toMatchObject({
      type: 126,
      fee: { type: "actual", value: "0" },
      l1_fee: "0",
      l1_fee_scalar: "0",
    });
    const r = OP_ALLOY_ECOTONE_DEPOSIT_RECEIPT;
    const ecotone = await details(r.transactionHash);
    expect(ecotone.fee.value).toBe("0");
    expect(ecotone).toMatchObject({
      l1_fee: dec(r.l1Fee),
      l1_gas_price: dec(r.l1GasPrice),
      da_footprint_gas_scalar: "1",
    });
    expect(ecotone.operator_fee).toBeUndefined();
    const [row] = await t.db.query<{
      source_hash: Uint8Array;
      mint: string;
      is_system_tx: boolean;
      n: string;
    }>(
      `select source_hash, mint::text as mint, is_system_tx, deposit_nonce::text as n from op_transactions
       where transaction_hash = decode($1, 'hex')`,
      [VIEM_DEPOSIT_TRANSACTION.hash.slice(2)],
    );
    expect(fromBytea(row!.source_hash)).toBe(VIEM_DEPOSIT_TRANSACTION.sourceHash);
    expect(row).toMatchObject({ mint: "0", is_system_tx: false, n: dec(VIEM_DEPOSIT_TRANSACTION.nonce) });
  });

  it("state changes: the sender pays the L1 fee beside the L2 fee", async () => {
    const r = VIEM_BEDROCK_RECEIPT;
    const res = await app.inject({ url: `/api/v2/transactions/${r.transactionHash}/state-changes` });
    expect(res.statusCode).toBe(200);
    const sender = (
      res.json().items as Array<{ address: { hash: string }; type: string; change: string }>
    ).find((c) => c.type === "coin" && c.address.hash.toLowerCase() === r.from);
    expect(sender?.change).toBe((-(228719n * 58n + 44700351261503n)).toString());
  });

  it("lists carry the fee with the L1 fee, not the details page's l1_* members", async () => {
    const res = await app.inject({ url: "/api/v2/blocks/1/transactions" });
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Array<Record<string, unknown> & { hash: Hex; fee: { value: string } }>;
    expect(items.map((i) => i.hash)).toEqual([
      VIEM_DEPOSIT_TRANSACTION.hash,
      VIEM_BEDROCK_RECEIPT.transactionHash,
    ]);
    expect(items[1]!.fee.value).toBe((228719n * 58n + 44700351261503n).toString());
    for (const i of items) {
      expect(Value.Errors(TransactionSchema, i).First()).toBeUndefined();
      expect(i.l1_fee).toBeUndefined();
    }
  });
});
