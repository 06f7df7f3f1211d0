/**
 * Process-roles benchmark, on one PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 *   (a) indexer throughput of `lookout index` alone vs with a standby `lookout index` on the same database
 *       (the same chain, a fresh database each time; blocks/s from the first to the last write);
 *   (b) explorer API requests per second against 1, 2 and 4 `lookout serve --no-jobs` processes on that database
 *       (one coin-balance-history page of a busy address; the load spread evenly, from a separate process each).
 * The CLI is run from dist/ (npm run build first). Usage: npx tsx bench/roles-bench.ts [-- --blocks 1500 --seconds 10]
 * On a 2-core machine, more server processes than cores cannot add throughput; the figures say how much they cost.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { freePort, startAnvil } from "../src/chain/anvil.js";
import { builtCliPath, packagePath } from "../src/util/package-root.js";
import { deployActivityContracts, mineActivity, rpc } from "../test/helpers/activity.js";
import { runLoad } from "./api-load.js";

const { values } = parseArgs({
  options: {
    blocks: { type: "string", default: "1500" },
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "16" },
  },
});
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const log = (s: string) => process.stderr.write(`${s}\n`);
const children: ChildProcess[] = [];

function cli(args: string[], env: Record<string, string>): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [builtCliPath(), ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: "info",
      // Offline compilers with cached version probes: `serve` starts in seconds, not after listing downloads.
      COMPILERS_DIR: packagePath("node_modules/.cache/lookout-test-compilers"),
      SOLC_LIST_URL: "http://127.0.0.1:1/list.json",
      SOLCJS_LIST_URL: "http://127.0.0.1:1/bin/list.json",
      VYPER_LIST_URL: "http://127.0.0.1:1/vyper.json",
      DATA_DIR: packagePath("node_modules/.cache/lookout-bench-roles"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    const on = (d: Buffer) => {
      out += d.toString();
      if (/listening/.test(out)) resolve();
    };
    child.stdout!.on("data", on);
    child.stderr!.on("data", on);
    child.once("exit", () => reject(new Error(`lookout ${args.join(" ")} exited:\n${out.slice(-2000)}`)));
  });
  ready.catch(() => {});
  return { child, ready };
}

async function database(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lookout_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function indexRate(rpcUrl: string, head: number, standby: boolean): Promise<number> {
  const db = await database();
  const client = new pg.Client({ connectionString: db.url });
  try {
    const env = { DATABASE_URL: db.url, RPC_URL: rpcUrl };
    const first = cli(["index"], { ...env, PORT: String(await freePort()) });
    await first.ready;
    if (standby) await cli(["index"], { ...env, PORT: String(await freePort()) }).ready;
    await client.connect();
    const height = async () =>
      (await client.query<{ h: string | null }>("select last_block as h from indexer_state")).rows[0]?.h ??
      null;
    let t0 = 0;
    let h0 = 0;
    for (;;) {
      const h = await height();
      if (h !== null && t0 === 0) {
        t0 = performance.now();
        h0 = Number(h);
      }
      if (h !== null && Number(h) >= head) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return (head - h0) / ((performance.now() - t0) / 1000);
  } finally {
    for (const c of children.splice(0)) c.kill("SIGKILL");
    await client.end().catch(() => {});
    await db.drop();
  }
}

async function main() {
  const anvil = await startAnvil({ keepHistory: true });
  try {
    const k = await deployActivityContracts(anvil.url);
    await mineActivity(anvil.url, k, { blocks: Number(values.blocks), txPerBlock: 3, seed: 7 });
    const head = Number(await rpc<string>(anvil.url, "eth_blockNumber"));
    log(`chain: ${head + 1} blocks`);

    const alone = await indexRate(anvil.url, head, false);
    const withStandby = await indexRate(anvil.url, head, true);
    log(`index alone: ${alone.toFixed(1)} blocks/s; with a standby: ${withStandby.toFixed(1)} blocks/s`);

    // (b) one indexed database, 1/2/4 servers.
    const db = await database();
    try {
      const env = { DATABASE_URL: db.url, RPC_URL: anvil.url };
      const idx = cli(["index"], { ...env, PORT: String(await freePort()) });
      await idx.ready;
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      while (
        Number((await client.query("select last_block from indexer_state")).rows[0]?.last_block ?? -1) < head
      )
        await new Promise((r) => setTimeout(r, 100));
      const [busy] = (
        await client.query<{ a: Buffer }>(
          "select address as a from coin_balance_changes group by address order by count(*) desc limit 1",
        )
      ).rows;
      await client.end();
      const address = `0x${busy!.a.toString("hex")}`;
      const rows: string[] = [];
      for (const n of [1, 2, 4]) {
        const ports: number[] = [];
        const servers = [];
        for (let i = 0; i < n; i++) {
          const port = await freePort();
          ports.push(port);
          servers.push(cli(["serve", "--no-jobs"], { ...env, PORT: String(port), DB_POOL_SIZE: "10" }));
        }
        await Promise.all(servers.map((s) => s.ready));
        const per = Math.max(1, Math.round(Number(values.concurrency) / n));
        const results = await Promise.all(
          ports.map((p) =>
            runLoad({
              url: `http://127.0.0.1:${p}/api/v2/addresses/${address}/coin-balance-history`,
              concurrency: per,
              durationMs: Number(values.seconds) * 1000,
              warmupMs: 2000,
            }),
          ),
        );
        const rps = results.reduce((s, r) => s + r.rps, 0);
        const errors = results.reduce((s, r) => s + r.errors, 0);
        const p99 = Math.max(...results.map((r) => r.p99));
        rows.push(`| ${n} | ${rps.toFixed(0)} | ${p99.toFixed(1)} | ${errors} |`);
        for (const s of servers) s.child.kill("SIGKILL");
      }
      for (const c of children.splice(0)) c.kill("SIGKILL");
      process.stdout.write(
        [
          `Indexer (${head + 1} blocks): alone ${alone.toFixed(1)} blocks/s, with a standby ${withStandby.toFixed(1)} blocks/s`,
          "",
          "| serve processes | requests/s (total) | worst p99 ms | errors |",
          "|---|---|---|---|",
          ...rows,
          "",
        ].join("\n"),
      );
    } finally {
      for (const c of children.splice(0)) c.kill("SIGKILL");
      await db.drop();
    }
  } finally {
    for (const c of children.splice(0)) c.kill("SIGKILL");
    await anvil.stop();
  }
}

main().catch((e) => {
  for (const c of children) c.kill("SIGKILL");
  log(String(e?.stack ?? e));
  process.exit(1);
});
