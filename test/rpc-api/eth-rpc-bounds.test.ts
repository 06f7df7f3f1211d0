import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { withIndexedChain } from "../../src/config/chains.js";
import type { VerifierApi } from "../../src/verifier/api.js";
import type { VerifierChain } from "../../src/verifier/chain-clients.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { waitUntil } from "../helpers/wait.js";

/**
 * A proxy between Lookout and anvil that counts the calls of each method it forwards, and can hold eth_calls
 * until told to let them through (a node busy with them).
 */
async function countingProxy(target: string) {
  const counts = new Map<string, number>();
  let holding = false;
  let held: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const parsed = JSON.parse(body.toString()) as { method?: string } | Array<{ method?: string }>;
      for (const m of Array.isArray(parsed) ? parsed : [parsed])
        counts.set(m.method ?? "", (counts.get(m.method ?? "") ?? 0) + 1);
      const forward = () => {
        const up = http.request(target, { method: "POST", headers: { "content-type": "application/json" } });
        up.on("response", (r) => {
          res.writeHead(r.statusCode ?? 502, { "content-type": "application/json" });
          r.pipe(res);
        });
        up.on("error", () => res.destroy());
        up.end(body);
      };
      if (holding && !Array.isArray(parsed) && parsed.method === "eth_call") held.push(forward);
      else forward();
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: (method: string) => counts.get(method) ?? 0,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const f of held) f();
      held = [];
    },
    heldCount: () => held.length,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

describe("/api/eth-rpc: client calls bounded in gas, time, retries and concurrency", () => {
  let chain: TestChain;
  let db: TestDb;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let app: App;
  const TIMEOUT_MS = 3000;

  beforeAll(async () => {
    // The bundled local chain as `lookout start` runs it: anvil mining a block every second.
    chain = await startTestChain({ blockTime: 1 });
    proxy = await countingProxy(chain.anvil.url);
    db = await createTestDb();
    const configs = withIndexedChain([], {
      id: String(chain.anvil.chainId),
      name: "Local",
      rpcUrl: proxy.url,
    });
    const chains = new Map<string, VerifierChain>(
      configs.map((c) => [
        c.id,
        // The chain client retries 5 times: client calls must not go through its retries.
        { config: c, rpc: createRpc({ url: proxy.url, batchSize: 1, timeoutMs: 30_000, retries: 5 }) },
      ]),
    );
    app = await buildApp({
      db: db.db,
      config: { bodyLimit: 1e6, ethRpcCallTimeoutMs: TIMEOUT_MS, ethRpcConcurrencyPerClient: 1 },
      logger: false,
      verifier: { db: db.db, chains, compilers: {}, jobs: {} } as unknown as VerifierApi,
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await db?.drop();
    await chain?.stop();
  });

  const call = (params: unknown[], method = "eth_call") =>
    app.inject({
      method: "POST",
      url: "/api/eth-rpc",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });

  it("an endless loop with huge gas: one node call, an error within the time limit, blocks keep coming", async () => {
    // JUMPDEST PUSH1 0 JUMP as initcode: loops until its gas runs out.
    const loop = { data: "0x5b600056", gas: "0xffffffffff" };
    const before = proxy.count("eth_call");
    // Bounded in time: a hang fails this test's own timeout; the timeout's answer is checked with a holding node below.
    const r = await call([loop, "latest"]);
    expect(r.statusCode).toBe(200);
    expect(r.json().error).toBeDefined();
    expect(r.json().result).toBeUndefined();
    expect(proxy.count("eth_call") - before).toBe(1);
    // eth_estimateGas of it too: capped, sent once.
    const beforeEstimate = proxy.count("eth_estimateGas");
    const e = await call([loop], "eth_estimateGas");
    expect(e.json().error).toBeDefined();
    expect(proxy.count("eth_estimateGas") - beforeEstimate).toBe(1);
    // The chain still produces blocks.
    const head = Number(await rpc<Hex>(chain.anvil.url, "eth_blockNumber"));
    await waitUntil(
      "two more blocks after the endless call",
      async () => Number(await rpc<Hex>(chain.anvil.url, "eth_blockNumber")) >= head + 2,
      30_000,
    );
  }, 60_000);

  it("an ordinary call still answers, with the gas the client gave", async () => {
    const r = await call([{ data: "0x600160005260206000f3", gas: "0x30000" }, "latest"]);
    expect(r.json()).toEqual({ jsonrpc: "2.0", id: 1, result: `0x${"1".padStart(64, "0")}` });
  });

  it("a node that does not answer in time: the client's error after the time limit, one call", async () => {
    proxy.hold();
    try {
      const before = proxy.count("eth_call");
      const r = await call([{ data: "0x00" }, "latest"]);
      expect(r.json().error.message).toMatch(/timeout/);
      expect(proxy.count("eth_call") - before).toBe(1);
    } finally {
      proxy.release();
    }
  }, 30_000);

  it("a second request of a client whose first still runs: 429 with Retry-After; another client is served", async () => {
    proxy.hold();
    try {
      const first = call([{ data: "0x00" }, "latest"]);
      await waitUntil("the first call at the node", () => proxy.heldCount() === 1, 10_000, 10);
      const second = await call([{ data: "0x00" }, "latest"]);
      expect(second.statusCode).toBe(429);
      expect(second.headers["retry-after"]).toBe("1");
      expect(second.json().error.code).toBe(-32005);
      const other = await app.inject({
        method: "POST",
        url: "/api/eth-rpc",
        remoteAddress: "192.0.2.7",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eth_chainId", params: [] }),
      });
      expect(other.statusCode).toBe(200);
      proxy.release();
      expect((await first).statusCode).toBe(200);
    } finally {
      proxy.release();
    }
    // The slot is free again.
    expect((await call([{ data: "0x00" }, "latest"])).statusCode).toBe(200);
  }, 30_000);
});
