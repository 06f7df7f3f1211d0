/**
 * Memory of one deployment indexing and serving N chains (issue 40): N anvils of different chain ids in CHAINS_CONFIG
 * (`"index": true`), one `start` in a child process on embedded PGlite (or, with `--postgres <admin url>`, a fresh
 * PostgreSQL database); its RSS once every chain answers its health and after a settling pause, and on PostgreSQL the
 * deployment's connections and its backends' memory (PSS: the shared buffers split among the backends sharing them,
 * not counted once per backend as RSS would). Counts in rounds (`--repeat` times each, interleaved).
 * Usage: `tsx bench/multichain-rss.ts [--repeat 2] [--postgres URL] 1 5 20`.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { type Anvil, freePort, startAnvil } from "../src/chain/anvil.js";
import { packagePath } from "../src/util/package-root.js";
import { pssMbOf, rssMbOf } from "./proc-stats.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { repeat: { type: "string", default: "1" }, postgres: { type: "string" } },
});

type Measure = {
  n: number;
  ready_mb: number;
  settled_mb: number;
  ready_s: number;
  connections?: number;
  backends_mb?: number;
  load: number;
};

/** The deployment's connections on PostgreSQL and their backends' PSS. */
async function backends(
  admin: pg.Client,
  database: string,
): Promise<{ connections: number; backends_mb: number }> {
  const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1", [
    database,
  ]);
  return { connections: rows.length, backends_mb: Math.round(rows.reduce((s, r) => s + pssMbOf(r.pid), 0)) };
}

async function measure(n: number): Promise<Measure> {
  const dir = mkdtempSync(join(tmpdir(), "lookout-mc-rss-"));
  const anvils: Anvil[] = [];
  let admin: pg.Client | null = null;
  let database: string | null = null;
  try {
    for (let i = 0; i < n; i++) anvils.push(await startAnvil({ chainId: 20_001 + i }));
    const file = join(dir, "chains.json");
    writeFileSync(
      file,
      JSON.stringify(anvils.map((a, i) => ({ id: a.chainId, name: `C${i}`, rpcUrl: a.url, index: true }))),
    );
    let databaseUrl: string | undefined;
    if (values.postgres) {
      admin = new pg.Client({ connectionString: values.postgres });
      await admin.connect();
      database = `lookout_mc_rss_${process.pid}_${n}_${Date.now() % 100000}`;
      await admin.query(`create database ${database}`);
      const u = new URL(values.postgres);
      u.pathname = `/${database}`;
      databaseUrl = u.toString();
    }
    const port = await freePort();
    const t0 = Date.now();
    const child = spawn(process.execPath, [packagePath("dist/app/cli.js"), "start"], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DATA_DIR: dir,
        CHAINS_CONFIG: file,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        LOG_LEVEL: "warn",
        COMPILERS_DIR: packagePath("node_modules/.cache/lookout-test-compilers"),
        SOLC_LIST_URL: "http://127.0.0.1:1/list.json",
        SOLCJS_LIST_URL: "http://127.0.0.1:1/bin/list.json",
        VYPER_LIST_URL: "http://127.0.0.1:1/vyper.json",
      },
      stdio: "ignore",
    });
    const exited = new Promise((r) => child.once("exit", r));
    try {
      // Every configured chain is served under /chains/{id}, one as several.
      const healthy = async (id: number) =>
        (await fetch(`http://127.0.0.1:${port}/chains/${id}/api/health`).catch(() => null))?.status === 200;
      for (;;) {
        const ok = await Promise.all(anvils.map((a) => healthy(a.chainId)));
        if (ok.every(Boolean)) break;
        if (Date.now() - t0 > 300_000) throw new Error(`${n} chains not healthy in 300 s`);
        await new Promise((r) => setTimeout(r, 500));
      }
      const ready_s = (Date.now() - t0) / 1000;
      const ready_mb = Math.round(rssMbOf(child.pid!));
      await new Promise((r) => setTimeout(r, 10_000));
      const settled_mb = Math.round(rssMbOf(child.pid!));
      const pgSide = admin && database ? await backends(admin, database) : {};
      return { n, ready_mb, settled_mb, ready_s, ...pgSide, load: Math.round(loadavg()[0]! * 10) / 10 };
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  } finally {
    for (const a of anvils) await a.stop();
    if (admin && database) {
      await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const counts = positionals.length ? positionals.map(Number) : [1, 5, 20];
for (let r = 0; r < Number(values.repeat); r++) {
  // Interleaved, and every other round in reverse: a drift of the machine does not favour one count.
  for (const n of r % 2 ? [...counts].reverse() : counts) console.log(JSON.stringify(await measure(n)));
}
