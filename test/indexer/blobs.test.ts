import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Value } from "@sinclair/typebox/value";
import { createWalletClient, type Hex, http, parseGwei, stringToHex, toBlobs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { BlobSchema, TxBlobsSchema } from "../../src/explorer/blob/schema.js";
import { BlockSchema } from "../../src/explorer/block/schema.js";
import { TransactionSchema } from "../../src/explorer/transaction/schema.js";
import { authorizationsExtension } from "../../src/indexer/stages/authorizations/extension.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { blobsExtension } from "../../src/indexer/stages/blobs/extension.js";
import { beaconClient, fetchDueBlobs, kzgToVersionedHash } from "../../src/token-workers/blobs.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startTestChain, type TestChain, walletFor } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { wasmKzg } from "../helpers/kzg.js";
import { balanceRows, wrongRows } from "../helpers/node-balances.js";

type NodeTx = {
  hash: Hex;
  blockNumber: Hex;
  blobVersionedHashes: Hex[];
  maxFeePerBlobGas: Hex;
  blobs: Hex[];
  commitments: Hex[];
  proofs: Hex[];
};
type NodeBlock = { number: Hex; timestamp: Hex; blobGasUsed: Hex; excessBlobGas: Hex; transactions: Hex[] };

/**
 * A small beacon node made of anvil's own blob sidecars (anvil keeps them with its transactions): genesis time =
 * block 0's timestamp, one-second slots, so each block's slot is its timestamp's offset.
 */
async function startBeacon(
  url: string,
): Promise<{ url: string; redirectTo?: string; close(): Promise<void> }> {
  const genesis = Number((await rpc<NodeBlock>(url, "eth_getBlockByNumber", ["0x0", false])).timestamp);
  const state: { redirectTo?: string } = {};
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const path = req.url ?? "";
    if (path === "/eth/v1/beacon/genesis") return send(200, { data: { genesis_time: String(genesis) } });
    if (path === "/eth/v1/config/spec") return send(200, { data: { SECONDS_PER_SLOT: "1" } });
    const m = /^\/eth\/v1\/beacon\/blob_sidecars\/(\d+)$/.exec(path);
    if (!m) return send(404, { message: "not found" });
    if (state.redirectTo) {
      res.writeHead(302, { location: `${state.redirectTo}${path}` });
      return res.end();
    }
    const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    for (let n = 0; n <= head; n++) {
      const b = await rpc<NodeBlock>(url, "eth_getBlockByNumber", [`0x${n.toString(16)}`, false]);
      if (Number(b.timestamp) - genesis !== Number(m[1])) continue;
      const data: unknown[] = [];
      for (const h of b.transactions) {
        const t = await rpc<NodeTx>(url, "eth_getTransactionByHash", [h]);
        for (const [i, blob] of (t.blobs ?? []).entries())
          data.push({
            index: String(data.length),
            blob,
            kzg_commitment: t.commitments[i],
            kzg_proof: t.proofs[i],
          });
      }
      return send(200, { data });
    }
    return send(404, { message: "slot not found" });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set redirectTo(v: string | undefined) {
      state.redirectTo = v;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

const schemaErrors = (schema: Parameters<typeof Value.Errors>[0], v: unknown) =>
  [...Value.Errors(schema, v)].map((e) => `${e.path}: ${e.message}`);

/** EIP-4844 blob transactions on a real anvil (`--hardfork prague`), sent by viem with a WASM KZG. */
describe("blob transactions", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let url: string;
  const blobTxs: Hex[] = [];
  let plain: Hex;

  beforeAll(async () => {
    chain = await startTestChain({ hardfork: "prague" });
    url = chain.anvil.url;
    t = await createTestDb();
    const kzg = await wasmKzg();
    // anvil checks each blob's KZG proof when it takes the transaction: seconds on a loaded machine, beyond viem's
    // default 10 s request timeout.
    const w = createWalletClient({
      transport: http(chain.anvil.url, { timeout: 120_000 }),
      chain: chain.chain,
      account: chain.accounts[0]!,
    });
    const sendBlobs = async (text: string, count: number) => {
      const data = stringToHex(text.repeat(count === 1 ? 1 : 9000));
      const blobs = toBlobs({ data }).slice(0, count);
      expect(blobs.length).toBe(count);
      return w.sendTransaction({
        account: chain.accounts[0]!,
        chain: chain.chain,
        blobs,
        kzg,
        maxFeePerBlobGas: parseGwei("30"),
        to: chain.accounts[3]!.address,
      });
    };
    // A block with a blob transaction and a plain transfer, then one with a two-blob transaction.
    await rpc(url, "evm_setAutomine", [false]);
    blobTxs.push(await sendBlobs("hello blobs", 1));
    plain = await walletFor(chain, 1).sendTransaction({
      account: chain.accounts[1]!,
      chain: chain.chain,
      to: chain.accounts[2]!.address,
      value: 12345n,
    });
    await rpc(url, "evm_mine");
    await rpc(url, "evm_setAutomine", [true]);
    blobTxs.push(await sendBlobs("more blob data ", 2));
    for (const h of [...blobTxs, plain]) await waitForReceipt(url, h);
    const indexer = await createTestIndexer(t.db, url, {
      extensions: [
        coinBalanceExtension(),
        currentBalancesExtension(),
        authorizationsExtension(),
        blobsExtension(),
      ],
    });
    await indexToHead(indexer, t.db, url);
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
  });

  const get = async (path: string) => {
    const r = await app.inject({ url: path });
    return { status: r.statusCode, body: r.json() as any };
  };

  it("serves the blob members of transactions as the node has them", async () => {
    for (const h of blobTxs) {
      const node = await rpc<NodeTx>(url, "eth_getTransactionByHash", [h]);
      const receipt = await rpc<{ blobGasUsed: Hex; blobGasPrice: Hex }>(url, "eth_getTransactionReceipt", [
        h,
      ]);
      const r = await get(`/api/v2/transactions/${h}`);
      expect(schemaErrors(TransactionSchema, r.body)).toEqual([]);
      expect(r.body).toMatchObject({
        type: 3,
        blob_versioned_hashes: node.blobVersionedHashes,
        max_fee_per_blob_gas: BigInt(node.maxFeePerBlobGas).toString(),
        blob_gas_used: BigInt(receipt.blobGasUsed).toString(),
        blob_gas_price: BigInt(receipt.blobGasPrice).toString(),
        burnt_blob_fee: (BigInt(receipt.blobGasUsed) * BigInt(receipt.blobGasPrice)).toString(),
      });
      expect(r.body.transaction_types).toContain("blob_transaction");
      // Each versioned hash is the hash of its blob's commitment.
      expect(node.commitments.map(kzgToVersionedHash)).toEqual(node.blobVersionedHashes);
    }
    const p = await get(`/api/v2/transactions/${plain}`);
    expect(p.body.blob_versioned_hashes).toBeUndefined();
  });

  it("serves the blob members of blocks as the node has them", async () => {
    for (const h of blobTxs) {
      const tx = await rpc<NodeTx>(url, "eth_getTransactionByHash", [h]);
      const node = await rpc<NodeBlock>(url, "eth_getBlockByNumber", [tx.blockNumber, false]);
      const receipt = await rpc<{ blobGasPrice: Hex }>(url, "eth_getTransactionReceipt", [h]);
      const b = await get(`/api/v2/blocks/${Number(tx.blockNumber)}`);
      expect(schemaErrors(BlockSchema, b.body)).toEqual([]);
      expect(b.body).toMatchObject({
        blob_gas_used: BigInt(node.blobGasUsed).toString(),
        excess_blob_gas: BigInt(node.excessBlobGas).toString(),
        blob_transaction_count: 1,
        blob_gas_price: BigInt(receipt.blobGasPrice).toString(),
        burnt_blob_fees: (BigInt(node.blobGasUsed) * BigInt(receipt.blobGasPrice)).toString(),
      });
      expect(b.body.transactions_count).toBe(node.transactions.length);
    }
    const list = await get("/api/v2/blocks");
    for (const item of list.body.items) expect(schemaErrors(BlockSchema, item)).toEqual([]);
    expect(list.body.items.filter((b: any) => b.blob_transaction_count === 1).length).toBe(2);
  });

  it("filters transaction lists to blob transactions (type=blob_transaction)", async () => {
    const all = await get("/api/v2/transactions?type=blob_transaction");
    expect(all.body.items.map((x: any) => x.hash)).toEqual([...blobTxs].reverse());
    const first = await rpc<NodeTx>(url, "eth_getTransactionByHash", [blobTxs[0]]);
    const inBlock = await get(
      `/api/v2/blocks/${Number(first.blockNumber)}/transactions?type=blob_transaction`,
    );
    expect(inBlock.body.items.map((x: any) => x.hash)).toEqual([blobTxs[0]]);
    const unfiltered = await get(`/api/v2/blocks/${Number(first.blockNumber)}/transactions`);
    expect(unfiltered.body.items).toHaveLength(2);
  });

  it("lists a transaction's blobs and a blob's transactions, the data null without a beacon node", async () => {
    const node = await rpc<NodeTx>(url, "eth_getTransactionByHash", [blobTxs[1]]);
    const r = await get(`/api/v2/transactions/${blobTxs[1]}/blobs`);
    expect(r.status).toBe(200);
    expect(schemaErrors(TxBlobsSchema, r.body)).toEqual([]);
    expect(r.body).toEqual({
      items: node.blobVersionedHashes.map((hash) => ({
        hash,
        blob_data: null,
        kzg_commitment: null,
        kzg_proof: null,
      })),
      next_page_params: null,
    });
    const b = await get(`/api/v2/blobs/${node.blobVersionedHashes[1]}`);
    expect(schemaErrors(BlobSchema, b.body)).toEqual([]);
    expect(b.body).toMatchObject({
      hash: node.blobVersionedHashes[1],
      blob_data: null,
      transaction_hashes: [{ block_consensus: true, transaction_hash: blobTxs[1] }],
    });
    expect((await get(`/api/v2/transactions/${plain}/blobs`)).body.items).toEqual([]);
    expect((await get(`/api/v2/blobs/0x01${"ab".repeat(31)}`)).status).toBe(404);
    expect((await get("/api/v2/blobs/0x1234")).status).toBe(422);
    expect((await get(`/api/v2/transactions/0x${"cd".repeat(32)}/blobs`)).status).toBe(404);
  });

  it("fetches and keeps the blob data from a configured beacon node, refusing a redirect elsewhere", async () => {
    const beacon = await startBeacon(url);
    const other = await startBeacon(url);
    try {
      // A redirect to another port of the same host is not the configured node: the guard refuses it.
      beacon.redirectTo = other.url;
      await expect(fetchDueBlobs(t.db, beaconClient(beacon.url))).rejects.toThrow(/forbidden address/);
      beacon.redirectTo = undefined;
      const client = beaconClient(beacon.url);
      while ((await fetchDueBlobs(t.db, client)) > 0);
    } finally {
      await beacon.close();
      await other.close();
    }
    for (const h of blobTxs) {
      const node = await rpc<NodeTx>(url, "eth_getTransactionByHash", [h]);
      const r = await get(`/api/v2/transactions/${h}/blobs`);
      expect(schemaErrors(TxBlobsSchema, r.body)).toEqual([]);
      expect(r.body.items).toEqual(
        node.blobVersionedHashes.map((hash, i) => ({
          hash,
          blob_data: node.blobs[i],
          kzg_commitment: node.commitments[i],
          kzg_proof: node.proofs[i],
        })),
      );
    }
  });

  it("keeps coin balances equal to the node's (blob fees included)", async () => {
    expect(await wrongRows(url, await balanceRows(t.db))).toEqual([]);
  });

  it("shows the blob fee in the sender's state change, its balances as the node has them", async () => {
    for (const h of blobTxs) {
      const tx = await rpc<NodeTx & { from: Hex }>(url, "eth_getTransactionByHash", [h]);
      const at = async (n: number) =>
        BigInt(await rpc<Hex>(url, "eth_getBalance", [tx.from, `0x${n.toString(16)}`])).toString();
      const n = Number(tx.blockNumber);
      const r = await get(`/api/v2/transactions/${h}/state-changes`);
      expect(r.status).toBe(200);
      const sender = r.body.items.find(
        (i: any) => i.type === "coin" && i.address.hash.toLowerCase() === tx.from.toLowerCase(),
      );
      // The sender sent nothing else in its block: its balances there are the node's at the blocks around it.
      expect(sender).toMatchObject({ balance_before: await at(n - 1), balance_after: await at(n) });
    }
  });

  it("moves the blob fetcher back on a reorg below its place, keeping the fetched blobs", async () => {
    const first = Number((await rpc<NodeTx>(url, "eth_getTransactionByHash", [blobTxs[0]])).blockNumber);
    const last = Number((await rpc<NodeTx>(url, "eth_getTransactionByHash", [blobTxs[1]])).blockNumber);
    const place = async () =>
      Number(
        (await t.db.query<{ next_block: number }>("select next_block from blob_fetch_state"))[0]!.next_block,
      );
    expect(await place()).toBe(last + 1);
    await t.db.transaction((tx) => blobsExtension().revert(tx, first - 1));
    expect(await place()).toBe(first);
    const [rows] = await t.db.query<{ n: number }>("select count(*)::int as n from transaction_blobs");
    expect(rows!.n).toBe(0);
    const [kept] = await t.db.query<{ n: number }>("select count(*)::int as n from blobs");
    expect(kept!.n).toBe(3);
  });
});
