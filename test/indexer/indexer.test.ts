import { encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBytea } from "../../src/db/bytes.js";
import {
  type ActivityContracts,
  activityContracts,
  deployActivityContracts,
  mineActivity,
  rpc,
} from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead, nodeBlocks, storedBlocks } from "../helpers/indexer.js";

describe("indexer core", () => {
  let chain: TestChain;
  let t: TestDb;
  let k: ActivityContracts;

  beforeAll(async () => {
    chain = await startTestChain();
    t = await createTestDb();
    k = await deployActivityContracts(chain.anvil.url);
  });
  afterAll(async () => {
    await t?.drop();
    await chain?.stop();
  });

  it("indexes blocks, transactions with receipts, logs and contract creations (also inside transactions)", async () => {
    const url = chain.anvil.url;
    await mineActivity(url, k, { blocks: 40, txPerBlock: 5, seed: 7 });
    // A transaction whose inner creation is reverted, and a failed plain call.
    const c = activityContracts();
    const revertHash = await rpc<Hex>(url, "eth_sendTransaction", [
      {
        from: chain.accounts[1]!.address,
        to: k.factory,
        gas: "0x100000",
        data: encodeFunctionData({ abi: c.Factory!.abi, functionName: "createThenRevert" }),
      },
    ]);
    await rpc(url, "evm_mine");

    const indexer = await createTestIndexer(t.db, url);
    await indexToHead(indexer, t.db, url);

    const node = await nodeBlocks(url);
    const stored = await storedBlocks(t.db);
    expect(stored.blocks).toEqual(node.map((b) => ({ number: Number(b.number), hash: b.hash })));
    expect(stored.txs).toEqual(node.flatMap((b) => b.transactions));

    // Receipts: status, gas used, effective gas price and created contract equal the node's.
    const txs = await t.db.query<{
      hash: Uint8Array;
      status: number;
      gas_used: string;
      effective_gas_price: string;
      contract_address: Uint8Array | null;
    }>("select hash, status, gas_used, effective_gas_price, contract_address from transactions");
    for (const tx of txs.slice(0, 60)) {
      const r = await rpc<{ status: Hex; gasUsed: Hex; effectiveGasPrice: Hex; contractAddress: Hex | null }>(
        url,
        "eth_getTransactionReceipt",
        [fromBytea(tx.hash)],
      );
      expect(tx.status).toBe(Number(r.status));
      expect(tx.gas_used).toBe(BigInt(r.gasUsed).toString());
      expect(tx.effective_gas_price).toBe(BigInt(r.effectiveGasPrice).toString());
      expect(tx.contract_address ? fromBytea(tx.contract_address) : null).toBe(r.contractAddress ?? null);
    }
    const failed = txs.find((x) => fromBytea(x.hash) === revertHash);
    expect(failed?.status).toBe(0);

    // Logs: as many as the node's receipts hold.
    const receiptsLogs = (
      await Promise.all(
        node.map((b) => rpc<Array<{ logs: unknown[] }>>(url, "eth_getBlockReceipts", [b.number])),
      )
    )
      .flat()
      .reduce((s, r) => s + r.logs.length, 0);
    const [{ n: logCount }] = (await t.db.query<{ n: number }>("select count(*)::int8 as n from logs")) as [
      { n: number },
    ];
    expect(logCount).toBe(receiptsLogs);

    // Creations: every recorded address has code on the node; all three kinds occur; the reverted one is absent.
    const creations = await t.db.query<{
      address: Uint8Array;
      kind: string;
      transaction_hash: Uint8Array;
      runtime_code: Uint8Array | null;
    }>("select address, kind, transaction_hash, runtime_code from contract_creations");
    expect(new Set(creations.map((x) => x.kind))).toEqual(new Set(["transaction", "create", "create2"]));
    for (const cr of creations) {
      const code = await rpc<Hex>(url, "eth_getCode", [fromBytea(cr.address), "latest"]);
      expect(code.length).toBeGreaterThan(2);
      expect(fromBytea(cr.runtime_code!)).toBe(code);
    }
    expect(creations.some((x) => fromBytea(x.transaction_hash) === revertHash)).toBe(false);
    // Every Created event of the factory is a recorded internal creation.
    const created = await t.db.query<{ n: number }>(
      "select count(*)::int8 as n from logs where address = $1",
      [Buffer.from(k.factory.slice(2), "hex")],
    );
    const internal = creations.filter((x) => x.kind !== "transaction").length;
    expect(internal).toBe(created[0]!.n);
  });
});
