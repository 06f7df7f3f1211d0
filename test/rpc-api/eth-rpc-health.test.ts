import { createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc } from "../helpers/activity.js";
import { type RpcWorld, startRpcWorld } from "./setup.js";

describe("/api/eth-rpc with viem, and /api/health", () => {
  let w: RpcWorld;
  let base: string;
  beforeAll(async () => {
    w = await startRpcWorld();
    base = await w.app.listen({ port: 0, host: "127.0.0.1" });
  }, 240_000);
  afterAll(async () => {
    await w?.stop();
  });

  it("viem's public client reads block number, balances, logs, chain id and proxied methods", async () => {
    const client = createPublicClient({ transport: http(`${base}/api/eth-rpc`) });
    const node = w.chain.client;
    expect(await client.getBlockNumber()).toBe(await node.getBlockNumber());
    expect(await client.getChainId()).toBe(await node.getChainId());
    for (const a of w.acct)
      expect(await client.getBalance({ address: a })).toBe(await node.getBalance({ address: a }));
    const head = await node.getBlockNumber();
    expect(await client.getBalance({ address: w.acct[1]!, blockNumber: head - 5n })).toBe(
      await node.getBalance({ address: w.acct[1]!, blockNumber: head - 5n }),
    );
    const ours = await client.getLogs({ address: w.coin, fromBlock: 0n });
    const theirs = await node.getLogs({ address: w.coin, fromBlock: 0n });
    expect(ours.map((l) => [l.blockHash, l.logIndex, l.data, l.topics, l.transactionHash])).toEqual(
      theirs.map((l) => [l.blockHash, l.logIndex, l.data, l.topics, l.transactionHash]),
    );
    expect(await client.getBytecode({ address: w.coin })).toBe(await node.getBytecode({ address: w.coin }));
    const tx = await client.getTransaction({ hash: w.forwardTx });
    expect(tx.hash).toBe(w.forwardTx);
    expect((await client.getTransactionReceipt({ hash: w.revertedTx })).status).toBe("reverted");
  });

  it("JSON-RPC 2.0 errors and batches", async () => {
    const post = async (body: string) => {
      const r = await fetch(`${base}/api/eth-rpc`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      return { status: r.status, body: (await r.json()) as { error: { code: number } } };
    };
    expect(await post(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "eth_nope", params: [] }))).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Action not found." } },
    });
    expect((await post("{not json")).body.error.code).toBe(-32700);
    const batch = await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] },
        { jsonrpc: "2.0", id: "b", method: "eth_getBalance", params: ["0x12", "latest"] },
      ]),
    );
    expect(batch.body).toEqual([
      { jsonrpc: "2.0", id: 1, result: await rpc<Hex>(w.url, "eth_blockNumber") },
      { jsonrpc: "2.0", id: "b", error: { code: -32602, message: "Query parameter 'address' is invalid" } },
    ]);
    const big = await post(
      JSON.stringify(
        Array.from({ length: 6 }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_chainId", params: [] })),
      ),
    );
    expect(big.status).toBe(413);
  });

  it("health, liveness and readiness in Blockscout's shapes; readiness fails when the index lags", async () => {
    const health = await w.app.inject("/api/health");
    expect(health.statusCode).toBe(200);
    const head = String(Number(await rpc<Hex>(w.url, "eth_blockNumber")));
    expect(health.json()).toMatchObject({
      healthy: true,
      error: null,
      metadata: {
        blocks: {
          healthy: true,
          latest_block: { db: { number: head }, cache: { number: head }, node: { number: head } },
        },
      },
    });
    expect((await w.app.inject("/api/health/liveness")).body).toBe("OK");
    const ready = await w.app.inject("/api/health/readiness");
    expect([ready.statusCode, ready.body]).toEqual([200, "OK"]);
    await rpc(w.url, "anvil_mine", ["0x20"]);
    const lagging = await w.app.inject("/api/health/readiness");
    expect(lagging.statusCode).toBe(503);
    const unhealthy = await w.app.inject("/api/health");
    expect(unhealthy.statusCode).toBe(500);
    expect(unhealthy.json()).toMatchObject({ healthy: false, error: { code: 5001 } });
    const unknown = await fetch(`${base}/api/health/nope`);
    expect(unknown.status).toBe(404);
  });
});
