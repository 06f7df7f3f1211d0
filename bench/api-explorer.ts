import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { buildApp } from "../src/app/http-app.js";
import type { Db } from "../src/db/db.js";
import type { ExplorerDeps } from "../src/explorer/deps.js";
import { createVerifiedContractLookup } from "../src/verifier/store/verified-contracts.js";
import { BUSY, type DataSet, DB_NAME, openDataSet, QUIET } from "./api-explorer-data.js";
import { EXPLORER_PAGES, type ExplorerPage } from "./api-explorer-pages.js";
import { interleavedRounds, median, summarise } from "./api-load.js";
import { replaceBenchmarkSection } from "./benchmarks-doc.js";

/**
 * bench:api, explorer part (`npm run bench:api -- explorer`): the busy address's transactions (newest first and
 * by value) and token transfers, the chain's transactions with token transfers (`type=token_transfer`), first page
 * and a deep page (90 % into its list). Lookout against two bare node:http servers: "service" runs what the route's
 * handler runs after Fastify (the same parameters to the same service call: the same JSON, byte for byte, checked),
 * "statement" only the page's SQL statement on the same driver, serialising the raw rows. And the counters endpoint
 * of the busy address against an address with one transaction (O(1): equal). Data: `EXPLORER_BENCH_TXS` transactions
 * (default 10,000,000) generated in SQL (`api-explorer-data.ts`) into database `lookout_bench_explorer_<n>`, kept
 * between runs.
 */
const ROUNDS = Number(process.env.EXPLORER_BENCH_ROUNDS ?? 5);
const MEASURE_MS = 3000;
const CONCURRENCY = 8;

/** The bare servers: `/service/<page>` the route's service call, `/statement/<page>` the page's SQL statement. */
function baselineServer(deps: ExplorerDeps, pages: readonly ExplorerPage[]): Server {
  // The raw value (`this[k]`): JSON.stringify hands the replacer a Buffer already turned into {type, data} by its
  // toJSON, which would write every bytea as an array of numbers.
  const hex = function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return raw instanceof Uint8Array ? `0x${Buffer.from(raw).toString("hex")}` : v;
  };
  return createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const [, kind, id] = u.pathname.split("/");
    const page = pages.find((p) => p.id === id);
    if (!page || (kind !== "service" && kind !== "statement")) {
      res.writeHead(404).end();
      return;
    }
    let body: string;
    if (kind === "service") body = JSON.stringify(await page.service(deps, u.searchParams));
    else {
      const rows = await page.baseline(deps.db as Db, u.searchParams);
      body = JSON.stringify({ items: rows.slice(0, 50), next: rows.length > 50 }, hex);
    }
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(body);
  });
}

const TARGETS = ["Lookout", "service", "statement"] as const;
type Target = (typeof TARGETS)[number];

type Combo = { page: string; depth: "first" | "deep"; target: Target; url: string };

export type ExplorerBenchResult = {
  data: DataSet;
  rounds: number;
  load: { before: number; after: number };
  rows: Array<
    Omit<Combo, "url"> & { rps: number; p50: number; p99: number; errors: number; cpuPerRequestMs: number }
  >;
  pages: Array<{
    page: string;
    /** Lookout's throughput over the service server's (same JSON), first and deep page. */
    throughputFirst: number;
    throughputDeep: number;
    /** Lookout's throughput over the statement server's (raw rows). */
    statementFirst: number;
    statementDeep: number;
    deepOverFirst: number;
    baselineDeepOverFirst: number;
    /** The bench process's CPU per request (the server's cost, whatever the other processes do): Lookout/service. */
    cpuFirst: number;
    cpuDeep: number;
    /** Bytes of the first page's body: Lookout's and the service server's (Blockscout's shape), the statement's. */
    bytes: { lookout: number; service: number; statement: number };
    /** Whether Lookout's and the service server's bodies are the same bytes, first and deep page. */
    sameBytes: boolean;
  }>;
  missing: string[];
  counters: { busy: number; quiet: number; ratio: number } | null;
};

export async function runExplorerBench(log: (m: string) => void = console.log): Promise<ExplorerBenchResult> {
  const { db, data } = await openDataSet(log);
  // The verified-contract store plugged in as `lookout start` plugs it (names come with the page's statement).
  const explorer = { verified: createVerifiedContractLookup(db) };
  const app = await buildApp({ db, config: { bodyLimit: 1e6 }, logger: false, explorer });
  // What buildApp hands the routes (no public tags or gateways are configured on either side).
  const deps: ExplorerDeps = { db, verified: explorer.verified };
  const base = baselineServer(deps, EXPLORER_PAGES);
  try {
    await app.listen({ port: 0, host: "127.0.0.1" });
    await new Promise<void>((ok) => base.listen(0, "127.0.0.1", ok));
    const lookout = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v2`;
    const baseline = `http://127.0.0.1:${(base.address() as AddressInfo).port}`;
    const combos: Combo[] = [];
    const missing: string[] = [];
    const bytes = new Map<string, { lookout: number; service: number; statement: number }>();
    const same = new Map<string, boolean>();
    const body = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
    for (const p of EXPLORER_PAGES) {
      const first = `${lookout}${p.path(BUSY)}`;
      const probe = await fetch(first);
      if (probe.status !== 200) {
        missing.push(`${p.id} (${p.path(BUSY)}: HTTP ${probe.status})`);
        continue;
      }
      const deep = new URLSearchParams(await p.deepCursor(db)).toString();
      const urls: Record<Target, Record<"first" | "deep", string>> = {
        Lookout: { first, deep: `${first}${first.includes("?") ? "&" : "?"}${deep}` },
        service: { first: `${baseline}/service/${p.id}`, deep: `${baseline}/service/${p.id}?${deep}` },
        statement: { first: `${baseline}/statement/${p.id}`, deep: `${baseline}/statement/${p.id}?${deep}` },
      };
      const lookoutFirst = Buffer.from(await probe.arrayBuffer());
      const serviceFirst = await body(urls.service.first);
      bytes.set(p.id, {
        lookout: lookoutFirst.byteLength,
        service: serviceFirst.byteLength,
        statement: (await body(urls.statement.first)).byteLength,
      });
      same.set(
        p.id,
        lookoutFirst.equals(serviceFirst) &&
          (await body(urls.Lookout.deep)).equals(await body(urls.service.deep)),
      );
      for (const depth of ["first", "deep"] as const)
        for (const target of TARGETS) combos.push({ page: p.id, depth, target, url: urls[target][depth] });
    }
    const counterUrl = (a: string) => `${lookout}/addresses/${a}/counters`;
    const hasCounters = (await fetch(counterUrl(BUSY))).status === 200;
    if (!hasCounters) missing.push("counters (/addresses/{h}/counters)");
    const extra = hasCounters
      ? [
          { page: "counters", depth: "first", target: "Lookout", url: counterUrl(BUSY) } as const,
          { page: "counters", depth: "deep", target: "Lookout", url: counterUrl(QUIET) } as const,
        ]
      : [];
    const all: Combo[] = [...combos, ...extra];
    const loadBefore = loadavg()[0]!;
    const runs = await interleavedRounds(
      all.map((c) => c.url),
      {
        rounds: ROUNDS,
        concurrency: CONCURRENCY,
        durationMs: MEASURE_MS,
        onResult: (i, round, r) =>
          log(
            `explorer bench: round ${round + 1}, ${all[i]!.page} ${all[i]!.depth} ${all[i]!.target}: ${r.rps.toFixed(0)} req/s`,
          ),
      },
    );
    const loadAfter = loadavg()[0]!;
    const rows = all.map((c, i) => ({
      page: c.page,
      depth: c.depth,
      target: c.target,
      ...summarise(runs[i]!),
    }));
    // Ratios per round (the same background load), then the median over rounds.
    const at = (page: string, depth: string, target: Target) =>
      runs[all.findIndex((c) => c.page === page && c.depth === depth && c.target === target)]!;
    const perRound = (f: (round: number) => number) => median(Array.from({ length: ROUNDS }, (_, j) => f(j)));
    const pages = EXPLORER_PAGES.filter((p) => combos.some((c) => c.page === p.id)).map((p) => {
      const r = (depth: string, target: Target) => at(p.id, depth, target);
      const ratio = (depth: string, over: Target) =>
        perRound((j) => r(depth, "Lookout")[j]!.rps / r(depth, over)[j]!.rps);
      return {
        page: p.id,
        throughputFirst: ratio("first", "service"),
        throughputDeep: ratio("deep", "service"),
        statementFirst: ratio("first", "statement"),
        statementDeep: ratio("deep", "statement"),
        deepOverFirst: perRound((j) => r("deep", "Lookout")[j]!.p50 / r("first", "Lookout")[j]!.p50),
        baselineDeepOverFirst: perRound((j) => r("deep", "service")[j]!.p50 / r("first", "service")[j]!.p50),
        cpuFirst: perRound(
          (j) => r("first", "Lookout")[j]!.cpuPerRequestMs! / r("first", "service")[j]!.cpuPerRequestMs!,
        ),
        cpuDeep: perRound(
          (j) => r("deep", "Lookout")[j]!.cpuPerRequestMs! / r("deep", "service")[j]!.cpuPerRequestMs!,
        ),
        bytes: bytes.get(p.id)!,
        sameBytes: same.get(p.id)!,
      };
    });
    const counters = hasCounters
      ? (() => {
          const busy = median(at("counters", "first", "Lookout").map((r) => r.p50));
          const quiet = median(at("counters", "deep", "Lookout").map((r) => r.p50));
          return { busy, quiet, ratio: busy / quiet };
        })()
      : null;
    const load = { before: loadBefore, after: loadAfter };
    return { data, rounds: ROUNDS, load, rows, pages, missing, counters };
  } finally {
    await app.close();
    base.close();
    await db.close();
  }
}

/** Replaces the "## Explorer API: address pages" section of docs/benchmarks.md (and only it). */
export function writeExplorerSection(r: ExplorerBenchResult, machine: string): void {
  const n = (x: number) => x.toLocaleString("en-US");
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  const table = [
    "| Page | Depth | Server | req/s | p50 ms | p99 ms | server CPU ms/req | errors |",
    "|---|---|---|---:|---:|---:|---:|---:|",
    ...r.rows.map(
      (x) =>
        `| ${x.page} | ${x.page === "counters" ? (x.depth === "first" ? "busy address" : "1-tx address") : x.depth} | ${x.target} | ${x.rps.toFixed(0)} | ${x.p50.toFixed(1)} | ${x.p99.toFixed(1)} | ${x.cpuPerRequestMs.toFixed(2)} | ${x.errors} |`,
    ),
  ].join("\n");
  const goals = r.pages.map(
    (p) =>
      `- ${p.page}: throughput vs the service server (same JSON: ${p.sameBytes ? "the same bytes, first and deep page" : "BODIES DIFFER"}) first page ${pct(p.throughputFirst)}, deep page ${pct(p.throughputDeep)} (goal ≥ 90 %); ` +
      `vs the statement alone ${pct(p.statementFirst)} / ${pct(p.statementDeep)}; ` +
      `deep/first p50 ${p.deepOverFirst.toFixed(2)} (goal ≤ 1.1; the service server's own ${p.baselineDeepOverFirst.toFixed(2)}); ` +
      `a page is ${n(p.bytes.lookout)} bytes (${n(p.bytes.statement)} as raw rows); ` +
      `server CPU per request over the service server's ${p.cpuFirst.toFixed(2)} (first), ${p.cpuDeep.toFixed(2)} (deep). ` +
      `Goal ${p.sameBytes && p.throughputFirst >= 0.9 && p.throughputDeep >= 0.9 && p.deepOverFirst <= 1.1 ? "met" : "not met"} in this run.`,
  );
  const section = `## Explorer API: address pages

\`npm run bench:api -- explorer\` (\`bench/api-explorer.ts\`, data \`bench/api-explorer-data.ts\`; size
\`EXPLORER_BENCH_TXS\`, default 10,000,000). PostgreSQL database \`${DB_NAME}\`: ${n(r.data.transactions)} transactions in
blocks of 100 over 1,000,000 senders/recipients, ${n(r.data.tokenTransfers)} ERC-20 transfers; the busy address has
${n(r.data.busyTransactions)} transactions and ${n(r.data.busyTransfers)} token transfers.${r.data.generatedSeconds != null ? ` Generated with SQL \`generate_series\` in ${r.data.generatedSeconds.toFixed(0)} s (indexes dropped during the load and rebuilt).` : ""}
Lookout (Fastify, validation, views) against two bare node:http servers: **service**, what Lookout's route handler
runs after Fastify (the same parameters to the same service call, \`JSON.stringify\`: the same bytes, compared on the
first and the deep page), and **statement**, the page's SQL statement alone on the same driver, serialising the raw
rows. The statement is the page's query function, one prepared statement that brings the page with its address facts
(verified names included: the store is plugged in as \`lookout start\` plugs it), head block and average block time;
Lookout's page makes no other round trip. Pages: the busy address's transactions (newest first, and
\`sort=value&order=asc\`), its token transfers, and the chain's transactions with token transfers
(\`/transactions?type=token_transfer\`, one in ten). Deep page: the cursor of the item 90 % into the list. ${CONCURRENCY}
keep-alive connections from a separate process (server CPU per request: the bench process's user + system time
over the requests of a measurement, warm-up included; all servers run in it, one at a time), ${MEASURE_MS / 1000} s per measurement after 1 s warm-up, ${r.rounds} rounds
interleaved and rotated, medians; ${machine}; load average ${r.load.before.toFixed(1)} before, ${r.load.after.toFixed(1)}
after${r.load.before < 1 ? "" : " (other jobs were running: figures vary more than on a quiet machine)"}.

${table}

${goals.join("\n")}
${r.counters ? `- Counters (one primary-key row of \`address_counters\`): p50 ${r.counters.busy.toFixed(1)} ms for the busy address, ${r.counters.quiet.toFixed(1)} ms for an address with one transaction (ratio ${r.counters.ratio.toFixed(2)}): the statement is one primary-key lookup whatever the history (O(1)); the busy address is measured right after the heaviest combination in every round (the rotation keeps the order), which the difference reflects.` : ""}
${r.missing.length ? `- Not measured (endpoint absent in this build): ${r.missing.join("; ")}.` : ""}
`;
  replaceBenchmarkSection("## Explorer API: address pages", section.replace(/\n{3,}/g, "\n\n"));
}
