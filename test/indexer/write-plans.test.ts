import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectCapabilities } from "../../src/chain/capabilities.js";
import { createRpc } from "../../src/chain/rpc.js";
import type { Db, Queryable } from "../../src/db/db.js";
import { EventBus } from "../../src/events/bus.js";
import { fetchForStages } from "../../src/indexer/pipeline/extension.js";
import { indexerStages } from "../../src/indexer/stages/index.js";
import { createLogger } from "../../src/util/logger.js";
import { type ActivityContracts, deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb, wrapTransactions } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke } from "../helpers/tokens.js";

/**
 * Issue 35 part 2: no write statement of any stage may have a plan whose cost grows faster than the batch as the
 * tables grow. The statements are captured from a real batch of every stage (the Db the stages write through is
 * wrapped), on tables of at least a million analysed rows, and each is EXPLAINed with its own parameters right
 * before it runs (EXPLAIN without ANALYZE plans, it does not execute). A plan fails on
 * - a nested loop whose repeated (inner) side scans a CTE or a function of more than a handful of rows (the
 *   balances statement once rebuilt a hash of a 13,000-row CTE for every written row),
 * - a sequential scan of a table of 100,000 rows or more,
 * - a read of such a table through a BRIN index: its page ranges are summarised only by VACUUM, so each such read
 *   also reads whole everything written since the last one (a tail that grows with the table; on PGlite, which
 *   never vacuums, the whole table). The batch's coin balance changes were read that way until migration 182.
 * PostgreSQL only: PGlite has no planner statistics worth the name at this size, and the plans are PostgreSQL's.
 */

const LARGE = 1_000_000;
/** A sequential scan of a table this big is a scan of the history, not of the batch. */
const BIG_TABLE = 100_000;
/** The tables that grow with the chain, each filled to LARGE rows. */
const GROWING = [
  "blocks",
  "transactions",
  "logs",
  "contract_creations",
  "token_transfers",
  "coin_balance_changes",
  "address_coin_balances",
  "address_counters",
  "addresses",
  "internal_transactions",
  "token_holdings",
  "token_fungible_balances",
  "token_erc721_balances",
];
/** Synthetic rows live far above the indexed blocks: the batch's range reads never meet them. */
const FAR = 1_000_000_000;

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "CTE Name"?: string;
  "Function Name"?: string;
  "Index Name"?: string;
  "Plan Rows": number;
  "Parent Relationship"?: string;
  Plans?: PlanNode[];
};

/** `busy`: planned with a busy batch's array parameters (`busyParams`). */
type Captured = { sql: string; plan: PlanNode; busy: boolean };

/** The problems of one plan (empty when it is linear in the batch). */
function problems(plan: PlanNode, sizes: Map<string, number>, brin: Map<string, string>): string[] {
  const out: string[] = [];
  const rescanned = (n: PlanNode, path: string) => {
    if (n["Node Type"] === "CTE Scan") out.push(`${path}: nested loop rescans CTE ${n["CTE Name"]}`);
    if (n["Node Type"] === "Function Scan" && n["Plan Rows"] > 10)
      out.push(`${path}: nested loop rescans function ${n["Function Name"]} (${n["Plan Rows"]} rows)`);
    // An index lookup per outer row is what a nested loop is for; below it nothing is rescanned wholesale.
    if (n["Node Type"].startsWith("Index") || n["Node Type"].startsWith("Bitmap")) return;
    for (const c of n.Plans ?? []) rescanned(c, path);
  };
  const walk = (n: PlanNode, path: string) => {
    const here = `${path}/${n["Node Type"]}${n["Relation Name"] ? `(${n["Relation Name"]})` : ""}`;
    if (n["Node Type"] === "Seq Scan" && (sizes.get(n["Relation Name"] ?? "") ?? 0) >= BIG_TABLE)
      out.push(`${here}: sequential scan of ${n["Relation Name"]}`);
    const brinOf = brin.get(n["Index Name"] ?? "");
    if (brinOf !== undefined && (sizes.get(brinOf) ?? 0) >= BIG_TABLE)
      out.push(`${here}: ${brinOf} read through BRIN index ${n["Index Name"]}`);
    if (n["Node Type"] === "Nested Loop") {
      const inner = (n.Plans ?? []).find((c) => c["Parent Relationship"] === "Inner");
      if (inner) rescanned(inner, here);
    }
    for (const c of n.Plans ?? []) walk(c, here);
  };
  walk(plan, "");
  return out;
}

const EXPLAINABLE = /^\s*(with|select|insert|update|delete)\b/i;

/** A busy chain's batch: thousands of keys per array parameter (the test's own batches have tens). */
const BUSY_KEYS = 3_000;

/**
 * The parameters as a busy batch would send them: every non-empty array repeated up to BUSY_KEYS elements. The
 * planner sees an array parameter's length (`unnest` of a constant), and a batch of thousands of keys can tip a
 * join of the keys to a table from index probes to a hash of the whole table, which the test's small batch never
 * shows (the ERC-1155 zero-row delete did, at a million indexed transactions: 32 ms a batch and growing).
 */
const busyParams = (params: readonly unknown[] | undefined) =>
  params?.map((p) =>
    Array.isArray(p) && p.length > 0 ? Array.from({ length: BUSY_KEYS }, (_, i) => p[i % p.length]) : p,
  );

/**
 * Wraps the Db the indexer writes through: every statement of a batch transaction is EXPLAINed before it runs,
 * with its own parameters and, when it has arrays, with a busy batch's (`busyParams`).
 */
function explaining(db: Db, seen: Captured[], on: { value: boolean }): Db {
  const wrap = (tx: Queryable): Queryable => ({
    async query(sql, params, options) {
      if (on.value && EXPLAINABLE.test(sql)) {
        const variants = params?.some(Array.isArray) ? [params, busyParams(params)] : [params];
        for (const p of variants) {
          const [row] = await tx.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
            `explain (format json) ${sql}`,
            p,
          );
          seen.push({ sql, plan: row!["QUERY PLAN"][0]!.Plan, busy: p !== params });
        }
      }
      return tx.query(sql, params, options);
    },
    exec: (sql) => tx.exec(sql),
  });
  return wrapTransactions(db, wrap);
}

/**
 * Fills a table to LARGE rows by copying its indexed rows k times: block numbers moved far above the chain,
 * every 20- or 32-byte value (addresses, hashes, topics) hashed with k, so keys stay unique and the rows keep
 * the shape of real ones (the same address repeats across its table as it did in the copied rows).
 */
async function multiply(db: Queryable, table: string): Promise<void> {
  const [{ n }] = (await db.query<{ n: number }>(`select count(*)::int8 as n from ${table}`)) as [
    { n: number },
  ];
  if (n === 0 || n >= LARGE) return;
  const columns = await db.query<{ name: string; type: string }>(
    `select column_name as name, data_type as type from information_schema.columns
     where table_schema = current_schema() and table_name = $1 and is_generated = 'NEVER'
     order by ordinal_position`,
    [table],
  );
  const value = ({ name, type }: { name: string; type: string }) => {
    const q = `"${name}"`;
    if (["block_number", "number", "first_block"].includes(name)) return `${q} + ${FAR} + k::int8 * 1000000`;
    if (type === "bytea")
      return `case when length(${q}) in (20, 32) then substr(sha256(${q} || int4send(k)), 1, length(${q})) else ${q} end`;
    return q;
  };
  const k = Math.ceil(LARGE / n);
  // Secondary indexes are built once after the load (a sort each), not row by row; the keys stay for the conflict.
  const indexes = await db.query<{ name: string; def: string }>(
    `select i.indexname as name, i.indexdef as def from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = $1
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [table],
  );
  for (const i of indexes) await db.query(`drop index "${i.name}"`);
  await db.query(
    `insert into ${table} (${columns.map((c) => `"${c.name}"`).join(", ")})
     select ${columns.map(value).join(", ")} from ${table}, generate_series(1, ${k}) as k
     on conflict do nothing`,
  );
  for (const i of indexes) await db.query(i.def);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "write statements stay linear on million-row tables (PostgreSQL; skipped without TEST_DATABASE_URL)",
  () => {
    let chain: TestChain;
    let t: TestDb;
    let k: ActivityContracts;
    let nft: { erc721: Address; erc1155: Address; holders: Address[] };
    /** ERC-721 and ERC-1155 moves, so token_holdings grows and the batch probes the id holders (the activity has none). */
    async function moveNfts(first: bigint) {
      const url = chain.anvil.url;
      const [a, b, c] = nft.holders as [Address, Address, Address];
      // The activity mines its blocks itself (automine off); these go one a block.
      await rpc(url, "evm_setAutomine", [true]);
      await invoke(url, a, nft.erc721, "TestNft", "mintMany", [a, first, 4n]);
      await invoke(url, a, nft.erc721, "TestNft", "transferFrom", [a, b, first]);
      await invoke(url, a, nft.erc1155, "Test1155", "mintBatch", [a, [first, first + 1n], [5n, 3n]]);
      await invoke(url, a, nft.erc1155, "Test1155", "safeTransferFrom", [a, c, first, 5n, "0x"]);
      await rpc(url, "evm_setAutomine", [false]);
    }
    beforeAll(async () => {
      chain = await startTestChain();
      t = await createTestDb();
      const url = chain.anvil.url;
      k = await deployActivityContracts(url);
      await mineActivity(url, k, { blocks: 12, txPerBlock: 6, seed: 5 });
      const holders = chain.accounts.slice(0, 3).map((x) => x.address.toLowerCase() as Address);
      await rpc(url, "evm_setAutomine", [true]);
      nft = {
        erc721: await deploy(url, holders[0]!, "TestNft", ["Things", "THG", "https://meta.example/"]),
        erc1155: await deploy(url, holders[0]!, "Test1155", ["https://meta.example/{id}.json"]),
        holders,
      };
      await moveNfts(1n);
    }, 300_000);
    afterAll(async () => {
      await t?.drop();
      await chain?.stop();
    });

    it("EXPLAINs every statement of a batch of every stage: no rescanned CTE or function, no large seq scan", async () => {
      const url = chain.anvil.url;
      const seen: Captured[] = [];
      const on = { value: false };
      const stages = indexerStages({
        logger: createLogger("silent"),
        bus: new EventBus(),
        notify: true,
      }).slice(1);
      const indexer = await createTestIndexer(explaining(t.db, seen, on), url, {
        batchSize: 100,
        extensions: stages,
      });
      await indexToHead(indexer, t.db, url);

      await t.db.transaction(async (tx) => {
        await tx.query("set local maintenance_work_mem = '256MB'");
        await tx.query("set local synchronous_commit = off");
        for (const table of GROWING) {
          const s = performance.now();
          await multiply(tx, table);
          console.log(`write-plans: ${table} filled in ${((performance.now() - s) / 1000).toFixed(0)} s`);
        }
      });
      await t.db.exec(`analyze ${GROWING.join(", ")}`);
      const sizes = new Map(
        (
          await t.db.query<{ name: string; rows: number }>(
            "select relname as name, reltuples::int8 as rows from pg_class where relkind = 'r'",
          )
        ).map((r) => [r.name, Number(r.rows)]),
      );
      // BRIN index → its table.
      const brin = new Map(
        (
          await t.db.query<{ index: string; table: string }>(
            `select i.relname as index, r.relname as table from pg_index x
             join pg_class i on i.oid = x.indexrelid join pg_class r on r.oid = x.indrelid
             join pg_am a on a.oid = i.relam where a.amname = 'brin'`,
          )
        ).map((r) => [r.index, r.table]),
      );
      for (const table of [
        "transactions",
        "logs",
        "coin_balance_changes",
        "address_counters",
        "addresses",
        "token_holdings",
      ])
        expect(sizes.get(table), table).toBeGreaterThanOrEqual(LARGE * 0.9);

      // One more batch of everything, captured.
      const [before] = await t.db.query<{ last_block: number }>("select last_block from indexer_state");
      await mineActivity(url, k, { blocks: 12, txPerBlock: 6, seed: 9 });
      await moveNfts(100n);
      on.value = true;
      await indexToHead(indexer, t.db, url);
      const head = Number(await rpc<string>(url, "eth_blockNumber"));
      // And the trailing stages' write of the same blocks from the stored rows, as catch-up writes several
      // committed batches at once, and from what the batches carry (rolled back: the batch wrote them already).
      const from = before!.last_block + 1;
      const r = createRpc({ url, batchSize: 100, timeoutMs: 60_000, retries: 3 });
      const caps = await detectCapabilities(r, { traces: "auto" });
      const fetched = await Promise.all(
        Array.from({ length: head - from + 1 }, (_, i) => fetchForStages(r, from + i, caps, stages)),
      );
      const rolledBack = new Error("rolled back");
      await explaining(t.db, seen, on)
        .transaction(async (tx) => {
          for (const x of stages) await x.trailing?.writeStored(tx, from, head);
          for (const x of stages) {
            const carry = x.trailing?.carry;
            if (carry) await carry.write(tx, from, head, carry.fold(undefined, fetched));
          }
          throw rolledBack;
        })
        .catch((e) => {
          if (e !== rolledBack) throw e;
        });
      on.value = false;
      const [tip] = await t.db.query<{ last_block: number }>("select last_block from indexer_state");
      expect(tip?.last_block).toBe(head);

      const writes = seen.filter((s) => /\b(insert|update|delete)\b/i.test(s.sql));
      expect(writes.length).toBeGreaterThan(10);
      const failures = seen.flatMap((s) =>
        problems(s.plan, sizes, brin).map(
          (p) => `${p}\n    in: ${s.busy ? "(busy batch) " : ""}${s.sql.replace(/\s+/g, " ").slice(0, 300)}`,
        ),
      );
      console.log(
        `write-plans: ${seen.length} plans (${seen.filter((s) => s.busy).length} with a ` +
          `busy batch's arrays; ${writes.length} of writes), ` +
          `tables: ${GROWING.map((g) => `${g} ${sizes.get(g)}`).join(", ")}`,
      );
      expect(failures, failures.join("\n")).toEqual([]);
    }, 2_400_000);
  },
);
