import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Service, startService } from "../../src/app/service.js";
import { loadConfig } from "../../src/config/config.js";
import { createLogger } from "../../src/util/logger.js";
import { packagePath } from "../../src/util/package-root.js";
import { startTestChain, type TestChain, walletFor } from "../helpers/anvil.js";
import { waitUntil } from "../helpers/wait.js";

// A deployment whose CHAINS_CONFIG indexes one chain (no RPC_URL) serves it under /chains/{id} as a deployment of
// several chains does, and at the root; RPC_URL alone keeps one chain at the root only, as always (issue 40).
const ID = 1011;

describe("one chain from CHAINS_CONFIG", () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-one-configured-"));
  let chain: TestChain;
  const services: Service[] = [];
  const bases: { configured: string; rpcUrl: string } = { configured: "", rpcUrl: "" };

  const start = async (env: Record<string, string>, data: string) => {
    const service = await startService(
      loadConfig({
        DATA_DIR: join(dir, data),
        PORT: "0",
        POLL_INTERVAL_MS: "200",
        COMPILERS_DIR: packagePath("node_modules/.cache/lookout-test-compilers"),
        SOLC_LIST_URL: "http://127.0.0.1:1/list.json",
        SOLCJS_LIST_URL: "http://127.0.0.1:1/bin/list.json",
        VYPER_LIST_URL: "http://127.0.0.1:1/vyper.json",
        ...env,
      }),
      { http: true, indexer: true },
      createLogger("warn", { pretty: false }),
    );
    services.push(service);
    return `http://127.0.0.1:${(service.app!.server.address() as { port: number }).port}`;
  };
  const get = async (url: string) => {
    const r = await fetch(url);
    return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> | null };
  };

  beforeAll(async () => {
    chain = await startTestChain({ chainId: ID });
    const file = join(dir, "chains.json");
    writeFileSync(
      file,
      JSON.stringify([{ id: String(ID), name: "Only", rpcUrl: chain.anvil.url, index: true }]),
    );
    bases.configured = await start({ CHAINS_CONFIG: file }, "configured");
    bases.rpcUrl = await start({ RPC_URL: chain.anvil.url }, "rpc-url");
  }, 300_000);

  afterAll(async () => {
    for (const s of services) await s.stop();
    await chain?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers under /chains/{id} and at the root alike", { timeout: 300_000 }, async () => {
    const hash = await walletFor(chain, 1).sendTransaction({ to: chain.accounts[2]!.address, value: 77n });
    const { configured } = bases;
    await waitUntil("the transfer to be indexed", async () => {
      const r = await get(`${configured}/chains/${ID}/api/v2/transactions/${hash}`);
      return r.status === 200;
    });
    for (const path of [`/api/v2/transactions/${hash}`, "/api/v2/main-page/blocks"]) {
      const [prefixed, root] = [
        await get(`${configured}/chains/${ID}${path}`),
        await get(`${configured}${path}`),
      ];
      expect(prefixed.status).toBe(200);
      expect(prefixed).toEqual(root);
    }
    expect((await get(`${configured}/chains/${ID}/api/health`)).status).toBe(200);
    const rpc = await fetch(`${configured}/chains/${ID}/api/eth-rpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getTransactionByHash", params: [hash] }),
    });
    expect(((await rpc.json()) as { result: { hash: string } | null }).result?.hash).toBe(hash);
    const graphql = await fetch(`${configured}/chains/${ID}/api/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ transaction(hash: "${hash}") { hash value } }` }),
    });
    expect(await graphql.json()).toEqual({ data: { transaction: { hash, value: "77" } } });
    // The cross-chain API names the chain as configured.
    expect((await get(`${configured}/multichain/api/v1/chains`)).body).toMatchObject({
      items: [{ id: String(ID), name: "Only" }],
    });
    // Another chain id: a path no API claims.
    expect(await get(`${configured}/chains/${ID + 1}/api/v2/main-page/blocks`)).toEqual({
      status: 404,
      body: { message: "Not found" },
    });
    // The socket of the chain and the root's share one websocket support.
    expect(services[0]!.app!.server.listenerCount("upgrade")).toBe(1);
  });

  it("keeps RPC_URL alone at the root only", { timeout: 300_000 }, async () => {
    const { rpcUrl } = bases;
    await waitUntil("the RPC_URL deployment to index a block", async () => {
      const r = await get(`${rpcUrl}/api/v2/main-page/blocks`);
      return r.status === 200 && Array.isArray(r.body) && r.body.length > 0;
    });
    expect(await get(`${rpcUrl}/chains/${ID}/api/v2/main-page/blocks`)).toEqual({
      status: 404,
      body: { message: "Not found" },
    });
  });
});
