/**
 * Indexer benchmark: builds a chain of mixed activity on anvil, then measures in the same run
 *   (a) the raw rate of fetching the same data over the same RPC with the same batching, no writes, and
 *   (b) the indexer's rate into PostgreSQL (every stage enabled and the token workers beside it, as `lookout start`
 *       runs them).
 * Usage: npm run bench:index [-- --blocks 5000 --tx-per-block 3 --chain standard]
 *   --busy [--transactions 1000000]: a busy chain served from memory instead of anvil, against the raw fetch and a
 *   COPY of the same rows (bench/busy-bench.ts); --keep leaves the indexed database for EXPLAIN (its name is logged).
 *   --chain prague|optimism: the chains of bench:index-types instead (the same activity mined one block at a time,
 *   plus set-code and blob transactions, or an OP deposit per block; three transactions per block).
 * Needs the PostgreSQL of BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { startTokenWorkBesideIndexer } from "../src/app/roles/token-work.js";
import { startAnvil } from "../src/chain/anvil.js";
import { detectCapabilities } from "../src/chain/capabilities.js";
import { createRpc } from "../src/chain/rpc.js";
import { loadConfig } from "../src/config/config.js";
import { migrate } from "../src/db/migrate.js";
import { createPostgresDb } from "../src/db/pg.js";
import { EventBus } from "../src/events/bus.js";
import { Indexer } from "../src/indexer/pipeline/runtime.js";
import { indexerStages } from "../src/indexer/stages/index.js";
import { createLogger } from "../src/util/logger.js";
import { deployActivityContracts, mineActivity, rpc } from "../test/helpers/activity.js";
import { runBusyBench } from "./busy-bench.js";
import { rawFetch } from "./raw-fetch.js";
import { buildChain, type ChainKind } from "./type-chains.js";

const { values } = parseArgs({
  options: {
    blocks: { type: "string", default: "5000" },
    "tx-per-block": { type: "string", default: "3" },
    "batch-size": { type: "string", default: "100" },
    // --busy: batches sized by rows (INDEX_BATCH_TRANSACTIONS), at most --batch-size blocks.
    "batch-transactions": { type: "string" },
    // --busy: committed batches per trailing write (the indexer's trailBatches).
    "trail-batches": { type: "string" },
    concurrency: { type: "string", default: "4" },
    // --busy: JSON-RPC calls per HTTP request (RPC_BATCH_SIZE).
    "rpc-batch": { type: "string", default: "100" },
    chain: { type: "string" },
    busy: { type: "boolean", default: false },
    statements: { type: "boolean", default: false },
    "serial-writes": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    transactions: { type: "string", default: "1000000" },
  },
});
const blocks = Number(values.blocks);
const batchSize = Number(values["batch-size"]);
const concurrency = Number(values.concurrency);
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const log = (s: string) => process.stderr.write(`${s}\n`);

async function main() {
  if (values.busy) {
    const result = await runBusyBench({
      transactions: Number(values.transactions),
      batchSize,
      concurrency,
      rpcBatchSize: Number(values["rpc-batch"]),
      adminUrl,
      statements: values.statements,
      serialWrites: values["serial-writes"],
      keep: values.keep,
      ...(values["batch-transactions"] ? { batchTransactions: Number(values["batch-transactions"]) } : {}),
      ...(values["trail-batches"] ? { trailBatches: Number(values["trail-batches"]) } : {}),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  // The chain is built before indexing starts, so anvil must keep the state of every block.
  const t0 = performance.now();
  const { anvil, head } = values.chain
    ? await buildChain(values.chain as ChainKind, blocks)
    : await startAnvil({ keepHistory: true }).then(async (anvil) => {
        log(`building a chain of ${blocks} blocks of mixed activity on ${anvil.url} ...`);
        try {
          const k = await deployActivityContracts(anvil.url);
          await mineActivity(anvil.url, k, { blocks, txPerBlock: Number(values["tx-per-block"]), seed: 42 });
          return { anvil, head: Number(await rpc<string>(anvil.url, "eth_blockNumber")) };
        } catch (e) {
          await anvil.stop();
          throw e;
        }
      });
  try {
    const txCount = (
      await Promise.all(
        Array.from({ length: head + 1 }, (_, n) =>
          rpc<string>(anvil.url, "eth_getBlockTransactionCountByNumber", [`0x${n.toString(16)}`]),
        ),
      )
    ).reduce((s, x) => s + Number(x), 0);
    log(
      `chain built: ${head + 1} blocks, ${txCount} transactions in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const config = loadConfig({ RPC_URL: anvil.url, DATABASE_URL: adminUrl });
    const logger = createLogger("warn");
    const makeRpc = () =>
      createRpc({ url: anvil.url, batchSize: 100, timeoutMs: 30_000, retries: 5, concurrency });
    const caps = await detectCapabilities(makeRpc(), { traces: "auto" });
    // Every stage; no NOTIFY (nobody listens in this run).
    const stages = (bus = new EventBus()) => indexerStages({ logger, bus, notify: false });

    // (a) raw fetch: the same ranges, calls and concurrency window as the indexer's catch-up, no writes.
    const rawRun = async () => {
      const start = performance.now();
      await rawFetch({ rpc: makeRpc(), caps, extensions: stages(), head, batchSize, concurrency });
      return (head + 1) / ((performance.now() - start) / 1000);
    };

    // (b) the indexer into a fresh PostgreSQL database.
    const indexRun = async () => {
      const name = `lookout_bench_index_${Date.now()}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const u = new URL(adminUrl);
      u.pathname = `/${name}`;
      const db = await createPostgresDb(u.toString());
      try {
        await migrate(db);
        const bus = new EventBus();
        const rpc = makeRpc();
        const tokens = startTokenWorkBesideIndexer({ config, db, logger, bus, rpc, indexing: () => true });
        const indexer = new Indexer({
          db,
          rpc,
          caps,
          logger,
          extensions: stages(bus),
          options: {
            startBlock: 0,
            reorgDepth: 128,
            batchSize,
            fetchConcurrency: concurrency,
            pollIntervalMs: 100,
          },
        });
        await indexer.init();
        const start = performance.now();
        while (!indexer.progress.caughtUp || (indexer.progress.height ?? -1) < head) await indexer.step();
        const rate = (head + 1) / ((performance.now() - start) / 1000);
        await tokens.stop();
        await indexer.stopExtensions();
        return rate;
      } finally {
        await db.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    };

    const rawA = await rawRun();
    log(`(a) raw fetch: ${rawA.toFixed(0)} blocks/s`);
    const indexed = await indexRun();
    log(`(b) indexer into PostgreSQL: ${indexed.toFixed(0)} blocks/s`);
    const rawB = await rawRun();
    log(`(a) raw fetch, again: ${rawB.toFixed(0)} blocks/s`);
    const raw = (rawA + rawB) / 2;
    const result = {
      chain: values.chain ?? "standard",
      chain_type: caps.chainType,
      blocks: head + 1,
      transactions: txCount,
      batch_size: batchSize,
      concurrency,
      traces: caps.traces,
      prestate_diff: caps.prestateDiff,
      extensions: stages().map((x) => x.id),
      raw_fetch_blocks_per_s: Math.round(raw),
      indexer_blocks_per_s: Math.round(indexed),
      ratio: Number((indexed / raw).toFixed(3)),
      goal: "indexer >= 50% of raw fetch",
      met: indexed / raw >= 0.5,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await anvil.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
