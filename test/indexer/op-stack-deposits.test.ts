import { Value } from "@sinclair/typebox/value";
import { type Address, type Hex, pad, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { detectCapabilities } from "../../src/chain/capabilities.js";
import { OP_FEE_VAULTS, OP_L1_BLOCK, OP_OPERATOR_FEE_VAULT } from "../../src/chain/chain-type.js";
import { createRpc } from "../../src/chain/rpc.js";
import { fromBytea, toBytea } from "../../src/db/bytes.js";
import { TransactionSchema } from "../../src/explorer/transaction/schema.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { opStackExtension } from "../../src/indexer/stages/op-stack/extension.js";
import { rpc, rpcBatch } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import {
  type Forward,
  type JsonRpcCall,
  type JsonRpcServer,
  startJsonRpcServer,
} from "../helpers/json-rpc-server.js";

const ETH = 10n ** 18n;
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const source = (n: number) => pad(toHex(n), { size: 32 });
const OPERATOR_FEE_VAULT = OP_OPERATOR_FEE_VAULT;

type Diff = { txHash?: Hex; result: { pre?: Record<string, unknown>; post?: Record<string, unknown> } };

/**
 * Prestate diffs and receipts as op-geth gives them: its tracer never looks up the operator fee vault, and its
 * Isthmus receipts of non-deposit transactions carry the operator fee parameters (from L1Block's slot 8: the
 * constant in the low 8 bytes, the scalar in the 4 above), which anvil's receipts lack.
 */
async function opGethTracer(call: JsonRpcCall, forward: Forward) {
  if (call.method === "eth_getBlockReceipts") {
    const a = await forward(call);
    if (!("result" in a) || !Array.isArray(a.result)) return a;
    const slot = await forward({
      ...call,
      method: "eth_getStorageAt",
      params: [OP_L1_BLOCK, "0x8", call.params![0]],
    });
    const word = "result" in slot ? BigInt(slot.result as Hex) : 0n;
    for (const r of a.result as Array<Record<string, unknown>>)
      if (r.type !== "0x7e")
        Object.assign(r, {
          operatorFeeScalar: toHex((word >> 64n) & 0xffffffffn),
          operatorFeeConstant: toHex(word & 0xffffffffffffffffn),
        });
    return a;
  }
  const config = call.params?.[1] as { tracer?: string } | undefined;
  if (call.method !== "debug_traceBlockByNumber" || config?.tracer !== "prestateTracer") return undefined;
  const a = await forward(call);
  if (!("result" in a)) return a;
  for (const d of a.result as Diff[]) {
    for (const side of [d.result.pre, d.result.post])
      for (const k of Object.keys(side ?? {})) if (k.toLowerCase() === OPERATOR_FEE_VAULT) delete side![k];
  }
  return a;
}

/**
 * anvil `--network optimism` runs the OP stack's rules: deposit transactions (type 0x7e) mint coin to their sender
 * before running and pay no gas; other transactions pay the base fee to the BaseFeeVault (not burnt) and, once the
 * L1Block predeploy holds L1 fee parameters, an L1 data fee to the L1FeeVault (and an operator fee to its vault).
 * The index's coin balances must be the node's at every block, with prestate diffs and without them. The prestate
 * diffs come through a proxy that answers as op-geth's tracer does: it never shows the operator fee vault (it looks up
 * the sender, the recipient, the fee recipient, the L1 fee and base fee vaults, and what the code touches).
 */
describe("OP-stack deposits on anvil --network optimism", () => {
  let chain: TestChain;
  let url: string;
  const X = addr(0xa11ce); // funded only by deposits
  const Y = addr(0xb0b);
  const Z = addr(0xc0ffee); // a deposit that reverts: the mint stays
  const W = addr(0xd00d); // a system deposit
  const REVERTER = addr(0x5e7e);
  const hashes: Record<string, Hex> = {};
  const sourceOf: Record<string, number> = {};
  let head = 0;

  const send = (tx: Record<string, unknown>) => rpc<Hex>(url, "eth_sendTransaction", [tx]);
  const deposit = (o: {
    name: string;
    from: Address;
    to: Address;
    mint: bigint;
    value?: bigint;
    system?: boolean;
    n: number;
  }) => {
    sourceOf[o.name] = o.n;
    return send({
      type: "0x7e",
      from: o.from,
      to: o.to,
      mint: toHex(o.mint),
      value: toHex(o.value ?? 0n),
      sourceHash: source(o.n),
      isSystemTx: o.system ?? false,
      gas: "0x30000",
    });
  };

  beforeAll(async () => {
    chain = await startTestChain({ network: "optimism" });
    url = chain.anvil.url;
    const A0 = chain.anvil.accounts[0]!.address;
    // L1 fee parameters in the L1Block predeploy (Ecotone layout: L1 base fee in slot 1, the base fee and blob base
    // fee scalars packed in slot 3, the blob base fee in slot 7), so the node charges an L1 data fee.
    await rpcBatch(url, [
      {
        method: "anvil_setStorageAt",
        params: [OP_L1_BLOCK, "0x1", pad(toHex(2_000_000_000n), { size: 32 })],
      },
      {
        method: "anvil_setStorageAt",
        params: [OP_L1_BLOCK, "0x3", "0x00000000000000000000000000000000000005580000c5fc5000000000000000"],
      },
      { method: "anvil_setStorageAt", params: [OP_L1_BLOCK, "0x7", pad(toHex(1n), { size: 32 })] },
      // Isthmus operator fee parameters (slot 8), so the node pays the OperatorFeeVault too.
      {
        method: "anvil_setStorageAt",
        params: [OP_L1_BLOCK, "0x8", "0x00000000000000000000000000000000000000000000000100000000000003e8"],
      },
      // A contract that always reverts.
      { method: "anvil_setCode", params: [REVERTER, "0x60006000fd"] },
      { method: "anvil_impersonateAccount", params: [X] },
      { method: "evm_setAutomine", params: [false] },
    ]);
    // Block 1: a deposit minting to a new account and sending part on; a reverting deposit (its mint stays).
    await deposit({ name: "mint", from: X, to: Y, mint: 2n * ETH, value: ETH / 2n, n: 1 });
    await deposit({ name: "reverted", from: Z, to: REVERTER, mint: 1000n, value: 100n, n: 2 });
    await rpc(url, "evm_mine");
    // Block 2: the minted coin spent by an ordinary transaction (L2 fee to the vaults, L1 fee), and another sender.
    hashes.spend = await send({ from: X, to: Y, value: toHex(ETH / 10n) });
    hashes.plain = await send({ from: A0, to: Y, value: toHex(12345n), maxPriorityFeePerGas: "0x3b9aca00" });
    await rpc(url, "evm_mine");
    // Block 3: deposits (one without mint, one system deposit) beside an ordinary transaction. (anvil's pool numbers
    // a deposit like its sender's next transaction, so one sender's deposits and sends go in separate blocks.)
    await deposit({ name: "noMint", from: X, to: Y, mint: 0n, value: 7n, n: 3 });
    await deposit({ name: "system", from: W, to: Y, mint: 5n, system: true, n: 4 });
    hashes.plain2 = await send({ from: A0, to: X, value: toHex(99n) });
    await rpc(url, "evm_mine");
    // Blocks 4 and 5: mint again, spend again.
    await deposit({ name: "again", from: X, to: X, mint: ETH, value: 3n, n: 5 });
    await rpc(url, "evm_mine");
    hashes.spendAgain = await send({ from: X, to: A0, value: toHex(ETH / 3n) });
    await rpc(url, "evm_mine");
    head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    // anvil answers eth_sendTransaction for an impersonated sender's deposit with another hash than the one it
    // mines: each deposit is found in the blocks by its source hash.
    const sources = new Map(Object.entries(sourceOf).map(([name, n]) => [source(n), name]));
    for (let b = 1; b <= head; b++) {
      const block = await rpc<{ transactions: Array<{ hash: Hex; sourceHash?: Hex }> }>(
        url,
        "eth_getBlockByNumber",
        [toHex(b), true],
      );
      for (const tx of block.transactions) {
        const name = tx.sourceHash && sources.get(tx.sourceHash);
        if (name) hashes[name] = tx.hash;
      }
    }
    // Every transaction was mined.
    expect(Object.keys(hashes).sort()).toEqual(
      ["again", "mint", "noMint", "plain", "plain2", "reverted", "spend", "spendAgain", "system"].sort(),
    );
  }, 120_000);

  afterAll(async () => {
    await chain?.stop();
  });

  it("takes anvil --network optimism for an OP-stack chain (auto), and plain anvil for none", async () => {
    const caps = await detectCapabilities(createRpc({ url, batchSize: 10, timeoutMs: 10_000, retries: 1 }), {
      traces: "auto",
    });
    expect(caps.chainType).toBe("optimism");
    const plain = await startTestChain();
    try {
      const r = createRpc({ url: plain.anvil.url, batchSize: 10, timeoutMs: 10_000, retries: 1 });
      expect((await detectCapabilities(r, { traces: "off" })).chainType).toBe("default");
      expect((await detectCapabilities(r, { traces: "off", chainType: "optimism" })).chainType).toBe(
        "optimism",
      );
    } finally {
      await plain.stop();
    }
  });

  for (const traces of ["auto", "off"] as const) {
    describe(traces === "auto" ? "with op-geth's prestate diffs" : "without traces (balances read)", () => {
      let t: TestDb;
      let app: App;
      let node: JsonRpcServer | undefined;

      beforeAll(async () => {
        t = await createTestDb();
        if (traces === "auto") node = await startJsonRpcServer(opGethTracer, url);
        const indexer = await createTestIndexer(t.db, node?.url ?? url, {
          traces,
          extensions: [
            opStackExtension(),
            coinBalanceExtension(),
            currentBalancesExtension(),
            ...explorerExtensions(),
          ],
        });
        await indexToHead(indexer, t.db, url);
        app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
      }, 120_000);

      afterAll(async () => {
        await app?.close();
        await node?.close();
        await t?.drop();
      });

      it("keeps every balance equal to the node's at every block (mints, L1 fees, fee vaults)", async () => {
        const miner = (
          await rpc<{ miner: Address }>(url, "eth_getBlockByNumber", ["0x1", false])
        ).miner.toLowerCase() as Address;
        const watched = [X, Y, Z, W, REVERTER, chain.anvil.accounts[0]!.address, miner, ...OP_FEE_VAULTS];
        const mismatches: string[] = [];
        for (let b = 1; b <= head; b++) {
          const node = await rpcBatch<Hex>(
            url,
            watched.map((a) => ({ method: "eth_getBalance", params: [a, toHex(b)] })),
          );
          for (const [i, a] of watched.entries()) {
            const [row] = await t.db.query<{ value: string }>(
              `select value::text as value from coin_balance_changes where address = $1 and block_number <= $2
               order by block_number desc limit 1`,
              [toBytea(a), b],
            );
            const ours = row?.value ?? "0";
            if (ours !== BigInt(node[i]!).toString())
              mismatches.push(`${a} at ${b}: ${ours} != node ${BigInt(node[i]!)}`);
          }
        }
        expect(mismatches).toEqual([]);
        // The mint and the fee vaults did move: the check above saw real changes.
        const vaultRows = await t.db.query<{ n: number }>(
          "select count(*)::int as n from coin_balance_changes where address = any($1::bytea[])",
          [OP_FEE_VAULTS.map(toBytea)],
        );
        expect(vaultRows[0]!.n).toBeGreaterThanOrEqual(6);
        const operatorVault = await t.db.query<{ n: number }>(
          "select count(*)::int as n from coin_balance_changes where address = $1",
          [toBytea(OPERATOR_FEE_VAULT)],
        );
        expect(operatorVault[0]!.n).toBeGreaterThanOrEqual(2);
        const xAt1 = await t.db.query<{ value: string; tx: Uint8Array | null }>(
          "select value::text as value, transaction_hash as tx from coin_balance_changes where address = $1 and block_number = 1",
          [toBytea(X)],
        );
        expect(xAt1[0]?.value).toBe((2n * ETH - ETH / 2n).toString());
        const zAt1 = await t.db.query<{ value: string }>(
          "select value::text as value from coin_balance_changes where address = $1 and block_number = 1",
          [toBytea(Z)],
        );
        expect(zAt1[0]?.value).toBe("1000");
      });

      it("stores each deposit's source hash, mint and system flag", async () => {
        const rows = await t.db.query<{
          h: Uint8Array;
          is_deposit: boolean;
          source_hash: Uint8Array | null;
          mint: string | null;
          is_system_tx: boolean | null;
          deposit_nonce: string | null;
        }>(
          `select transaction_hash as h, is_deposit, source_hash, mint::text as mint, is_system_tx,
             deposit_nonce::text as deposit_nonce from op_transactions`,
        );
        const by = new Map(rows.map((r) => [fromBytea(r.h), r]));
        const mint = by.get(hashes.mint!)!;
        expect(mint.is_deposit).toBe(true);
        expect(fromBytea(mint.source_hash!)).toBe(source(1));
        expect(mint.mint).toBe((2n * ETH).toString());
        expect(mint.is_system_tx).toBe(false);
        expect(mint.deposit_nonce).not.toBeNull();
        expect(by.get(hashes.system!)!.is_system_tx).toBe(true);
        expect(by.get(hashes.noMint!)!.mint).toBe("0");
        // On a chain known to be OP, every transaction has its row (its L1 fee members).
        expect(by.get(hashes.spend!)!.is_deposit).toBe(false);
        const [{ n }] = (await t.db.query<{ n: number }>("select count(*)::int as n from transactions")) as [
          { n: number },
        ];
        expect(rows.length).toBe(n);
      });

      it("serves deposits as paying no fee, with the OP members typed as the frontend's Transaction", async () => {
        const get = async (h: Hex) => {
          const res = await app.inject({ url: `/api/v2/transactions/${h}` });
          expect(res.statusCode).toBe(200);
          const body = res.json();
          expect(Value.Errors(TransactionSchema, body).First()).toBeUndefined();
          return body;
        };
        const d = await get(hashes.mint!);
        expect(d.type).toBe(0x7e);
        expect(d.fee).toEqual({ type: "actual", value: "0" });
        expect(d.value).toBe((ETH / 2n).toString());
        for (const k of ["l1_fee", "l1_fee_scalar", "l1_gas_price", "l1_gas_used"])
          expect(typeof d[k]).toBe("string");
        const reverted = await get(hashes.reverted!);
        expect(reverted.status).toBe("error");
        expect(reverted.fee.value).toBe("0");
        // An ordinary transaction pays gas used x gas price (anvil's receipts carry no L1 fee members: 0), plus,
        // where the receipts say it (op-geth's, through the proxy), the operator fee: gas used x scalar / 10^6 +
        // constant (scalar 1, constant 1000 here).
        const s = await get(hashes.spend!);
        const r = await rpc<{ gasUsed: Hex; effectiveGasPrice: Hex }>(url, "eth_getTransactionReceipt", [
          hashes.spend,
        ]);
        const operatorFee = traces === "auto" ? (BigInt(r.gasUsed) * 1n) / 10n ** 6n + 1000n : 0n;
        expect(s.fee.value).toBe((BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice) + operatorFee).toString());
        expect(s.l1_fee).toBe("0");
        // Lists carry the fee but not the details page's chain-family members, as Blockscout's.
        const list = await app.inject({ url: "/api/v2/blocks/1/transactions" });
        const item = (list.json().items as Array<Record<string, unknown>>).find(
          (x) => x.hash === hashes.mint,
        );
        expect(item).toBeDefined();
        expect(item!.l1_fee).toBeUndefined();
        // State changes: the deposit's mint reaches its sender (the node's balances before and after).
        const sc = await app.inject({ url: `/api/v2/transactions/${hashes.mint}/state-changes` });
        expect(sc.statusCode).toBe(200);
        const coin = (
          sc.json().items as Array<{
            address: { hash: string };
            balance_before: string;
            balance_after: string;
            change: string;
            type: string;
          }>
        ).filter((c) => c.type === "coin");
        const ofX = coin.find((c) => c.address.hash.toLowerCase() === X);
        expect(ofX).toMatchObject({
          balance_before: "0",
          balance_after: (2n * ETH - ETH / 2n).toString(),
          change: (2n * ETH - ETH / 2n).toString(),
        });
        const ofZ = (await app.inject({ url: `/api/v2/transactions/${hashes.reverted}/state-changes` }))
          .json()
          .items.find((c: { address: { hash: string } }) => c.address.hash.toLowerCase() === Z);
        expect(ofZ).toMatchObject({ balance_before: "0", balance_after: "1000", change: "1000" });
        // The address page's balance is the node's.
        const a = (await app.inject({ url: `/api/v2/addresses/${X}` })).json();
        expect(a.coin_balance).toBe(BigInt(await rpc<Hex>(url, "eth_getBalance", [X, "latest"])).toString());
      });
    });
  }
});
