import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/chain/anvil.js";
import type { Db } from "../../src/db/db.js";
import { createPostgresDb } from "../../src/db/pg.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { packagePath } from "../../src/util/package-root.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { startTestChain, type TestChain, walletFor } from "../helpers/anvil.js";
import { type CliProcess, runCli } from "../helpers/cli.js";
import { offlineCompilers } from "../helpers/compilers.js";
import { createTestDatabaseUrl, createTestDb } from "../helpers/db.js";
import { CORE_TABLES, createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";
import { build, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

// Several processes share one database: only PostgreSQL can be shared (PGlite belongs to one process).
const PG = process.env.TEST_DATABASE_URL;
const SKIP_REASON = "needs PostgreSQL: set TEST_DATABASE_URL (PGlite cannot be shared between processes)";

type Health = {
  status: string;
  role: string;
  database: { ok: boolean; writable: boolean };
  indexer: { chain_id: number | null; height: number | null; lease: { held: boolean } | null };
};

async function health(port: number): Promise<{ code: number; body: Health }> {
  const r = await fetch(`http://127.0.0.1:${port}/health`);
  return { code: r.status, body: (await r.json()) as Health };
}

async function waitUntil(what: string, cond: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await cond().catch(() => false)) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const height = async (db: Db) =>
  (await db.query<{ h: number | null }>("select last_block as h from indexer_state where id = 1"))[0]?.h ??
  -1;

describe.skipIf(!PG)(`process roles on one PostgreSQL${PG ? "" : ` (skipped: ${SKIP_REASON})`}`, () => {
  let chain: TestChain;
  let main: { url: string; drop(): Promise<void> };
  let db: Db;
  let compilers: CompilerRegistry;
  const procs: CliProcess[] = [];
  const roles: string[] = [];
  const drops: Array<() => Promise<void>> = [];
  const dir = mkdtempSync(join(tmpdir(), "lookout-roles-"));
  // Sources differ on every run, so no compilation cache (the workers' is shared across runs) can answer them.
  const nonce = randomBytes(8).toString("hex");
  let env: Record<string, string>;

  const spawn = async (args: string[], extra: Record<string, string> = {}) => {
    const port = await freePort();
    const p = runCli(args, { ...env, PORT: String(port), ...extra });
    procs.push(p);
    return { p, port };
  };

  type Deployed = { address: Hex; sources: Record<string, string> };
  const settings = { optimizer: { enabled: false, runs: 200 }, outputSelection: {} };
  /** A contract of its own code (so each verification compiles), deployed and mined. */
  const deploy = async (i: number): Promise<Deployed> => {
    const sources = {
      "src/C.sol": `// SPDX-License-Identifier: MIT\npragma solidity 0.8.26;\ncontract C { uint256 public x = ${i + 1}; bytes32 public constant RUN = "${nonce}"; function f(uint256 a) external view returns (uint256) { return a * x + ${i}; } }\n`,
    };
    const built = (await build(compilers, versionFor(compilers, "0.8.26"), sources, settings)).C!;
    const hash = await walletFor(chain, 0).deployContract({ abi: built.abi, bytecode: built.bytecode });
    const receipt = await chain.client.waitForTransactionReceipt({ hash });
    return { address: receipt.contractAddress!, sources };
  };
  const submit = async (port: number, c: Deployed) => {
    const r = await fetch(`http://127.0.0.1:${port}/api`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        module: "contract",
        action: "verifysourcecode",
        contractaddress: c.address,
        sourceCode: standardJsonText(c.sources, settings),
        codeformat: "solidity-standard-json-input",
        contractname: "src/C.sol:C",
        compilerversion: versionFor(compilers, "0.8.26"),
      }).toString(),
    });
    return (await r.json()) as { status: string; result: string };
  };

  beforeAll(async () => {
    chain = await startTestChain({ blockTime: 1 });
    main = (await createTestDatabaseUrl())!;
    db = await createPostgresDb(main.url);
    // Its own compilers dir: compilations cached on disk here must not let the workers skip compiling (the test
    // needs a job that takes a while, to kill its worker mid-job).
    compilers = await offlineCompilers({ dir: join(dir, "test-compilers") });
    env = {
      DATABASE_URL: main.url,
      RPC_URL: chain.anvil.url,
      DATA_DIR: dir,
      COMPILERS_DIR: packagePath("node_modules/.cache/lookout-test-compilers"),
      SOLC_LIST_URL: "http://127.0.0.1:1/list.json",
      SOLCJS_LIST_URL: "http://127.0.0.1:1/bin/list.json",
      VYPER_LIST_URL: "http://127.0.0.1:1/vyper.json",
      COMPILER_CONCURRENCY: "1",
      JOB_LEASE_MS: "5000",
      LEASE_POLL_MS: "300",
      POLL_INTERVAL_MS: "200",
      INDEX_BATCH_SIZE: "10",
    };
  }, 120_000);

  afterAll(async () => {
    // Every process, in every outcome.
    for (const p of procs)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
    await Promise.all(procs.map((p) => p.exited));
    await db?.close();
    await compilers?.close();
    await main?.drop();
    for (const d of drops) await d().catch(() => {});
    // Roles a timed-out test could not drop (their grants went with the databases).
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    for (const r of roles) await admin.query(`drop role if exists ${r}`).catch(() => {});
    await admin.end();
    await chain?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serve and work refuse a database whose schema is missing, creating nothing", async () => {
    for (const role of ["serve", "work"]) {
      const t0 = Date.now();
      const { p } = await spawn([role]);
      const { code } = await p.exited;
      expect(code).toBe(1);
      expect(Date.now() - t0).toBeLessThan(10_000 + 5_000); // the contract is 10 s; slack for a loaded machine
      expect(p.output()).toMatch(/schema is missing.*lookout migrate/);
    }
    const [t] = await db.query<{ n: number }>(
      "select count(*)::int as n from pg_tables where schemaname = 'public'",
    );
    expect(t!.n).toBe(0);
    const m = runCli(["migrate"], env);
    procs.push(m);
    expect((await m.exited).code).toBe(0);
  }, 60_000);

  it("two index, two serve --no-jobs, two work: standby takes over after kill -9, jobs end once after a worker's kill -9", async () => {
    // The servers start before anything is indexed: they learn the chain when the indexer first writes it.
    const serveA = await spawn(["serve", "--no-jobs"]);
    const serveB = await spawn(["serve", "--no-jobs"]);
    await serveA.p.waitFor(/HTTP server listening/, 90_000);
    await serveB.p.waitFor(/HTTP server listening/, 90_000);
    const before = await health(serveA.port);
    expect(before.body).toMatchObject({
      role: "serve",
      database: { writable: true },
      indexer: { height: null },
    });
    const chainsOf = async (port: number) =>
      ((await (await fetch(`http://127.0.0.1:${port}/api/v1/chains`)).json()) as { chains: { id: string }[] })
        .chains;
    expect((await chainsOf(serveA.port)).map((c) => c.id)).not.toContain(String(chain.anvil.chainId));

    const index1 = await spawn(["index"]);
    await index1.p.waitFor(/Indexer ready/, 60_000);
    const index2 = await spawn(["index"]);
    await index2.p.waitFor(/standing by/, 60_000);
    await waitUntil(
      "both servers to learn the indexed chain",
      async () =>
        (await chainsOf(serveA.port)).some((c) => c.id === String(chain.anvil.chainId)) &&
        (await chainsOf(serveB.port)).some((c) => c.id === String(chain.anvil.chainId)),
      20_000,
    );

    const work1 = await spawn(["work"]);
    const work2 = await spawn(["work"]);
    await work1.p.waitFor(/Health and metrics listening/, 90_000);
    await work2.p.waitFor(/Health and metrics listening/, 90_000);
    expect((await health(work1.port)).body).toMatchObject({
      status: "ok",
      role: "work",
      indexer: { lease: null },
    });

    // Four distinct contracts (each compiles), verified through both servers.
    const contracts: Deployed[] = [];
    for (let i = 0; i < 4; i++) contracts.push(await deploy(i));
    const guids: string[] = [];
    for (const [i, c] of contracts.entries()) {
      const body = await submit(i % 2 === 0 ? serveA.port : serveB.port, c);
      expect(body, JSON.stringify(body)).toMatchObject({ status: "1" });
      guids.push(body.result);
    }

    // kill -9 a worker while it holds a job.
    const pidOf = (w: { p: CliProcess }) => w.p.child.pid!;
    let victim: { p: CliProcess; port: number } | undefined;
    await waitUntil(
      "a worker to hold a job",
      async () => {
        const rows = await db.query<{ owner: string }>(
          "select owner from verification_jobs where state = 'running'",
        );
        const pids = rows.map((r) => Number(r.owner.split(":")[1]));
        victim = [work1, work2].find((w) => pids.includes(pidOf(w)));
        return victim !== undefined;
      },
      60_000,
    );
    victim!.p.child.kill("SIGKILL");
    await victim!.p.exited;
    const orphaned = await db.query<{ id: string }>(
      "select id from verification_jobs where state = 'running' and split_part(owner, ':', 2) = $1",
      [String(pidOf(victim!))],
    );
    const work3 = await spawn(["work"]);

    // kill -9 the active indexer: the standby takes over within 30 s with no gap.
    const [h1, h2] = [await health(index1.port), await health(index2.port)];
    expect([h1.body.indexer.lease?.held, h2.body.indexer.lease?.held].sort()).toEqual([false, true]);
    const [active, standby] = h1.body.indexer.lease?.held ? [index1, index2] : [index2, index1];
    active.p.child.kill("SIGKILL");
    await active.p.exited;
    const h0 = await height(db);
    const tookMs = await waitUntil(
      "the standby to index past the killed one",
      async () => (await height(db)) > h0 + 2,
      30_000,
    );
    expect((await health(standby.port)).body.indexer.lease?.held).toBe(true);
    console.info(`standby took over and indexed 3 new blocks ${tookMs} ms after the kill`);

    // Every job ends once with the right result.
    await waitUntil(
      "every verification job to finish",
      async () =>
        (await db.query("select 1 from verification_jobs where state <> 'done'")).length === 0 &&
        (await db.query("select 1 from verification_jobs")).length === 4,
      150_000,
    );
    const jobs = await db.query<{ id: string; attempts: number; owner: string; outcome: { result: string } }>(
      "select id, attempts, owner, outcome from verification_jobs order by created_at",
    );
    expect(jobs.map((j) => j.id).sort()).toEqual([...guids].sort());
    for (const j of jobs) {
      expect(j.outcome.result).toBe("verified");
      const wasOrphaned = orphaned.some((o) => o.id === j.id);
      // An orphaned job was finished by a live worker, never by the killed one; the others ran once.
      if (wasOrphaned) expect(Number(j.owner.split(":")[1])).not.toBe(pidOf(victim!));
      expect(j.attempts).toBe(wasOrphaned ? 2 : 1);
    }
    expect(orphaned.length).toBeGreaterThan(0);
    const verified = await db.query("select 1 from verified_contracts");
    expect(verified.length).toBe(4);
    for (const g of guids) {
      const r = await fetch(
        `http://127.0.0.1:${serveB.port}/api?module=contract&action=checkverifystatus&guid=${g}`,
      );
      expect(((await r.json()) as { result: string }).result).toBe("Pass - Verified");
    }
    void work3;

    // The final tables equal a clean single-process index of the same chain.
    await chain.client.setIntervalMining({ interval: 0 });
    const head = Number(await chain.client.getBlockNumber());
    await waitUntil("the indexer to reach the head", async () => (await height(db)) === head, 30_000);
    const reference = await createTestDb();
    try {
      await indexToHead(
        await createTestIndexer(reference.db, chain.anvil.url, {
          extensions: [coinBalanceExtension(), currentBalancesExtension()],
        }),
        reference.db,
        chain.anvil.url,
      );
      const tables = [...CORE_TABLES, "coin_balance_changes"];
      expect(await dumpTables(db, tables)).toEqual(await dumpTables(reference.db, tables));
    } finally {
      await reference.drop();
    }
  }, 240_000);

  it("READ_DATABASE_URL serves explorer reads from a SELECT-only role; a read-only DATABASE_URL runs read-only", async () => {
    // The "replica": a second, empty database reachable only through a SELECT-only role, so answers show where
    // they come from (it has no blocks; the main database has).
    // The previous test stopped block production to compare tables; deployments below need blocks again.
    await chain.client.setIntervalMining({ interval: 1 });
    const replica = (await createTestDatabaseUrl())!;
    drops.push(replica.drop);
    const role = `lookout_ro_${Date.now().toString(36)}`;
    roles.push(role);
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    try {
      const m = runCli(["migrate"], { ...env, DATABASE_URL: replica.url });
      procs.push(m);
      expect((await m.exited).code).toBe(0);
      await admin.query(`create role ${role} login`);
      for (const url of [replica.url, main.url]) {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`grant select on all tables in schema public to ${role}`);
        await c.end();
      }
      const asRole = (url: string) => {
        const u = new URL(url);
        u.username = role;
        return u.toString();
      };
      const holder = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
      const history = async (port: number) =>
        (
          (await (
            await fetch(`http://127.0.0.1:${port}/api/v2/addresses/${holder}/coin-balance-history`)
          ).json()) as {
            items: unknown[];
          }
        ).items;

      const split = await spawn(["serve", "--no-jobs"], { READ_DATABASE_URL: asRole(replica.url) });
      await split.p.waitFor(/HTTP server listening/, 90_000);
      expect(await history(split.port)).toEqual([]);
      expect((await health(split.port)).body).toMatchObject({ status: "ok", database: { writable: true } });
      // A submission goes to DATABASE_URL: it is queued in the main database.
      const c = await deploy(10);
      const body = await submit(split.port, c);
      expect(body).toMatchObject({ status: "1" });
      expect(await db.query("select 1 from verification_jobs where id = $1", [body.result])).toHaveLength(1);

      const readOnly = await spawn(["serve"], { DATABASE_URL: asRole(main.url) });
      await readOnly.p.waitFor(/HTTP server listening/, 90_000);
      expect((await history(readOnly.port)).length).toBeGreaterThan(0);
      const h = await health(readOnly.port);
      expect(h.code).toBe(200);
      expect(h.body).toMatchObject({ role: "serve", database: { ok: true, writable: false } });
      expect(h.body.indexer.height).toBeGreaterThan(0);
      const w = await fetch(`http://127.0.0.1:${readOnly.port}/api`, { method: "POST", body: "" });
      expect(w.status).toBe(503);
      expect(((await w.json()) as { message: string }).message).toMatch(/read-only/);

      // A role that must write stops at once, naming the permission problem.
      const worker = await spawn(["work"], { DATABASE_URL: asRole(main.url) });
      expect((await worker.p.exited).code).toBe(1);
      expect(worker.p.output()).toMatch(/lacks INSERT\/UPDATE permission/);
    } finally {
      for (const p of procs)
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
      await Promise.all(procs.map((p) => p.exited));
      await replica.drop();
      for (const url of [main.url]) {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`revoke all on all tables in schema public from ${role}`).catch(() => {});
        await c.end();
      }
      await admin.query(`drop role if exists ${role}`).catch(() => {});
      await admin.end();
    }
  }, 180_000);
});
