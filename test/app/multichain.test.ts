import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Socket } from "phoenix";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Service, startService } from "../../src/app/service.js";
import { loadConfig } from "../../src/config/config.js";
import type { Db } from "../../src/db/db.js";
import { createLogger } from "../../src/util/logger.js";
import { packagePath } from "../../src/util/package-root.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { startTestChain, type TestChain, walletFor } from "../helpers/anvil.js";
import { offlineCompilers } from "../helpers/compilers.js";
import { createTestDatabaseUrl } from "../helpers/db.js";
import { CORE_TABLES, dumpTables } from "../helpers/indexer.js";
import { collect, join as joinChannel, phoenixSocket } from "../helpers/live.js";
import { type Built, build, standardJsonText, versionFor } from "../helpers/verify-contracts.js";
import { waitUntil } from "../helpers/wait.js";

// Three anvil chains of different chain ids indexed and served by one deployment (issue 40), on PGlite by default and
// on PostgreSQL with TEST_DATABASE_URL.
const IDS = ["1001", "1002", "1003"] as const;
const settings = { optimizer: { enabled: false, runs: 200 }, outputSelection: {} };
const sources = {
  "src/Same.sol": `// SPDX-License-Identifier: MIT\npragma solidity 0.8.26;\ncontract Same { uint256 public x = 7; function f(uint256 a) external view returns (uint256) { return a * x + ${Date.now()}; } }\n`,
};

describe("many chains in one deployment", () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-multichain-"));
  const chains: TestChain[] = [];
  let service: Service | undefined;
  let drop: (() => Promise<void>) | undefined;
  let base = "";
  let compilers: CompilerRegistry;
  let same: Built;
  /** Deployed before any verification, on chain 1002. */
  let early: Hex;

  const get = async (path: string) => {
    const r = await fetch(`${base}${path}`);
    return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
  };
  /** Each deployment from its own account: the chains' contracts at different addresses. */
  const deploy = async (t: TestChain, account: number): Promise<Hex> => {
    const hash = await walletFor(t, account).deployContract({ abi: same.abi, bytecode: same.bytecode });
    return (await t.client.waitForTransactionReceipt({ hash })).contractAddress!;
  };
  const chainDb = (id: string): Db => (id === IDS[0] ? service!.db : service!.db.inSchema!(`chain_${id}`));
  const height = async (id: string) =>
    Number((await get(`/chains/${id}/api?module=block&action=eth_block_number`)).body.result ?? -1);

  beforeAll(async () => {
    compilers = await offlineCompilers();
    same = (await build(compilers, versionFor(compilers, "0.8.26"), sources, settings)).Same!;
    for (const id of IDS) chains.push(await startTestChain({ chainId: Number(id) }));
    early = await deploy(chains[1]!, 0);
    const configFile = join(dir, "chains.json");
    writeFileSync(
      configFile,
      JSON.stringify(
        IDS.map((id, i) => ({ id, name: `Chain ${id}`, rpcUrl: chains[i]!.anvil.url, index: true })),
      ),
    );
    const pg = await createTestDatabaseUrl();
    drop = pg?.drop;
    const config = loadConfig({
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      DATA_DIR: dir,
      PORT: "0",
      CHAINS_CONFIG: configFile,
      COMPILERS_DIR: packagePath("node_modules/.cache/lookout-test-compilers"),
      SOLC_LIST_URL: "http://127.0.0.1:1/list.json",
      SOLCJS_LIST_URL: "http://127.0.0.1:1/bin/list.json",
      VYPER_LIST_URL: "http://127.0.0.1:1/vyper.json",
      COMPILER_CONCURRENCY: "1",
      POLL_INTERVAL_MS: "200",
    });
    service = await startService(
      config,
      { http: true, indexer: true },
      createLogger("warn", { pretty: false }),
    );
    base = `http://127.0.0.1:${(service.app!.server.address() as { port: number }).port}`;
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    for (const c of chains) await c.stop();
    await compilers?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves each chain under /chains/{id}, the first at the root too, and keeps their transactions apart", {
    timeout: 300_000,
  }, async () => {
    const hashes: Hex[] = [];
    for (const c of chains)
      hashes.push(
        await walletFor(c, 1).sendTransaction({
          to: c.accounts[2]!.address,
          value: 1000n + BigInt(c.chain.id),
        }),
      );
    for (const [i, id] of IDS.entries())
      await waitUntil(`chain ${id} to index its transfer`, async () => {
        const r = await get(`/chains/${id}/api/v2/transactions/${hashes[i]}`);
        return r.status === 200;
      });
    for (const [i, id] of IDS.entries()) {
      for (const [j, other] of IDS.entries()) {
        if (i === j) continue;
        // A transaction of one chain never answers on another.
        expect((await get(`/chains/${other}/api/v2/transactions/${hashes[i]}`)).status).toBe(404);
      }
      const health = await get(`/chains/${id}/api/health`);
      expect(health.status).toBe(200);
      const list = await get(`/chains/${id}/api/v2/transactions`);
      const listed = (list.body.items as Array<{ hash: string }>).map((t) => t.hash);
      expect(listed).toContain(hashes[i]);
      expect(listed.filter((h) => hashes.includes(h as Hex) && h !== hashes[i])).toEqual([]);
      // eth-rpc and Etherscan's /api of the chain answer from its index.
      const rpc = await fetch(`${base}/chains/${id}/api/eth-rpc`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_getTransactionByHash",
          params: [hashes[i]],
        }),
      });
      expect(((await rpc.json()) as { result: { hash: string } | null }).result?.hash).toBe(hashes[i]);
    }
    // The cross-chain API lists the three chains and finds each transaction on its own chain.
    const listed = await get("/multichain/api/v1/chains");
    expect(JSON.stringify(listed.body)).toContain('"1003"');
    for (const [i, id] of IDS.entries()) {
      const found = JSON.stringify((await get(`/multichain/api/v1/search:quick?q=${hashes[i]}`)).body);
      expect(found).toContain(id);
    }
    // One websocket upgrade listener for all the chains' sockets (a second one failed on every connection).
    expect(service!.app!.server.listenerCount("upgrade")).toBe(1);
    // The first chain at the root as well.
    expect((await get(`/api/v2/transactions/${hashes[0]}`)).status).toBe(200);
    expect((await get(`/api/v2/transactions/${hashes[1]}`)).status).toBe(404);
    // An unknown chain's prefix is a path no API claims: 404 `{message}` (an unknown path of a served chain stays
    // the /api/v2 catch-all's 400), never another chain's answer.
    for (const path of [
      `/chains/999/api/v2/transactions/${hashes[0]}`,
      "/chains/999/api/v2/blocks",
      "/chains/999/api?module=block&action=eth_block_number",
      "/chains/abc/api/health",
    ])
      expect(await get(path)).toEqual({ status: 404, body: { message: "Not found" } });
    const unknownRpc = await fetch(`${base}/chains/999/api/eth-rpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    });
    expect(unknownRpc.status).toBe(404);
    expect(await get("/chains/1002/api/v2/no-such-thing")).toEqual({
      status: 400,
      body: { message: "Unknown API v2 action" },
    });
  });

  it("serves each chain's GraphQL under /chains/{id}, the first chain's at the root too", {
    timeout: 300_000,
  }, async () => {
    const blockOne = async (prefix: string) => {
      const r = await fetch(`${base}${prefix}/api/v1/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ block(number: 1) { hash number } }" }),
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as { data: { block: { hash: string; number: number } | null } }).data.block;
    };
    for (const [i, id] of IDS.entries()) {
      await waitUntil(`chain ${id} to index block 1`, async () => (await height(id)) >= 1);
      const own = (await chains[i]!.client.getBlock({ blockNumber: 1n })).hash;
      expect(await blockOne(`/chains/${id}`)).toEqual({ hash: own, number: 1 });
    }
    expect((await blockOne(""))?.hash).toBe((await chains[0]!.client.getBlock({ blockNumber: 1n })).hash);
    // GraphiQL of a chain sends its queries to that chain's endpoint.
    const page = await fetch(`${base}/chains/1002/graphiql`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("/chains/1002/api/v1/graphql");
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "the chains share one LISTEN connection and one connection holding their leases (PostgreSQL)",
    { timeout: 120_000 },
    async () => {
      const db = service!.db;
      // Every chain's lease lock (the two-key form, class 7163), all held by one backend.
      const leases = () =>
        waitUntil("the three leases", async () => {
          const rows = await db.query<{ pid: number; n: number }>(
            `select pid, count(*)::int as n from pg_locks
              where locktype = 'advisory' and granted and classid = 7163 and objsubid = 2
                and database = (select oid from pg_database where datname = current_database())
              group by pid`,
          );
          return rows.reduce((s, r) => s + r.n, 0) === IDS.length ? rows : false;
        });
      const held = await leases();
      expect(held).toHaveLength(1);
      // One backend LISTENs, on every chain's channel.
      const listening = await db.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
      );
      expect(listening).toHaveLength(1);
      // That lock connection dies: every chain loses its lease, takes it again on a new one, and indexes on.
      await db.query("select pg_terminate_backend($1)", [held[0]!.pid]);
      const again = await waitUntil("the leases on a new connection", async () => {
        const rows = await leases();
        return rows.length === 1 && rows[0]!.pid !== held[0]!.pid ? rows : false;
      });
      expect(again[0]!.n).toBe(IDS.length);
      const c = chains[2]!;
      const hash = await walletFor(c, 1).sendTransaction({ to: c.accounts[3]!.address, value: 3n });
      await waitUntil("chain 1003 to index on", async () => {
        const r = await get(`/chains/1003/api/v2/transactions/${hash}`);
        return r.status === 200;
      });
    },
  );

  it("a reorg of one chain leaves the other chains' tables identical", { timeout: 300_000 }, async () => {
    const [a, b, c] = chains as [TestChain, TestChain, TestChain];
    for (let k = 0; k < 3; k++) await b.client.mine({ blocks: 1 });
    const snapshot = await b.client.snapshot();
    const sent = await walletFor(b, 3).sendTransaction({ to: b.accounts[4]!.address, value: 5n });
    // anvil answers a send before its automine has mined it: the block is the receipt's, never the head read right
    // after (under load that was still the block before, which the revert keeps, so nothing was ever replaced).
    const tip = Number((await b.client.waitForTransactionReceipt({ hash: sent })).blockNumber);
    await waitUntil("chain 1002 to index its tip", async () => (await height("1002")) >= tip);
    const before = {
      a: await dumpTables(chainDb("1001"), CORE_TABLES),
      c: await dumpTables(chainDb("1003"), CORE_TABLES),
    };
    const replaced = (await b.client.getBlock({ blockNumber: BigInt(tip) })).hash;
    await b.client.revert({ id: snapshot });
    await walletFor(b, 5).sendTransaction({ to: b.accounts[6]!.address, value: 9n });
    await b.client.mine({ blocks: 2 });
    await waitUntil("chain 1002 to replace its reorganised block", async () => {
      const r = await get(`/chains/1002/api/v2/blocks/${tip}`);
      if (r.status === 200 && r.body.hash !== replaced) return true;
      // Said on a timeout: what the API answered and what the chain's indexer reports (its last error, height).
      const health = await get(`/chains/1002/api/health`);
      throw new Error(
        `block ${tip}: ${r.status} ${String(r.body?.hash)} (old ${replaced}); node head ${await b.client.getBlockNumber()}; health ${JSON.stringify(health.body)}`,
      );
    });
    expect(await dumpTables(chainDb("1001"), CORE_TABLES)).toEqual(before.a);
    expect(await dumpTables(chainDb("1003"), CORE_TABLES)).toEqual(before.c);
    void a;
    void c;
  });

  it("a contract verified on one chain is verified on the others with the same code, earlier and later deployments", {
    timeout: 600_000,
  }, async () => {
    const [a, , c] = chains as [TestChain, TestChain, TestChain];
    const verifiedHere = await deploy(a, 7);
    await waitUntil("chain 1001 to index the contract", async () => {
      const r = await get(`/chains/1001/api/v2/addresses/${verifiedHere}`);
      return r.status === 200 && r.body.is_contract === true;
    });
    const r = await fetch(`${base}/api`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        module: "contract",
        action: "verifysourcecode",
        chainid: "1001",
        contractaddress: verifiedHere,
        sourceCode: standardJsonText(sources, settings),
        codeformat: "solidity-standard-json-input",
        contractname: "src/Same.sol:Same",
        compilerversion: versionFor(compilers, "0.8.26"),
      }).toString(),
    });
    expect(await r.json()).toMatchObject({ status: "1" });
    const verified = async (id: string, address: Hex) => {
      const x = await get(`/chains/${id}/api/v2/smart-contracts/${address}`);
      return x.status === 200 && x.body.is_verified === true ? x.body : false;
    };
    await waitUntil("the verification on chain 1001", () => verified("1001", verifiedHere), 300_000);
    // Deployed on chain 1002 before the verification.
    const copy = await waitUntil(
      "the earlier deployment on chain 1002",
      () => verified("1002", early),
      60_000,
    );
    expect(copy.name).toBe("Same");
    // Deployed on chain 1003 after it.
    const later = await deploy(c, 8);
    await waitUntil("the later deployment on chain 1003", () => verified("1003", later), 60_000);
    // Nothing of the kind on a chain where that address holds no such code.
    expect((await get(`/chains/1003/api/v2/smart-contracts/${early}`)).body.is_verified).not.toBe(true);
    expect((await get(`/chains/1001/api/v2/smart-contracts/${later}`)).body.is_verified).not.toBe(true);
  });

  it("a frontend reading one chain verifies through its verify form on that chain, the result on its socket", {
    timeout: 600_000,
  }, async () => {
    // The form's requests name no chain: under /chains/1003 they mean chain 1003 (the browser check found them
    // answered "Unknown API v2 action" there, the verify form only at the root).
    const source = `// SPDX-License-Identifier: MIT\npragma solidity 0.8.26;\ncontract Form { uint256 public y = ${Date.now()}; }\n`;
    const version = versionFor(compilers, "0.8.26");
    const form = (await build(compilers, version, { "Form.sol": source }, settings)).Form!;
    const c = chains[2]!;
    const hash = await walletFor(c, 9).deployContract({ abi: form.abi, bytecode: form.bytecode });
    const address = (await c.client.waitForTransactionReceipt({ hash })).contractAddress!;
    await waitUntil("chain 1003 to index the contract", async () => {
      const r = await get(`/chains/1003/api/v2/addresses/${address}`);
      return r.status === 200 && r.body.is_contract === true;
    });
    const config = await get("/chains/1003/api/v2/smart-contracts/verification/config");
    expect(config.status).toBe(200);
    expect(config.body.solidity_compiler_versions).toContain(version);
    const socket: Socket = phoenixSocket(`${base}/chains/1003`);
    try {
      const results = collect(
        await joinChannel(socket, `addresses:${address.toLowerCase()}`),
        "verification_result",
      );
      const r = await fetch(
        `${base}/chains/1003/api/v2/smart-contracts/${address}/verification/via/flattened-code`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            compiler_version: version,
            source_code: source,
            contract_name: "Form",
            is_optimization_enabled: false,
          }),
        },
      );
      expect(r.status).toBe(200);
      expect(await results.next(() => true, 300_000)).toEqual({ status: "success" });
    } finally {
      socket.disconnect();
    }
    expect((await get(`/chains/1003/api/v2/smart-contracts/${address}`)).body.is_verified).toBe(true);
    // The root's form is the first chain's, where that address holds no code.
    expect((await get(`/api/v2/smart-contracts/${address}`)).body.is_verified).not.toBe(true);
  });
});
