/**
 * Many chains in one deployment under load (issue 40): does one `lookout start` keep up with N chains that each make
 * a block a second, and what does one chain's API cost beside them?
 *
 * Rounds A B B A in one run (`--rounds ABBA`): A is a deployment of the measured chain alone, B one of `--chains` N
 * chains (the measured one last in CHAINS_CONFIG, so a further chain in its own schema). Each round starts afresh:
 * its anvils (`--block-time 1`, chain ids 20001…), the measured chain seeded with SEED transfers from one account,
 * a fresh database (embedded PGlite in a new DATA_DIR, or with `--postgres <admin url>` a new PostgreSQL database),
 * one `lookout start` (dist/, a child process). Once every chain is within 2 blocks of its node, for `--seconds` s:
 * every chain gets one transfer a second (so blocks are not empty), every chain's lag (its node's head minus the
 * newest indexed block, from `/chains/{id}/api/health`) is sampled every 2 s (the chains' samples spread over the
 * 2 s; `--burst-samples`: all at once, as before), and a client asks the measured chain
 * `PAGES_PER_SECOND` pages a second at a fixed pace (main-page blocks and the seeded account's transactions,
 * alternately), timing each. Also per round: the Lookout process's event-loop delay and every chain's batch writes
 * (from its /metrics), its RSS (max of 1 s samples), on PostgreSQL the deployment's connections and its backends' PSS, and the load average.
 *
 * Usage: `npm run bench:multichain-load -- [--chains 20] [--seconds 90] [--rounds ABBA] [--postgres URL]
 *   [--burst-samples]`.
 * One JSON line per round, then a summary line.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { type Anvil, freePort, startAnvil } from "../src/chain/anvil.js";
import { packagePath } from "../src/util/package-root.js";
import { cpuSecondsOf, pssMbOf, rssMbOf } from "./proc-stats.js";

const { values } = parseArgs({
  options: {
    chains: { type: "string", default: "20" },
    seconds: { type: "string", default: "90" },
    rounds: { type: "string", default: "ABBA" },
    postgres: { type: "string" },
    /** Sample every chain's lag at the same moment (as the bench did until 2026-11-28), not spread over 2 s. */
    "burst-samples": { type: "boolean", default: false },
    /** Write a CPU profile of each round's Lookout process into this directory (node --cpu-prof). */
    "cpu-prof": { type: "string" },
  },
});
const CHAINS = Number(values.chains);
const SECONDS = Number(values.seconds);
const FIRST_ID = 20_001;
const SEED = 40;
const PAGES_PER_SECOND = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! : Number.NaN;
};
const round1 = (x: number) => Math.round(x * 10) / 10;

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await r.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** A transfer from one of anvil's unlocked accounts (no signing here: the bench's own CPU stays small). */
const transfer = (a: Anvil, from: number, to: number) =>
  rpc(a.url, "eth_sendTransaction", [
    { from: a.accounts[from]!.address, to: a.accounts[to]!.address, value: "0x1" },
  ]);

type Round = {
  round: string;
  chains: number;
  database: "pglite" | "postgres";
  requests: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  /** The Lookout process's event-loop delay over the window (p50, p99, max). */
  event_loop_ms: { p50: number | null; p99: number | null; max: number | null };
  /** Every chain's batch writes in the window: count, mean time (waits included), summed time over the window. */
  batches: { count: number; mean_ms: number | null; write_share: number };
  /** Per chain id: lag in blocks over the window (max, median, last sample). */
  lag: Record<string, { max: number; p50: number; last: number }>;
  rss_mb: number;
  /** CPU of the Lookout process over the window, in cores. */
  lookout_cores: number;
  connections?: number;
  backends_rss_mb?: number;
  ready_s: number;
  load: [number, number];
};

async function runRound(label: string, n: number): Promise<Round> {
  const dir = mkdtempSync(join(tmpdir(), "lookout-mc-load-"));
  const anvils: Anvil[] = [];
  let admin: pg.Client | null = null;
  let database: string | null = null;
  try {
    // The measured chain is the same in both deployments: the last chain id of the B deployment.
    const ids = n === 1 ? [FIRST_ID + CHAINS - 1] : Array.from({ length: n }, (_, i) => FIRST_ID + i);
    for (const id of ids) anvils.push(await startAnvil({ chainId: id, blockTime: 1 }));
    const measured = anvils.at(-1)!;
    for (let i = 0; i < SEED; i++) await transfer(measured, 0, 1 + (i % 5));
    const account = measured.accounts[0]!.address;
    const file = join(dir, "chains.json");
    writeFileSync(
      file,
      JSON.stringify(
        anvils.map((a) => ({ id: a.chainId, name: `C${a.chainId}`, rpcUrl: a.url, index: true })),
      ),
    );
    let databaseUrl: string | undefined;
    if (values.postgres) {
      admin = new pg.Client({ connectionString: values.postgres });
      await admin.connect();
      database = `lookout_mc_load_${process.pid}_${label.toLowerCase()}${Date.now() % 100000}`;
      await admin.query(`create database ${database}`);
      const u = new URL(values.postgres);
      u.pathname = `/${database}`;
      databaseUrl = u.toString();
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const t0 = Date.now();
    const profile = values["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", values["cpu-prof"]] : [];
    const child = spawn(process.execPath, [...profile, packagePath("dist/app/cli.js"), "start"], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DATA_DIR: dir,
        CHAINS_CONFIG: file,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        LOG_LEVEL: "warn",
        API_RATE_LIMIT_DISABLED: "true",
        COMPILERS_DIR: packagePath("node_modules/.cache/lookout-test-compilers"),
        SOLC_LIST_URL: "http://127.0.0.1:1/list.json",
        SOLCJS_LIST_URL: "http://127.0.0.1:1/bin/list.json",
        VYPER_LIST_URL: "http://127.0.0.1:1/vyper.json",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const exited = new Promise((r) => child.once("exit", r));
    try {
      const indexed = async (a: Anvil): Promise<number | null> => {
        const r = await fetch(`${base}/chains/${a.chainId}/api/health`).catch(() => null);
        if (!r) return null;
        const body = (await r.json().catch(() => null)) as {
          metadata?: { blocks?: { latest_block?: { db?: { number?: string } } } };
        } | null;
        const s = body?.metadata?.blocks?.latest_block?.db?.number;
        return s ? Number(s) : null;
      };
      // The node's head read after the index's newest block: an upper bound of the lag (by what the answer took).
      const lagOf = async (a: Anvil) => {
        const db = await indexed(a);
        const head = await rpc<string>(a.url, "eth_blockNumber");
        return db === null ? Number.POSITIVE_INFINITY : Number(head) - db;
      };
      for (;;) {
        const lags = await Promise.all(anvils.map(lagOf));
        if (lags.every((l) => l <= 2)) break;
        if (Date.now() - t0 > 600_000) throw new Error(`${n} chains not caught up in 600 s: ${lags}`);
        await sleep(1000);
      }
      const ready_s = (Date.now() - t0) / 1000;
      await sleep(5000);

      // From Lookout's /metrics at the window's start and end: the event-loop delay (prom-client resets its histogram
      // at each scrape, so the end's figures cover the window) and every chain's batch writes (cumulative).
      const readMetrics = async () => {
        const text = await fetch(`${base}/metrics`)
          .then((r) => r.text())
          .catch(() => "");
        const value = (name: string) => {
          const m = text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, "m"));
          return m ? Number(m[1]) : null;
        };
        const loopMs = (q: string) => {
          const v = value(`lookout_process_nodejs_eventloop_lag_${q}_seconds`);
          return v === null ? null : round1(v * 1000);
        };
        return {
          loop: { p50: loopMs("p50"), p99: loopMs("p99"), max: loopMs("max") },
          batches: {
            count: value("lookout_index_batch_write_seconds_count") ?? 0,
            seconds: value("lookout_index_batch_write_seconds_sum") ?? 0,
          },
        };
      };
      const before = await readMetrics();
      const load0 = loadavg()[0]!;
      const cpu0 = cpuSecondsOf(child.pid!);
      const end = Date.now() + SECONDS * 1000;
      const lags = new Map<number, number[]>(anvils.map((a) => [a.chainId, []]));
      let rss = 0;
      let connections = 0;
      let backendsRss = 0;
      const times: number[] = [];
      let errors = 0;
      const pages = [
        `/chains/${measured.chainId}/api/v2/main-page/blocks`,
        `/chains/${measured.chainId}/api/v2/addresses/${account}/transactions`,
      ];
      const loops: Promise<void>[] = [];
      // Traffic: one transfer a second per chain, from its accounts in turn.
      loops.push(
        (async () => {
          for (let k = 0; Date.now() < end; k++) {
            const next = Date.now() + 1000;
            await Promise.all(anvils.map((a) => transfer(a, 2 + (k % 8), 1).catch(() => {})));
            await sleep(next - Date.now());
          }
        })(),
      );
      // Lag of every chain every 2 s, the chains' samples spread over those 2 s: all at once, they were a burst of
      // `--chains` health requests (each also asking its node) that the measured pages met every 2 s, a load of the
      // instrument's making that round A (one chain) never has.
      const spread = values["burst-samples"] ? 0 : 2000 / anvils.length;
      for (const [i, a] of anvils.entries())
        loops.push(
          (async () => {
            await sleep(i * spread);
            while (Date.now() < end) {
              const next = Date.now() + 2000;
              lags.get(a.chainId)!.push(await lagOf(a));
              await sleep(next - Date.now());
            }
          })(),
        );
      // Memory and connections every second.
      loops.push(
        (async () => {
          while (Date.now() < end) {
            rss = Math.max(rss, rssMbOf(child.pid!));
            if (admin && database) {
              const { rows } = await admin.query<{ pid: number }>(
                "select pid from pg_stat_activity where datname = $1",
                [database],
              );
              connections = Math.max(connections, rows.length);
              backendsRss = Math.max(
                backendsRss,
                rows.reduce((s, r) => s + pssMbOf(r.pid), 0),
              );
            }
            await sleep(1000);
          }
        })(),
      );
      // The API client: a page every 1/PAGES_PER_SECOND s at a fixed pace, whatever the answers take.
      loops.push(
        (async () => {
          const inflight: Promise<void>[] = [];
          for (let k = 0; Date.now() < end; k++) {
            inflight.push(
              (async () => {
                const s = performance.now();
                const r = await fetch(`${base}${pages[k % 2]}`).catch(() => null);
                await r?.arrayBuffer();
                const ms = performance.now() - s;
                if (r?.status === 200) times.push(ms);
                else errors++;
              })(),
            );
            await sleep(1000 / PAGES_PER_SECOND);
          }
          await Promise.all(inflight);
        })(),
      );
      await Promise.all(loops);
      const after = await readMetrics();
      const event_loop_ms = after.loop;
      // Every chain's batch writes in the window: how many, their mean time and their summed time over the window
      // (each from its call to its commit, so a wait for PGlite's one connection or the pool counts too).
      const batchCount = after.batches.count - before.batches.count;
      const batchSeconds = after.batches.seconds - before.batches.seconds;
      const batches = {
        count: batchCount,
        mean_ms: batchCount ? round1((batchSeconds / batchCount) * 1000) : null,
        write_share: Math.round((batchSeconds / SECONDS) * 1000) / 1000,
      };
      const cores = (cpuSecondsOf(child.pid!) - cpu0) / SECONDS;
      const summary = Object.fromEntries(
        [...lags].map(([id, xs]) => [id, { max: Math.max(...xs), p50: quantile(xs, 0.5), last: xs.at(-1)! }]),
      );
      return {
        round: label,
        chains: n,
        database: values.postgres ? "postgres" : "pglite",
        requests: times.length,
        p50_ms: round1(quantile(times, 0.5)),
        p99_ms: round1(quantile(times, 0.99)),
        errors,
        lag: summary,
        event_loop_ms,
        batches,
        rss_mb: Math.round(rss),
        lookout_cores: Math.round(cores * 100) / 100,
        ...(admin ? { connections, backends_rss_mb: Math.round(backendsRss) } : {}),
        ready_s: round1(ready_s),
        load: [round1(load0), round1(loadavg()[0]!)],
      };
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

const results: Round[] = [];
for (const label of values.rounds) {
  const r = await runRound(label, label === "A" ? 1 : CHAINS);
  results.push(r);
  console.log(JSON.stringify(r));
}
const worst = (label: string) => results.filter((r) => r.round === label).map((r) => r.p99_ms);
const a = worst("A");
const b = worst("B");
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
console.log(
  JSON.stringify({
    summary: true,
    chains: CHAINS,
    p99_alone_ms: a,
    p99_beside_ms: b,
    // A B B A: the means of the two of each cancel a steady drift of the machine.
    p99_ratio_of_means: Math.round((mean(b) / mean(a)) * 100) / 100,
    max_lag: Math.max(
      ...results.filter((r) => r.round === "B").flatMap((r) => Object.values(r.lag).map((l) => l.max)),
    ),
  }),
);
