import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import { buildApp } from "../src/app/http-app.js";
import type { Db } from "../src/db/db.js";
import { advancedFilters } from "../src/explorer/advanced-filter/service.js";
import type { ExplorerDeps } from "../src/explorer/deps.js";
import { Params } from "../src/http/etherscan-params.js";
import { rpcApiRoute } from "../src/rpc-api/index.js";
import { isReply, type RpcApiDeps } from "../src/rpc-api/reply.js";
import type { VerifierApi } from "../src/verifier/api.js";
import { BUSY, type DataSet, DB_NAME, openDataSet, TOKEN } from "./api-explorer-data.js";
import { interleavedRounds, median, summarise } from "./api-load.js";
import { replaceBenchmarkSection } from "./benchmarks-doc.js";

/**
 * bench:api, RPC part (`npm run bench:api -- rpc`): Etherscan's `txlist`, `tokentx` and `getLogs` and the advanced
 * filter on the explorer bench's data set (`api-explorer-data.ts`, plus one Transfer log per token transfer, added
 * here when missing), Lookout against a bare node:http server that runs the same action (same SQL, same view code)
 * and writes the same bytes: the difference is what Lookout's HTTP layer costs. First page against a deep one.
 */
const ROUNDS = Number(process.env.RPC_BENCH_ROUNDS ?? 3);
const MEASURE_MS = 3000;
const CONCURRENCY = 8;

type Page = { id: string; first: string; deep: string };

/** One Transfer log per generated token transfer (the data set has transfers without their logs), and the busy address. */
async function ensureLogs(db: Db, log: (m: string) => void): Promise<void> {
  // The actions answer "not found" for an address the index never saw (the counters stage keeps `addresses`).
  await db.exec(
    `insert into addresses (address, first_block) values ('\\x${BUSY.slice(2)}', 0) on conflict do nothing`,
  );
  const [has] = await db.query<{ n: boolean }>("select exists (select 1 from logs) as n");
  if (has?.n) return;
  const t0 = Date.now();
  await db.exec("set synchronous_commit = off");
  await db.exec(`
    insert into logs (block_number, log_index, transaction_hash, transaction_index, address, topic0, topic1, topic2,
      topic3, data)
    select tt.block_number, tt.log_index, tt.transaction_hash, tt.log_index, tt.token_address,
      '\\xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'::bytea,
      decode(lpad('', 24, '0'), 'hex') || tt.from_address, decode(lpad('', 24, '0'), 'hex') || tt.to_address, null,
      decode(lpad(to_hex(tt.amount::int8), 64, '0'), 'hex')
    from token_transfers tt`);
  await db.exec("vacuum analyze logs");
  log(`rpc bench: Transfer logs added in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

const SILENT = { error: () => {} } as unknown as FastifyBaseLogger;

/** The baseline: node:http, the same action or service call, the same JSON bytes and content type. */
function baselineServer(rpcDeps: RpcApiDeps, explorer: ExplorerDeps): Server {
  return createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const query = Object.fromEntries(u.searchParams);
    let status = 200;
    let body: unknown;
    if (u.pathname === "/api") {
      const answer = await rpcApiRoute(new Params(query))(rpcDeps, SILENT);
      status = isReply(answer) ? answer.httpStatus : 200;
      body = isReply(answer) ? answer.body : answer;
    } else if (u.pathname === "/api/v2/advanced-filters") body = await advancedFilters(explorer, query);
    else status = 404;
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body ?? null));
  });
}

/** The pages: the busy address's lists (first page; a page 90 % down its history, by block range or cursor). */
async function pages(db: Db): Promise<Page[]> {
  const busy = Buffer.from(BUSY.slice(2), "hex");
  const [tx] = await db.query<{ b: number }>(
    `select block_number as b from transactions where from_address = $1
     order by block_number desc, index desc offset (select count(*) * 9 / 10 from transactions where from_address = $1) limit 1`,
    [busy],
  );
  const [tt] = await db.query<{ b: number }>(
    `select block_number as b from token_transfers where from_address = $1
     order by block_number desc offset (select count(*) * 9 / 10 from token_transfers where from_address = $1) limit 1`,
    [busy],
  );
  const [head] = await db.query<{ n: number }>("select max(number)::int8 as n from blocks");
  const top = Number(head!.n);
  const deepBlock = Math.floor(top / 10);
  const list = (action: string) =>
    `module=account&action=${action}&address=${BUSY}&sort=desc&page=1&offset=50`;
  const logs = (from: number) =>
    `module=logs&action=getLogs&address=${TOKEN}&fromBlock=${from}&toBlock=${from + 19}`;
  // A cursor 90 % down the busy address's advanced-filter list: its transaction at that depth.
  const [af] = await db.query<{ b: number; i: number }>(
    `select block_number as b, index as i from transactions where from_address = $1
     order by block_number desc, index desc offset (select count(*) * 9 / 10 from transactions where from_address = $1) limit 1`,
    [busy],
  );
  const cursor = (b: number, i: number) =>
    `block_number=${b}&transaction_index=${i}&internal_transaction_index=null&token_transfer_index=null&token_transfer_batch_index=null&items_count=50`;
  return [
    { id: "txlist", first: `/api?${list("txlist")}`, deep: `/api?${list("txlist")}&endblock=${tx!.b}` },
    { id: "tokentx", first: `/api?${list("tokentx")}`, deep: `/api?${list("tokentx")}&endblock=${tt!.b}` },
    { id: "getLogs (20 blocks)", first: `/api?${logs(top - 19)}`, deep: `/api?${logs(deepBlock)}` },
    {
      id: "advanced filter",
      first: "/api/v2/advanced-filters",
      deep: `/api/v2/advanced-filters?${cursor(deepBlock, 50)}`,
    },
    {
      id: "advanced filter, from the busy address",
      first: `/api/v2/advanced-filters?from_address_hashes_to_include=${BUSY}`,
      deep: `/api/v2/advanced-filters?from_address_hashes_to_include=${BUSY}&${cursor(af!.b, af!.i)}`,
    },
  ];
}

export type RpcBenchResult = {
  data: DataSet;
  rounds: number;
  load: { before: number; after: number };
  rows: Array<{
    page: string;
    depth: string;
    target: string;
    rps: number;
    p50: number;
    p99: number;
    errors: number;
  }>;
  pages: Array<{
    page: string;
    throughputFirst: number;
    throughputDeep: number;
    deepOverFirst: number;
    bytesFirst: number;
    sameBytes: boolean;
  }>;
};

export async function runRpcBench(log: (m: string) => void = console.log): Promise<RpcBenchResult> {
  const { db, data } = await openDataSet(log);
  await ensureLogs(db, log);
  // The RPC modules read the index only here (no node): the chains map stays empty.
  const verifier = { db, chains: new Map(), compilers: {}, jobs: {} } as unknown as VerifierApi;
  const app = await buildApp({ db, config: { bodyLimit: 1e6 }, logger: false, verifier });
  const base = baselineServer({ db, chains: new Map() }, { db });
  try {
    await app.listen({ port: 0, host: "127.0.0.1" });
    await new Promise<void>((ok) => base.listen(0, "127.0.0.1", ok));
    const lookout = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const baseline = `http://127.0.0.1:${(base.address() as AddressInfo).port}`;
    const list = await pages(db);
    const same = new Map<string, { bytes: number; same: boolean }>();
    const combos: Array<{ page: string; depth: string; target: string; url: string }> = [];
    for (const p of list) {
      const a = Buffer.from(await (await fetch(`${lookout}${p.first}`)).arrayBuffer());
      const b = Buffer.from(await (await fetch(`${baseline}${p.first}`)).arrayBuffer());
      same.set(p.id, { bytes: a.byteLength, same: a.equals(b) });
      for (const depth of ["first", "deep"] as const)
        for (const [target, origin] of [
          ["Lookout", lookout],
          ["baseline", baseline],
        ] as const)
          combos.push({ page: p.id, depth, target, url: `${origin}${p[depth]}` });
    }
    const loadBefore = loadavg()[0]!;
    const runs = await interleavedRounds(
      combos.map((c) => c.url),
      {
        rounds: ROUNDS,
        concurrency: CONCURRENCY,
        durationMs: MEASURE_MS,
        onResult: (i, round, r) =>
          log(
            `rpc bench: round ${round + 1}, ${combos[i]!.page} ${combos[i]!.depth} ${combos[i]!.target}: ${r.rps.toFixed(0)} req/s`,
          ),
      },
    );
    const at = (page: string, depth: string, target: string) =>
      runs[combos.findIndex((c) => c.page === page && c.depth === depth && c.target === target)]!;
    const perRound = (f: (round: number) => number) => median(Array.from({ length: ROUNDS }, (_, j) => f(j)));
    return {
      data,
      rounds: ROUNDS,
      load: { before: loadBefore, after: loadavg()[0]! },
      rows: combos.map((c, i) => ({
        page: c.page,
        depth: c.depth,
        target: c.target,
        ...summarise(runs[i]!),
      })),
      pages: list.map((p) => ({
        page: p.id,
        throughputFirst: perRound(
          (j) => at(p.id, "first", "Lookout")[j]!.rps / at(p.id, "first", "baseline")[j]!.rps,
        ),
        throughputDeep: perRound(
          (j) => at(p.id, "deep", "Lookout")[j]!.rps / at(p.id, "deep", "baseline")[j]!.rps,
        ),
        deepOverFirst: perRound(
          (j) => at(p.id, "deep", "Lookout")[j]!.p50 / at(p.id, "first", "Lookout")[j]!.p50,
        ),
        bytesFirst: same.get(p.id)!.bytes,
        sameBytes: same.get(p.id)!.same,
      })),
    };
  } finally {
    await app.close();
    base.close();
    await db.close();
  }
}

/** Replaces the "## Etherscan-compatible API and advanced filter" section of docs/benchmarks.md. */
export function writeRpcSection(r: RpcBenchResult, machine: string): void {
  const n = (x: number) => x.toLocaleString("en-US");
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  const table = [
    "| Page | Depth | Server | req/s | p50 ms | p99 ms | errors |",
    "|---|---|---|---:|---:|---:|---:|",
    ...r.rows.map(
      (x) =>
        `| ${x.page} | ${x.depth} | ${x.target} | ${x.rps.toFixed(0)} | ${x.p50.toFixed(1)} | ${x.p99.toFixed(1)} | ${x.errors} |`,
    ),
  ].join("\n");
  const goals = r.pages.map(
    (p) =>
      `- ${p.page}: throughput vs baseline ${pct(p.throughputFirst)} first page, ${pct(p.throughputDeep)} deep page ` +
      `(goal ≥ 90 %); deep/first p50 ${p.deepOverFirst.toFixed(2)} (goal ≤ 1.1); ${n(p.bytesFirst)} bytes, ` +
      `${p.sameBytes ? "the same bytes from both servers" : "**bodies differ**"}.`,
  );
  const section = `## Etherscan-compatible API and advanced filter

\`npm run bench:api -- rpc\` (\`bench/api-rpc.ts\`) on the explorer bench's data set \`${DB_NAME}\` (PostgreSQL):
${n(r.data.transactions)} transactions, ${n(r.data.tokenTransfers)} ERC-20 transfers and their Transfer logs; the busy
address has ${n(r.data.busyTransactions)} transactions and ${n(r.data.busyTransfers)} token transfers. Lookout (Fastify)
against a bare node:http server that calls the same action (\`rpcApiRoute\`) or service (\`advancedFilters\`): the same
SQL and view code, the same bytes. \`txlist\`/\`tokentx\`: the busy address, \`page=1&offset=50\`, deep = the same with
\`endblock\` 90 % down its history (a client paging by block range); \`getLogs\`: the token's logs of 20 blocks at the
head and 90 % down the chain; advanced filter: no filter (deep: a cursor 90 % down the chain) and the busy address as
sender (deep: a cursor 90 % down its transactions). ${CONCURRENCY} keep-alive connections from a separate process,
${MEASURE_MS / 1000} s per measurement after 1 s warm-up, ${r.rounds} rounds interleaved and rotated, medians; ${machine};
load average ${r.load.before.toFixed(1)} before, ${r.load.after.toFixed(1)} after${r.load.before < 1 ? "" : " (other jobs were running: figures vary more than on a quiet machine)"}.

${table}

${goals.join("\n")}
`;
  replaceBenchmarkSection("## Etherscan-compatible API and advanced filter", section);
}
