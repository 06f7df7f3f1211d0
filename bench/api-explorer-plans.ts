import type { Db, QueryOptions } from "../src/db/db.js";
import { BUSY, DB_NAME, openDataSet } from "./api-explorer-data.js";
import { EXPLORER_PAGES } from "./api-explorer-pages.js";
import { replaceBenchmarkSection } from "./benchmarks-doc.js";

/**
 * bench:api, plans part (`npm run bench:api -- plans`): the query plan PostgreSQL runs for each page of the explorer
 * benchmark (first page and the deep one) on its 10,000,000-transaction data set. Each statement the page's query
 * function sends is captured and run again under `EXPLAIN (ANALYZE, FORMAT JSON)`: the scans it uses, the rows it
 * reads, its time, and whether any table is read sequentially (none may be).
 */
type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
};

export type PlanRow = {
  page: string;
  depth: "first" | "deep";
  statements: number;
  /** Scans of the data set's large tables (over BIG rows), with the rows each returned over its loops. */
  scans: string[];
  /** How many scans of small tables (lookups of address facts, tokens, the verified store, head state). */
  smallScans: number;
  /** Sequential scans of large tables (none may be) and of small ones (the planner's choice under BIG rows). */
  seqScans: string[];
  smallSeqScans: string[];
  executionMs: number;
  planningMs: number;
};

/** A table of fewer rows than this is "small": the planner may read it whole, as it should. */
const BIG = 10_000;

/** A Db that records what the query function sends and runs it. */
function recording(db: Db, sent: Array<{ sql: string; params: readonly unknown[] }>): Db {
  return {
    kind: db.kind,
    query: <T>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) => {
      sent.push({ sql, params });
      return db.query<T>(sql, params, options);
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction(fn),
    close: () => db.close(),
  };
}

function walk(n: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(n);
  for (const c of n.Plans ?? []) walk(c, out);
  return out;
}

export async function runPlans(log: (m: string) => void = console.log): Promise<PlanRow[]> {
  const { db } = await openDataSet(log);
  try {
    const sizes = new Map(
      (
        await db.query<{ t: string; n: number }>(
          "select relname as t, reltuples::float8 as n from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace",
        )
      ).map((r) => [r.t, Number(r.n)]),
    );
    const big = (t: string) => (sizes.get(t) ?? 0) >= BIG;
    const rows: PlanRow[] = [];
    for (const p of EXPLORER_PAGES) {
      const deep = new URLSearchParams(await p.deepCursor(db));
      for (const [depth, q] of [
        ["first", new URLSearchParams()],
        ["deep", deep],
      ] as const) {
        const sent: Array<{ sql: string; params: readonly unknown[] }> = [];
        await p.baseline(recording(db, sent), q);
        const row: PlanRow = {
          page: p.id,
          depth,
          statements: sent.length,
          scans: [],
          smallScans: 0,
          seqScans: [],
          smallSeqScans: [],
          executionMs: 0,
          planningMs: 0,
        };
        for (const s of sent) {
          const [r] = await db.query<{ "QUERY PLAN": Array<Record<string, unknown>> }>(
            `explain (analyze, format json) ${s.sql}`,
            s.params,
          );
          const top = r!["QUERY PLAN"][0]!;
          row.executionMs += Number(top["Execution Time"]);
          row.planningMs += Number(top["Planning Time"]);
          for (const n of walk(top.Plan as PlanNode)) {
            const table = n["Relation Name"];
            if (!table) continue;
            const seq = n["Node Type"] === "Seq Scan";
            if (!big(table)) {
              row.smallScans += 1;
              if (seq && !row.smallSeqScans.includes(table)) row.smallSeqScans.push(table);
              continue;
            }
            const rowsRead = (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 1);
            row.scans.push(
              `${n["Node Type"]} on ${table}${n["Index Name"] ? ` (${n["Index Name"]})` : ""}: ${rowsRead} rows`,
            );
            if (seq) row.seqScans.push(table);
          }
        }
        log(`plans: ${p.id} ${depth}: ${row.scans.join("; ")}`);
        rows.push(row);
      }
    }
    return rows;
  } finally {
    await db.close();
  }
}

/** Replaces the "## Explorer API: query plans" section of docs/benchmarks.md. */
export function writePlansSection(rows: PlanRow[], machine: string): void {
  const table = [
    "| Page | Depth | Scans of large tables (rows returned) | small-table scans | seq scans of large tables | execution ms | planning ms |",
    "|---|---|---|---:|---|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.depth} | ${r.scans.join("<br>")} | ${r.smallScans} | ${r.seqScans.length ? r.seqScans.join(", ") : "none"} | ${r.executionMs.toFixed(1)} | ${r.planningMs.toFixed(1)} |`,
    ),
  ].join("\n");
  const section = `## Explorer API: query plans

\`npm run bench:api -- plans\` (\`bench/api-explorer-plans.ts\`): each page of the explorer benchmark ("Explorer API: address pages"), first and
deep page (the busy address \`${BUSY}\`), on its data set \`${DB_NAME}\`. The statement the page's query function
sends is captured and run again under \`EXPLAIN (ANALYZE, FORMAT JSON)\`; the table lists every scan of a large
table (${BIG.toLocaleString("en-US")} rows or more: here blocks, transactions, token_transfers) in its plan, with the rows it returned over all its
loops, and counts the lookups in small tables. ${machine}.
${rows.some((r) => r.seqScans.length) ? "**A page reads a large table sequentially: see the table.**" : "No page reads a large table sequentially: every filter and sort is served by an index, and the deep page reads as many rows as the first."}
${(() => {
  const small = [...new Set(rows.flatMap((r) => r.smallSeqScans))];
  return small.length
    ? `The planner reads these small tables whole, as it should at their size in this data set: ${small.join(", ")} (\`internal_transactions\` is empty here; on an indexed chain its probes are primary-key lookups, as \`test/explorer/list-filter-plans.test.ts\` checks).`
    : "";
})()}

${table}
`;
  replaceBenchmarkSection("## Explorer API: query plans", section);
}
