/**
 * bench:index --busy: the indexer against a busy chain served from memory (bench/busy-chain.ts, its own process, every
 * block's answers built before the first timed run, so the node is never the limit and its CPU, reported, stays
 * small), measured in the same run against
 *   (a) the raw fetch of exactly what the indexer asks (same calls, batching, concurrency; no writes),
 *   (b) `lookout index`'s stages into a fresh PostgreSQL database (every stage, as `lookout index` runs them),
 *   (c) a COPY of the rows (b) wrote into a fresh database with the same tables and indexes, one transaction
 *       (server-side binary COPY of each table to a file and back: the cost of the writes alone, no client),
 *   (d) (a) and (c) at once: the floor of any indexer on these cores, which must fetch and parse the node's answers
 *       and write at least those rows (perfectly overlapped, nothing derived beyond the raw fetch's work),
 * and reports transactions/s, CPU seconds per 1,000 transactions of this process, of the PostgreSQL backends serving
 * it (/proc/<pid>/stat of the pids pg_stat_activity names, sampled through the run: PostgreSQL runs on this machine)
 * and of the node, bytes on disk per transaction (pg_total_relation_size of every table: heap, TOAST, indexes) and the
 * first and last batches' times.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { availableParallelism } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import pg from "pg";
import { detectCapabilities, type NodeCapabilities } from "../src/chain/capabilities.js";
import { createRpc } from "../src/chain/rpc.js";
import type { Db, Queryable } from "../src/db/db.js";
import { migrate } from "../src/db/migrate.js";
import { createPostgresDb } from "../src/db/pg.js";
import { EventBus } from "../src/events/bus.js";
import { Indexer } from "../src/indexer/pipeline/runtime.js";
import { indexerStages } from "../src/indexer/stages/index.js";
import { createLogger } from "../src/util/logger.js";
import { packagePath } from "../src/util/package-root.js";
import { cpuSecondsOf } from "./proc-stats.js";
import { rawFetch } from "./raw-fetch.js";

export type BusyOptions = {
  transactions: number;
  batchSize: number;
  /** Batches sized by rows (INDEX_BATCH_TRANSACTIONS), at most `batchSize` blocks; unset: `batchSize` blocks. */
  batchTransactions?: number;
  concurrency: number;
  /** JSON-RPC calls per HTTP request (RPC_BATCH_SIZE; default 100, as the service's). */
  rpcBatchSize?: number;
  adminUrl: string;
  /** Also time every statement of the batch transactions and report the costliest (adds a little overhead). */
  statements?: boolean;
  /** Keep the indexed database (named in the output) for EXPLAIN on its tables; the COPY's is dropped. */
  keep?: boolean;
  /** Batch transactions on the main thread's pool, one statement after another's answer (as before the writer thread). */
  serialWrites?: boolean;
  /** Committed batches per trailing write (the indexer's `trailBatches`; unset: its default). */
  trailBatches?: number;
};

const log = (s: string) => process.stderr.write(`${s}\n`);

/** The CPU seconds of every backend connected to `database`, by pid. */
async function backendCpu(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1", [
    database,
  ]);
  return new Map(rows.map((r) => [r.pid, cpuSecondsOf(r.pid)]));
}

/**
 * The CPU the backends serving `database` use from now until `stop()`: sampled every 200 ms, so a backend that
 * connects and leaves in between (a pool's idle connection closed) counts up to its last sample, not as nothing.
 */
function watchBackends(admin: pg.Client, database: string): { stop(): Promise<number> } {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let started = false;
  const sample = async () => {
    for (const [pid, cpu] of await backendCpu(admin, database)) {
      if (cpu === 0 && last.has(pid)) continue; // gone between the two reads
      if (!first.has(pid)) first.set(pid, started ? 0 : cpu);
      last.set(pid, cpu);
    }
    started = true;
  };
  let running = sample();
  const timer = setInterval(() => {
    running = running.then(sample);
  }, 200);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await sample();
      return [...last].reduce((s, [pid, c]) => s + c - (first.get(pid) ?? 0), 0);
    },
  };
}

const processCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The in-memory node in its own process: `quiet` blocks of one transaction, then the busy blocks. */
export async function startBusyNode(
  transactions: number,
  quiet = 0,
  prebuild = false,
): Promise<{ url: string; head: number; transactions: number; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      packagePath("bench/busy-chain.ts"),
      "--transactions",
      String(transactions),
      "--quiet",
      String(quiet),
      ...(prebuild ? ["--prebuild"] : []),
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`busy chain exited (${code})`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  return { ...(JSON.parse(line) as { url: string; head: number; transactions: number }), child };
}

/** A new database `name` on the server of `adminUrl`, migrated. */
export async function freshDatabase(
  admin: pg.Client,
  adminUrl: string,
  name: string,
): Promise<{ db: Db; url: string }> {
  await admin.query(`create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const db = await createPostgresDb(u.toString());
  await migrate(db);
  return { db, url: u.toString() };
}

/** The tables a migrated database holds (the COPY copies each). */
async function tables(db: Db): Promise<string[]> {
  return (
    await db.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations' order by 1",
    )
  ).map((r) => r.name);
}

async function bytesOnDisk(db: Db): Promise<number> {
  const [r] = await db.query<{ bytes: string }>(
    "select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'",
  );
  return Number(r?.bytes ?? 0);
}

export async function runBusyBench(o: BusyOptions): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const node = await startBusyNode(o.transactions, 0, true);
  const txCount = node.head * 150;
  log(
    `busy chain: ${node.head + 1} blocks, ${txCount} transactions, served from memory at ${node.url} (${((performance.now() - t0) / 1000).toFixed(1)} s to build)`,
  );
  const admin = new pg.Client({ connectionString: o.adminUrl });
  admin.on("error", (e) => log(`admin connection: ${e.message}`));
  await admin.connect();
  const logger = createLogger("warn");
  const makeRpc = () =>
    createRpc({
      url: node.url,
      batchSize: o.rpcBatchSize ?? 100,
      timeoutMs: 60_000,
      retries: 5,
      concurrency: o.concurrency,
    });
  const stages = (bus = new EventBus()) => indexerStages({ logger, bus, notify: false });
  const dropped: string[] = [];
  // Where the COPY rounds' table files go (removed at the end, also on failure).
  const dir = `/tmp/lookout-bench-copy-${process.pid}`;
  try {
    const caps: NodeCapabilities = await detectCapabilities(makeRpc(), { traces: "auto" });

    // The raw fetch asks for the ranges the indexer asks for: with batches sized by rows, as many busy blocks
    // (150 transactions and the block) as hold `batchTransactions` rows (runtime.ts rangeSize), not `batchSize`
    // blocks, whose answers, all held at once, would cost it more memory and garbage collection than the indexer's.
    const rangeBlocks = o.batchTransactions
      ? Math.max(1, Math.min(o.batchSize, Math.round(o.batchTransactions / 151)))
      : o.batchSize;
    const nodeCpu = () => cpuSecondsOf(node.child.pid ?? 0);
    const fetchAll = () =>
      rawFetch({
        rpc: makeRpc(),
        caps,
        extensions: stages(),
        head: node.head,
        batchSize: rangeBlocks,
        concurrency: o.concurrency,
      });
    const rawRun = async () => {
      const cpu0 = processCpu();
      const node0 = nodeCpu();
      const start = performance.now();
      await fetchAll();
      const seconds = (performance.now() - start) / 1000;
      return {
        tx_per_s: Math.round(txCount / seconds),
        seconds: round(seconds),
        process_cpu_s_per_1000_tx: round(((processCpu() - cpu0) / txCount) * 1000),
        node_cpu_s_per_1000_tx: round(((nodeCpu() - node0) / txCount) * 1000),
      };
    };

    const name = `lookout_bench_busy_${Date.now()}`;
    const indexRun = async () => {
      const { db } = await freshDatabase(admin, o.adminUrl, name);
      if (o.keep) log(`(b) the indexed database is kept: ${name}`);
      else dropped.push(name);
      // Each committed batch: its blocks and write time (the fetch of later ranges runs beside it).
      const batches: Array<{ blocks: number; ms: number }> = [];
      const statementTimes = new Map<string, number>();
      // The same times batch by batch, to see which statements grow as the tables do.
      const batchStatements: Array<Map<string, number>> = [];
      let current = new Map<string, number>();
      let progress = () => {};
      const timing =
        <T>(fn: (tx: Queryable) => Promise<T>) =>
        (tx: Queryable) =>
          fn(o.statements ? timedQueries(tx, [statementTimes, current]) : tx);
      const timed: Db = {
        kind: db.kind,
        query: db.query.bind(db),
        exec: db.exec.bind(db),
        close: db.close.bind(db),
        transaction: (fn) => db.transaction(timing(fn)),
        // Pipelined statements resolve when posted: their times here are only the awaited ones' (reads, the end).
        ...(db.pipelinedTransaction && !o.serialWrites
          ? { pipelinedTransaction: (fn) => db.pipelinedTransaction!(timing(fn)) }
          : {}),
      };
      const indexer = new Indexer({
        db: timed,
        rpc: makeRpc(),
        caps,
        logger,
        extensions: stages(),
        onBatch: (blocks, ms) => {
          batches.push({ blocks, ms });
          batchStatements.push(current);
          current = new Map();
          progress();
        },
        options: {
          startBlock: 0,
          reorgDepth: 128,
          batchSize: o.batchSize,
          ...(o.batchTransactions ? { batchTransactions: o.batchTransactions } : {}),
          ...(o.trailBatches ? { trailBatches: o.trailBatches } : {}),
          fetchConcurrency: o.concurrency,
          pollIntervalMs: 100,
        },
      });
      await indexer.init();
      const profiler = process.env.BUSY_CPU_PROFILE ? await startProfile() : null;
      const heap = process.env.BUSY_HEAP_PROFILE ? await startHeapSampling() : null;
      const backends = watchBackends(admin, name);
      const cpu0 = processCpu();
      const node0 = nodeCpu();
      const elu0 = performance.eventLoopUtilization();
      // How long a ready answer (a statement's result the batch transaction waits for) can wait for the main thread.
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const start = performance.now();
      // Progress every 30 s (a long run may have to be stopped; what it reached is then still known).
      let lastReport = start;
      progress = () => {
        if (performance.now() - lastReport < 30_000) return;
        lastReport = performance.now();
        log(
          `  ${Math.round((lastReport - start) / 1000)} s: block ${indexer.progress.height} of ${node.head}, ${batches.length} batches, last ${Math.round(batches[batches.length - 1]?.ms ?? 0)} ms`,
        );
      };
      while (!indexer.progress.caughtUp || (indexer.progress.height ?? -1) < node.head) await indexer.step();
      const seconds = (performance.now() - start) / 1000;
      const cpu = processCpu() - cpu0;
      const nodeSpent = nodeCpu() - node0;
      const elu = performance.eventLoopUtilization(elu0);
      delay.disable();
      const gcShare = profiler ? await stopProfile(profiler, process.env.BUSY_CPU_PROFILE!) : null;
      if (heap) await stopHeapSampling(heap, process.env.BUSY_HEAP_PROFILE!);
      const pgCpu = await backends.stop();
      await indexer.stopExtensions();
      const bytes = await bytesOnDisk(db);
      const rows = await tables(db);
      await db.close();
      // The first batch holds the genesis block (and with row-sized batches is a probe of a few blocks); the last
      // is whatever was left: both are left out of first/last. Cost per 1,000 transactions compares batches of
      // different sizes (150 transactions a block).
      const full = batches.slice(1, -1);
      const costliest = [...statementTimes].sort((a, b) => b[1] - a[1]).slice(0, 12);
      const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
      const perK = (xs: Array<{ blocks: number; ms: number }>) =>
        Math.round(
          (xs.reduce((s, x) => s + x.ms, 0) /
            Math.max(
              1,
              xs.reduce((s, x) => s + x.blocks * 150, 0),
            )) *
            1000,
        );
      return {
        tx_per_s: Math.round(txCount / seconds),
        seconds: round(seconds),
        process_cpu_s_per_1000_tx: round((cpu / txCount) * 1000),
        postgres_cpu_s_per_1000_tx: round((pgCpu / txCount) * 1000),
        // The bench's node (its own process on the same cores: a real node runs elsewhere).
        node_cpu_s_per_1000_tx: round((nodeSpent / txCount) * 1000),
        // The share of the wall time a batch transaction was in flight, and the main thread was busy (event loop
        // utilisation: JavaScript and GC, not waiting on sockets); the rest of the time both wait on each other.
        write_in_flight_share: round(batches.reduce((s, b) => s + b.ms, 0) / 1000 / seconds),
        event_loop_busy_share: round(elu.utilization),
        // The main thread's own CPU (its busy time: JavaScript and the collector's pauses on it).
        main_thread_cpu_s_per_1000_tx: round(((elu.utilization * seconds) / txCount) * 1000),
        event_loop_delay_ms: {
          p50: round(delay.percentile(50) / 1e6),
          p99: round(delay.percentile(99) / 1e6),
          max: round(delay.max / 1e6),
        },
        ...(gcShare !== null ? { gc_share_of_busy: gcShare } : {}),
        bytes_per_tx: Math.round(bytes / txCount),
        bytes_on_disk: bytes,
        batches: full.length,
        blocks_per_batch: Math.round(avg(full.map((b) => b.blocks))),
        first_batch_ms: Math.round(full[0]?.ms ?? 0),
        last_batch_ms: Math.round(full[full.length - 1]?.ms ?? 0),
        first_5_batches_ms_per_1000_tx: perK(full.slice(0, 5)),
        last_5_batches_ms_per_1000_tx: perK(full.slice(-5)),
        tables: rows,
        ...(o.statements
          ? {
              statements_ms: Object.fromEntries(costliest.map(([k, v]) => [k, Math.round(v)])),
              statements_first_last_tenth_ms_per_1000_tx: growth(
                full,
                batchStatements.slice(1, -1),
                costliest.map(([k]) => k),
              ),
            }
          : {}),
      };
    };

    // The indexed rows, each table to a file of its own (binary COPY, server side), for the COPY rounds to load.
    const exportRows = async (source: string, list: string[]) => {
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o777);
      const u = new URL(o.adminUrl);
      u.pathname = `/${source}`;
      const from = new pg.Client({ connectionString: u.toString() });
      from.on("error", (e) => log(`copy source connection: ${e.message}`));
      await from.connect();
      for (const t of list) await from.query(`copy ${t} to '${dir}/${t}.bin' (format binary)`);
      await from.end();
    };
    // `beside`: work started with the COPY (the raw fetch), its wall time then until both are done.
    const copyRun = async (source: string, list: string[], beside?: () => Promise<unknown>) => {
      const target = `${source}_copy${beside ? "_fetch" : ""}`;
      const { db, url } = await freshDatabase(admin, o.adminUrl, target);
      dropped.push(target);
      await db.close();
      const to = new pg.Client({ connectionString: url });
      to.on("error", (e) => log(`copy target connection: ${e.message}`));
      await to.connect();
      // Migrations seed some rows (chain counters); the COPY writes the indexer's rows in their place.
      await to.query("begin");
      for (const t of list) await to.query(`delete from ${t}`);
      await to.query("commit");
      const backends = watchBackends(admin, target);
      const start = performance.now();
      const copying = (async () => {
        await to.query("begin");
        // The rows already hold what the tables' triggers derived: triggers off (indexes are maintained as usual).
        await to.query("set local session_replication_role = replica");
        for (const t of list) await to.query(`copy ${t} from '${dir}/${t}.bin' (format binary)`);
        await to.query("commit");
      })();
      await Promise.all([copying, beside?.()]);
      const seconds = (performance.now() - start) / 1000;
      const pgCpu = await backends.stop();
      await to.end();
      return {
        tx_per_s: Math.round(txCount / seconds),
        seconds: round(seconds),
        postgres_cpu_s_per_1000_tx: round((pgCpu / txCount) * 1000),
      };
    };

    const rawA = await rawRun();
    log(`(a) raw fetch: ${rawA.tx_per_s} tx/s`);
    const indexed = await indexRun();
    log(
      `(b) indexer: ${indexed.tx_per_s} tx/s (first batch ${indexed.first_batch_ms} ms, last ${indexed.last_batch_ms} ms)`,
    );
    await exportRows(name, indexed.tables);
    const copy = await copyRun(name, indexed.tables);
    log(`(c) COPY of the same rows: ${copy.tx_per_s} tx/s`);
    // The floor of any indexer on these cores: it must fetch and parse the node's answers (and derive what the raw
    // fetch derives) and write at least the COPY's rows; here both run at once, perfectly overlapped, nothing else.
    const fetchAndCopy = await copyRun(name, indexed.tables, fetchAll);
    log(`(d) the raw fetch and the COPY at once: ${fetchAndCopy.tx_per_s} tx/s`);
    const rawB = await rawRun();
    log(`(a) raw fetch, again: ${rawB.tx_per_s} tx/s`);
    const raw = (rawA.tx_per_s + rawB.tx_per_s) / 2;
    const { tables: _t, ...index } = indexed;
    const copyCpu = copy.postgres_cpu_s_per_1000_tx;
    const indexerCpu =
      index.process_cpu_s_per_1000_tx + index.postgres_cpu_s_per_1000_tx + index.node_cpu_s_per_1000_tx;
    const cores = availableParallelism();
    return {
      chain: "busy (in-memory node, 150 transactions per block)",
      blocks: node.head + 1,
      transactions: txCount,
      batch_size: o.batchSize,
      batch_transactions: o.batchTransactions ?? null,
      trail_batches: o.trailBatches ?? null,
      rpc_batch_size: o.rpcBatchSize ?? 100,
      concurrency: o.concurrency,
      load_average: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
      raw_fetch: { tx_per_s: Math.round(raw), runs: [rawA, rawB] },
      indexer: index,
      copy,
      raw_fetch_beside_copy: {
        tx_per_s: fetchAndCopy.tx_per_s,
        ratio_to_copy: round(fetchAndCopy.tx_per_s / copy.tx_per_s),
      },
      ratio_to_copy: round(indexed.tx_per_s / copy.tx_per_s),
      ratio_to_raw_fetch: round(indexed.tx_per_s / raw),
      // What bounds the ratio to the COPY, in CPU, which moves less with the machine's phase than the rates do
      // (the COPY is one backend on one core; its CPU per transaction is its speed). The COPY's rate is 1 /
      // copyCpu, the indexer's at most cores / indexerCpu (every core busy) and 1 / its main thread's CPU (one
      // thread): so the ratio is at most the least of the two bounds below, whatever the code's waits.
      cpu: {
        indexer_to_copy: round(indexerCpu / copyCpu),
        main_thread_to_copy: round(index.main_thread_cpu_s_per_1000_tx / copyCpu),
        cores,
        ratio_bound_by_cores: round((cores * copyCpu) / indexerCpu),
        ratio_bound_by_main_thread: round(copyCpu / index.main_thread_cpu_s_per_1000_tx),
      },
      blockscout_bytes_per_tx: 8700,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    node.child.kill();
    for (const d of dropped.reverse()) await admin.query(`drop database if exists ${d} with (force)`);
    await admin.end();
  }
}

/**
 * Each statement's ms per 1,000 transactions in the first and the last tenth of the whole batches (150 transactions a
 * block): which statements cost more as the tables grow.
 */
function growth(
  batches: Array<{ blocks: number }>,
  perBatch: Array<Map<string, number>>,
  keys: string[],
): Record<string, [number, number]> {
  const n = Math.max(1, Math.floor(batches.length / 10));
  const perK = (from: number, to: number, key: string) => {
    let ms = 0;
    let tx = 0;
    for (let i = from; i < to; i++) {
      ms += perBatch[i]?.get(key) ?? 0;
      tx += (batches[i]?.blocks ?? 0) * 150;
    }
    return Math.round((ms / Math.max(1, tx)) * 1000 * 10) / 10;
  };
  return Object.fromEntries(
    keys.map((k) => [k, [perK(0, n, k), perK(batches.length - n, batches.length, k)] as [number, number]]),
  );
}

/** A transaction whose statements add their time to each of `times`, keyed by the statement's first words. */
function timedQueries(tx: Queryable, times: Array<Map<string, number>>): Queryable {
  const add = (key: string, ms: number) => {
    for (const t of times) t.set(key, (t.get(key) ?? 0) + ms);
  };
  return {
    async query(sql, params, options) {
      const s = performance.now();
      try {
        return await tx.query(sql, params, options);
      } finally {
        add(sql.replace(/\s+/g, " ").trim().slice(0, 90), performance.now() - s);
      }
    },
    exec: (sql) => tx.exec(sql),
    ...(tx.command
      ? { command: (sql: string, params?: readonly unknown[]) => tx.command!(sql, params) }
      : {}),
    ...(tx.copyFrom
      ? {
          async copyFrom(table: string, columns: readonly string[], tuples: Uint8Array) {
            const s = performance.now();
            try {
              return await tx.copyFrom!(table, columns, tuples);
            } finally {
              add(`copy ${table}`, performance.now() - s);
            }
          },
        }
      : {}),
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** BUSY_CPU_PROFILE=file.cpuprofile: a V8 CPU profile of the index run alone (open it in Chrome's DevTools). */
async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 1000 });
  await session.post("Profiler.start");
  return session;
}

/**
 * BUSY_HEAP_PROFILE=file.heapprofile: where the index run allocates (sampled every 64 KiB, objects the collector
 * freed since included: the young generation's garbage is what costs the scavenges), for DevTools' Memory tab.
 */
async function startHeapSampling(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 65536,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  return session;
}

async function stopHeapSampling(session: Session, file: string): Promise<void> {
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: unknown };
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
}

type ProfileNode = { id: number; callFrame: { functionName: string } };
/** Writes the profile; returns garbage collection's share of the samples that were not idle. */
async function stopProfile(session: Session, file: string): Promise<number> {
  const { profile } = (await session.post("Profiler.stop")) as {
    profile: { nodes: ProfileNode[]; samples: number[] };
  };
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
  const name = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  let gc = 0;
  let busy = 0;
  for (const id of profile.samples) {
    const f = name.get(id);
    if (f === "(idle)" || f === "(program)") continue;
    busy++;
    if (f === "(garbage collector)") gc++;
  }
  return round(gc / Math.max(1, busy));
}
