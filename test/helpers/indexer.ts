import type { Hex } from "viem";
import { detectCapabilities } from "../../src/chain/capabilities.js";
import type { ChainTypeSetting } from "../../src/chain/chain-type.js";
import { createRpc } from "../../src/chain/rpc.js";
import { fromBytea } from "../../src/db/bytes.js";
import type { Db, Queryable } from "../../src/db/db.js";
import type { IndexerExtension } from "../../src/indexer/pipeline/extension.js";
import { Indexer, type IndexerOptions } from "../../src/indexer/pipeline/runtime.js";
import { coreRowsExtension } from "../../src/indexer/stages/core/extension.js";
import { createLogger } from "../../src/util/logger.js";
import type { RequestActivity } from "../../src/util/request-activity.js";
import { rpc } from "./activity.js";

export async function createTestIndexer(
  db: Db,
  url: string,
  o: Partial<IndexerOptions> & {
    extensions?: IndexerExtension[];
    /** The whole stage list, core included (`indexerStages`), in place of core + `extensions`. */
    stages?: IndexerExtension[];
    traces?: "auto" | "off";
    chainType?: ChainTypeSetting;
    onBatch?: (blocks: number, writeMs: number) => void;
    /** The API's requests in flight, which history gives way to (IndexerDeps.pacing). */
    pacing?: RequestActivity;
  } = {},
): Promise<Indexer> {
  // A loaded 2-core machine can take anvil past 10 s on a traced batch: a generous deadline, not a flaky failure.
  const r = createRpc({ url, batchSize: 100, timeoutMs: 60_000, retries: 3, concurrency: 4 });
  const caps = await detectCapabilities(r, { traces: o.traces ?? "auto", chainType: o.chainType ?? "auto" });
  const indexer = new Indexer({
    db,
    rpc: r,
    caps,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
    // The core rows always, then the stages a test asks for.
    extensions: o.stages ?? [coreRowsExtension(), ...(o.extensions ?? [])],
    ...(o.onBatch ? { onBatch: o.onBatch } : {}),
    ...(o.pacing ? { pacing: o.pacing } : {}),
    options: { startBlock: 0, reorgDepth: 128, batchSize: 20, fetchConcurrency: 3, pollIntervalMs: 50, ...o },
  });
  await indexer.init();
  return indexer;
}

/** Steps the indexer until its stored tip is the node's head block (same number and hash). */
export async function indexToHead(indexer: Indexer, db: Db, url: string): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    await indexer.step();
    const head = await rpc<{ number: string; hash: string }>(url, "eth_getBlockByNumber", ["latest", false]);
    const [tip] = await db.query<{ last_block: number; last_hash: Uint8Array }>(
      "select last_block, last_hash from indexer_state",
    );
    if (tip && tip.last_block === Number(head.number) && fromBytea(tip.last_hash) === head.hash) return;
  }
  throw new Error("indexer did not reach the head");
}

/** Every row of the given tables, in key order, as comparable JSON strings. */
export async function dumpTables(db: Queryable, tables: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const rows = await db.query(`select * from ${t}`);
    out[t] = rows
      .map((r) =>
        JSON.stringify(r, (_k, v) =>
          v instanceof Uint8Array || (v && v.type === "Buffer")
            ? fromBytea(v instanceof Uint8Array ? v : Buffer.from(v.data))
            : v instanceof Date
              ? v.toISOString()
              : v,
        ),
      )
      .sort();
  }
  return out;
}

export const CORE_TABLES = ["blocks", "transactions", "logs", "contract_creations"];

export type NodeBlock = { number: Hex; hash: Hex; transactions: Hex[] };

/** Every block of the node's canonical chain, 0 to head (transaction hashes only). */
export async function nodeBlocks(url: string): Promise<NodeBlock[]> {
  const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
  return Promise.all(
    Array.from({ length: head + 1 }, (_, n) =>
      rpc<NodeBlock>(url, "eth_getBlockByNumber", [`0x${n.toString(16)}`, false]),
    ),
  );
}

/** The stored blocks and transaction hashes, in chain order. */
export async function storedBlocks(
  db: Db,
): Promise<{ blocks: Array<{ number: number; hash: Hex }>; txs: Hex[] }> {
  const blocks = await db.query<{ number: number; hash: Uint8Array }>(
    "select number, hash from blocks order by number",
  );
  const txs = await db.query<{ hash: Uint8Array }>(
    "select hash from transactions order by block_number, index",
  );
  return {
    blocks: blocks.map((b) => ({ number: b.number, hash: fromBytea(b.hash) })),
    txs: txs.map((x) => fromBytea(x.hash)),
  };
}
