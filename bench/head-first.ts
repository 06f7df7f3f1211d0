/**
 * Head-first bench (issue 35 part 4): a chain with long history served from memory by the bench's node
 * (bench/busy-chain.ts in its own process: `--history` quiet blocks of one transaction each, then `--transactions`
 * in busy blocks of 150 at the head; anvil_mine was too slow for 100,000 blocks), then in the same run:
 *   (1) head first (HEAD_FIRST_BLOCKS on): the time from the indexer's start to the head block being indexed,
 *       and the history's rate beside it;
 *   (2) in order (HEAD_FIRST_BLOCKS=0), the baseline: the rate of the same catch-up for `--baseline-s` seconds and
 *       the time to the head it projects;
 *   (3) the address transactions page of the same deployment (the HTTP app in the indexer's process, as `lookout
 *       start` runs them: the API's reads on a pool of their own, history giving way to its requests unless
 *       `--pacing off`) under a steady request loop from a worker thread (one request at a time, back to back):
 *       `--pairs` times history alone (its rate with the API idle), catching up (p50/p99, history's rate beside the
 *       requests), idle (indexer stopped), then catching up once more; the latencies of each kind pooled. Each round
 *       also says where a request's time went: its statements, Fastify's handler time, the event loop's delay, and
 *       the wait events of the active backends (pg_stat_activity every 25 ms).
 * Usage: npm run bench:head-first [-- --history 100000 --transactions 30000 --seconds 20 --baseline-s 30
 *   --head-first-blocks 1000 --batch-size 500 --batch-transactions 2000 --pairs 3 --pacing on]
 *   (--baseline-s 0 skips the in-order baseline)
 * Needs the PostgreSQL of BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { buildApp } from "../src/app/http-app.js";
import { detectCapabilities } from "../src/chain/capabilities.js";
import { createRpc } from "../src/chain/rpc.js";
import { readState } from "../src/chain-store/checkpoint.js";
import type { Db } from "../src/db/db.js";
import { createPostgresDb } from "../src/db/pg.js";
import { EventBus } from "../src/events/bus.js";
import { Indexer } from "../src/indexer/pipeline/runtime.js";
import { indexerStages } from "../src/indexer/stages/index.js";
import { createLogger } from "../src/util/logger.js";
import { RequestActivity } from "../src/util/request-activity.js";
import { freshDatabase, startBusyNode } from "./busy-bench.js";

/**
 * The request loop, in a worker thread (its own event loop): one request at a time for `ms`, latencies in ms. Plain
 * JavaScript evaluated by the worker (a worker does not inherit tsx's loader).
 */
const REQUEST_LOOP = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const { url, ms } = workerData;
  const out = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(url + ": " + res.status);
    out.push(performance.now() - t);
  }
  parentPort.postMessage(out);
})();
`;

{
  const { values } = parseArgs({
    options: {
      history: { type: "string", default: "100000" },
      seconds: { type: "string", default: "20" },
      "baseline-s": { type: "string", default: "30" },
      transactions: { type: "string", default: "30000" },
      "batch-size": { type: "string", default: "500" },
      "batch-transactions": { type: "string", default: "2000" },
      concurrency: { type: "string", default: "4" },
      "head-first-blocks": { type: "string", default: "1000" },
      // History giving way to the API's requests, as `lookout start` wires it (off: history ignores them).
      pacing: { type: "string", default: "on" },
      // Rounds of the API measurement: this many times (history alone, catching up, idle), then catching up once
      // more; the latencies of all rounds of a kind are pooled (the machine's load drifts less between them).
      pairs: { type: "string", default: "1" },
    },
  });
  const history = Number(values.history);
  const seconds = Number(values.seconds);
  const baselineS = Number(values["baseline-s"]);
  const batchSize = Number(values["batch-size"]);
  const batchTransactions = Number(values["batch-transactions"]);
  const busyTransactions = Number(values.transactions);
  const concurrency = Number(values.concurrency);
  const headFirstBlocks = Number(values["head-first-blocks"]);
  const requests = values.pacing === "off" ? undefined : new RequestActivity();
  const pairs = Math.max(1, Number(values.pairs));
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(" ");
  const quantile = (xs: number[], q: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : Number.NaN;
  };

  async function freshDb(tag: string): Promise<{ db: Db; url: string; drop(): Promise<void> }> {
    const name = `lookout_bench_head_${tag}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const { db, url } = await freshDatabase(admin, adminUrl, name);
    return {
      db,
      url,
      async drop() {
        await db.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }

  async function main() {
    const t0 = performance.now();
    const node = await startBusyNode(busyTransactions, history);
    try {
      const head = node.head;
      log(
        `chain built: ${head + 1} blocks (${history} quiet, then ${node.transactions - history} transactions at the head) in ${((performance.now() - t0) / 1000).toFixed(1)} s (load ${load()})`,
      );

      const logger = createLogger("warn");
      const makeRpc = () =>
        createRpc({ url: node.url, batchSize: 100, timeoutMs: 60_000, retries: 5, concurrency });
      const caps = await detectCapabilities(makeRpc(), { traces: "auto" });
      const indexerFor = (db: Db, headFirstBlocks: number) =>
        new Indexer({
          db,
          rpc: makeRpc(),
          caps,
          logger,
          extensions: indexerStages({ logger, bus: new EventBus(), notify: false }),
          ...(requests ? { pacing: requests } : {}),
          options: {
            startBlock: 0,
            reorgDepth: 128,
            batchSize,
            batchTransactions,
            fetchConcurrency: concurrency,
            pollIntervalMs: 200,
            headFirstBlocks,
          },
        });

      // (2) baseline first: in order, for baselineS seconds.
      let inOrderRate = Number.NaN;
      if (baselineS > 0) {
        const base = await freshDb("inorder");
        try {
          const ix = indexerFor(base.db, 0);
          await ix.init();
          const ac = new AbortController();
          const start = performance.now();
          const running = ix.run(ac.signal);
          await new Promise((r) => setTimeout(r, baselineS * 1000));
          const s = await readState(base.db);
          ac.abort();
          await running;
          await ix.stopExtensions();
          inOrderRate = ((s?.lastBlock ?? -1) + 1) / ((performance.now() - start) / 1000);
          log(`in order: ${inOrderRate.toFixed(0)} blocks/s for ${baselineS} s (load ${load()})`);
        } finally {
          await base.drop();
        }
      }

      // (1) head first.
      const hf = await freshDb("headfirst");
      try {
        // As `lookout start` on PostgreSQL (app/roles/database.ts): the indexer on DATABASE_URL's pool, the API's
        // reads on a pool of their own with API_STATEMENT_TIMEOUT_MS; each pool named for pg_stat_activity.
        const named = (app: string) => `${hf.url}${hf.url.includes("?") ? "&" : "?"}application_name=${app}`;
        const indexerDb = await createPostgresDb(named("lookout_indexer"));
        const readDb = await createPostgresDb(named("lookout_api"), { statementTimeoutMs: 30_000 });
        // Where a request's time goes: the statements' time (client side of node-postgres), the handler's
        // (Fastify's elapsed time), the rest is the wait before Fastify saw it (the event loop, the CPU).
        const probe = { db: [] as number[], server: [] as number[] };
        const timedDb: Db = {
          ...readDb,
          async query(sql, params, opts) {
            const t = performance.now();
            try {
              return await readDb.query(sql, params, opts);
            } finally {
              probe.db.push(performance.now() - t);
            }
          },
        } as Db;
        const app = await buildApp({
          db: timedDb,
          config: { bodyLimit: 1e6 },
          logger: false,
          ...(requests ? { requestActivity: requests } : {}),
        });
        app.addHook("onResponse", async (_req, reply) => {
          probe.server.push(reply.elapsedTime);
        });
        await app.listen({ port: 0, host: "127.0.0.1" });
        // Wait events of the active backends (API's and indexer's), sampled every 25 ms during a round.
        const sampler = new pg.Client({ connectionString: hf.url });
        await sampler.connect();
        const sampleWaits = () => {
          const counts = new Map<string, number>();
          let busy = false;
          const timer = setInterval(() => {
            if (busy) return;
            busy = true;
            sampler
              .query<{ k: string }>(
                "select application_name || ' ' || coalesce(wait_event_type || ':' || wait_event, 'CPU') as k from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()",
              )
              .then((r) => {
                for (const { k } of r.rows) counts.set(k, (counts.get(k) ?? 0) + 1);
              })
              .catch(() => {})
              .finally(() => {
                busy = false;
              });
          }, 25);
          return () => {
            clearInterval(timer);
            return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, 8));
          };
        };
        const address = app.server.address();
        const port = typeof address === "object" && address ? address.port : 0;
        // The ERC-20 token of the busy chain: a quarter of its transactions are to it, in history and at the head.
        const pageUrl = `http://127.0.0.1:${port}/api/v2/addresses/0xc0${"1".padStart(38, "0")}/transactions`;
        const round = (ms: number) =>
          new Promise<number[]>((resolve, reject) => {
            const w = new Worker(REQUEST_LOOP, { eval: true, workerData: { url: pageUrl, ms } });
            w.once("message", resolve);
            w.once("error", reject);
          });

        let ix = indexerFor(indexerDb, headFirstBlocks);
        await ix.init();
        let ac = new AbortController();
        const start = performance.now();
        let running = ix.run(ac.signal);
        let firstHeadMs = 0;
        for (;;) {
          const s = await readState(hf.db);
          if (s?.lastBlock === head) {
            firstHeadMs = performance.now() - start;
            break;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
        log(
          `head first: head block ${head} indexed ${(firstHeadMs / 1000).toFixed(2)} s after start (load ${load()})`,
        );

        const rounds: Array<{
          phase: string;
          n: number;
          p50: number;
          p99: number;
          load: string;
          history_block: number | null;
          [k: string]: unknown;
        }> = [];
        const ms = (x: number) => Number(x.toFixed(1));
        const pooled = new Map<string, number[]>();
        const measure = async (phase: string) => {
          probe.db.length = 0;
          probe.server.length = 0;
          const loop = monitorEventLoopDelay({ resolution: 5 });
          loop.enable();
          const waits = sampleWaits();
          const lat = await round(seconds * 1000);
          loop.disable();
          pooled.set(phase, [...(pooled.get(phase) ?? []), ...lat]);
          const s = await readState(hf.db);
          rounds.push({
            phase,
            n: lat.length,
            p50: ms(quantile(lat, 0.5)),
            p99: ms(quantile(lat, 0.99)),
            load: load(),
            history_block: s?.historyBlock ?? null,
            server_p50: ms(quantile(probe.server, 0.5)),
            server_p99: ms(quantile(probe.server, 0.99)),
            statement_p50: ms(quantile(probe.db, 0.5)),
            statement_p99: ms(quantile(probe.db, 0.99)),
            statements_per_request: Number((probe.db.length / Math.max(1, lat.length)).toFixed(1)),
            event_loop_delay_p99: ms(loop.percentile(99) / 1e6),
            event_loop_delay_max: ms(loop.max / 1e6),
            pg_active_samples: waits(),
          });
          log(`${phase}: ${JSON.stringify(rounds[rounds.length - 1])}`);
        };
        // History's rate with no request in flight (what pacing must not lower), then with the request loop, then
        // the API alone (the indexer stopped, then started again).
        let quiet = { blocks: 0, s: 0 };
        let beside = { blocks: 0, s: 0 };
        const historyOver = async (fn: () => Promise<unknown>, into: { blocks: number; s: number }) => {
          const h0 = (await readState(hf.db))?.historyBlock ?? -1;
          const t = performance.now();
          await fn();
          const h1 = (await readState(hf.db))?.historyBlock;
          // History joined the head meanwhile (null): the round is not counted.
          if (h1 == null) return into;
          return { blocks: into.blocks + h1 - h0, s: into.s + (performance.now() - t) / 1000 };
        };
        const restart = async () => {
          ix = indexerFor(indexerDb, headFirstBlocks);
          await ix.init();
          ac = new AbortController();
          running = ix.run(ac.signal);
        };
        for (let i = 0; i < pairs; i++) {
          if (i > 0) await restart();
          quiet = await historyOver(() => new Promise((r) => setTimeout(r, seconds * 1000)), quiet);
          log(
            `history with the API idle: ${(quiet.blocks / quiet.s).toFixed(0)} blocks/s so far (load ${load()})`,
          );
          beside = await historyOver(() => measure("catching up"), beside);
          ac.abort();
          await running;
          await ix.stopExtensions();
          await measure("idle");
        }
        await restart();
        beside = await historyOver(() => measure("catching up"), beside);
        const quietRate = quiet.blocks / quiet.s;
        const historyRate = beside.blocks / beside.s;
        ac.abort();
        await running;
        await ix.stopExtensions();
        await app.close();
        await sampler.end();
        await readDb.close();
        await indexerDb.close();

        const catching = rounds.filter((r) => r.phase === "catching up");
        const all = (phase: string) => {
          const lat = pooled.get(phase) ?? [];
          return { n: lat.length, p50: ms(quantile(lat, 0.5)), p99: ms(quantile(lat, 0.99)) };
        };
        const idle = all("idle");
        const worstP99 = Math.max(...catching.map((r) => r.p99));
        const result = {
          blocks: head + 1,
          history_blocks_quiet: history,
          transactions: node.transactions,
          batch_size: batchSize,
          batch_transactions: batchTransactions,
          concurrency,
          pacing: requests !== undefined,
          time_to_head_block_s: Number((firstHeadMs / 1000).toFixed(2)),
          history_blocks_per_s_api_idle: Math.round(quietRate),
          history_blocks_per_s_beside_head: Math.round(historyRate),
          in_order_blocks_per_s: Math.round(inOrderRate),
          in_order_projected_time_to_head_s: Math.round((head + 1) / inOrderRate),
          api_rounds: rounds,
          api_pooled: { catching_up: all("catching up"), idle },
          p99_pooled_catching_up_over_idle: Number((all("catching up").p99 / idle.p99).toFixed(2)),
          p99_worst_round_catching_up_over_idle: Number((worstP99 / idle.p99).toFixed(2)),
          goal: "head within a minute; address transactions p99 during catch-up within 2x of idle",
          met: firstHeadMs < 60_000 && worstP99 <= 2 * idle.p99,
        };
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      } finally {
        await hf.drop();
      }
    } finally {
      node.child.kill();
    }
  }

  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
