import Fastify from "fastify";
import { createPublicClient, formatEther, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/db/migrate.js";
import { STATS_SERVICE_PREFIX, statsServiceRoutes } from "../../src/explorer/stats-service/routes.js";
import { rejectNonFiniteNumbers } from "../../src/http/dialects.js";
import { authorizationsExtension } from "../../src/indexer/stages/authorizations/extension.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { coinBalanceSum } from "../../src/rpc-api/stats/query.js";
import { type ActivityContracts, deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain, walletFor } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

const DAY_S = 86_400;
const STATS_TABLES = ["daily_counters", "daily_stats", "daily_active_accounts", "stats_accounts"];

/** The places the service's averages are given to (a rounded value is within half of the last one). */
const DECIMALS: Record<string, number> = {
  averageGasLimit: 0,
  averageGasUsed: 0,
  averageBlockSize: 2,
  networkUtilization: 4,
  txnsSuccessRate: 6,
  averageGasPrice: 9,
};

type Day = {
  blocks: number;
  txs: number;
  ok: number;
  gasUsed: bigint;
  gasLimit: bigint;
  fees: bigint;
  priceSum: bigint;
  size: bigint;
  transfers: number;
  contracts: number;
  auths: number;
  senders: Set<string>;
  newAccounts: number;
  /** At the day's last block: the balances of every address but the zero one, and the holders of >= 0.001. */
  supply: bigint;
  holders: number;
  holdersBefore: number;
};

const ZERO = "0x0000000000000000000000000000000000000000";
const HOLDER_MIN = 10n ** 15n;

type Frame = { type: string; from?: string; to?: string; error?: string; calls?: Frame[] };
const frameAddresses = (f: Frame): string[] => [
  ...(f.from ? [f.from] : []),
  ...(f.to ? [f.to] : []),
  ...(f.calls ?? []).flatMap(frameAddresses),
];
const creations = (f: Frame): number =>
  (f.error ? 0 : f.type === "CREATE" || f.type === "CREATE2" ? 1 : 0) +
  (f.error ? 0 : (f.calls ?? []).reduce((s, c) => s + creations(c), 0));

/** Every day's figures recomputed from the node alone: its blocks, receipts and call traces, read with viem. */
async function fromNode(url: string): Promise<Map<string, Day>> {
  const client = createPublicClient({ transport: http(url) });
  const head = await client.getBlockNumber();
  const days = new Map<string, Day>();
  const seen = new Set<string>();
  // Every address whose balance can have changed: the funded accounts, the miners, and every address a block's
  // transactions and their call frames touched.
  const known = new Set<string>((await rpc<string[]>(url, "eth_accounts", [])).map((a) => a.toLowerCase()));
  let holders = 0;
  const closeDay = async (d: Day, block: bigint) => {
    d.holdersBefore = holders;
    holders = 0;
    for (const a of known) {
      const v = await client.getBalance({ address: a as Hex, blockNumber: block });
      if (a !== ZERO) d.supply += v;
      if (v >= HOLDER_MIN) holders++;
    }
    d.holders = holders;
  };
  let open: { d: Day; last: bigint } | null = null;
  for (let n = 0n; n <= head; n++) {
    const b = await client.getBlock({ blockNumber: n, includeTransactions: true });
    const day = new Date(Number(b.timestamp) * 1000).toISOString().slice(0, 10);
    let d = days.get(day);
    if (open && open.d !== d) await closeDay(open.d, open.last);
    known.add(b.miner.toLowerCase());
    if (!d) {
      d = {
        blocks: 0,
        txs: 0,
        ok: 0,
        gasUsed: 0n,
        gasLimit: 0n,
        fees: 0n,
        priceSum: 0n,
        size: 0n,
        transfers: 0,
        contracts: 0,
        auths: 0,
        senders: new Set(),
        newAccounts: 0,
        supply: 0n,
        holders: 0,
        holdersBefore: 0,
      };
      days.set(day, d);
    }
    d.blocks++;
    d.gasUsed += b.gasUsed;
    d.gasLimit += b.gasLimit;
    d.size += b.size;
    for (const t of b.transactions) {
      const r = await client.getTransactionReceipt({ hash: t.hash });
      d.txs++;
      if (r.status === "success") d.ok++;
      d.fees += r.gasUsed * r.effectiveGasPrice;
      d.priceSum += r.effectiveGasPrice;
      if (t.value > 0n) d.transfers++;
      d.auths += t.authorizationList?.length ?? 0;
      if (r.contractAddress && r.status === "success") d.contracts++;
      const trace = await rpc<Frame>(url, "debug_traceTransaction", [t.hash, { tracer: "callTracer" }]);
      // The transaction's own creation is counted from its receipt; the frames below it are the inner ones.
      d.contracts += trace.error ? 0 : (trace.calls ?? []).reduce((s, c) => s + creations(c), 0);
      for (const a of [t.from, t.to, r.contractAddress, ...frameAddresses(trace)])
        if (a) known.add(a.toLowerCase());
      d.senders.add(t.from);
      if (!seen.has(t.from)) {
        seen.add(t.from);
        d.newAccounts++;
      }
    }
    open = { d, last: n };
  }
  if (open) await closeDay(open.d, open.last);
  return days;
}

/** The chart's expected value of one day (sums exact, ratios as numbers). */
function expected(id: string, d: Day, totals: Record<string, bigint>): string | number | null {
  const ratio = (a: bigint, b: bigint, times = 1) => (b === 0n ? 0 : (Number(a) * times) / Number(b));
  switch (id) {
    case "newTxns":
      return String(d.txs);
    case "txnsGrowth":
      return String(totals.txs);
    case "newBlocks":
      return String(d.blocks);
    case "activeAccounts":
      return String(d.senders.size);
    case "newAccounts":
      return String(d.newAccounts);
    case "accountsGrowth":
      return String(totals.accounts);
    case "txnsFee":
      return formatEther(d.fees);
    case "averageTxnFee":
      return ratio(d.fees, BigInt(d.txs)) / 1e18;
    case "txnsSuccessRate":
      return ratio(BigInt(d.ok), BigInt(d.txs));
    case "gasUsedGrowth":
      return String(totals.gas);
    case "averageGasUsed":
      return ratio(d.gasUsed, BigInt(d.blocks));
    case "averageGasLimit":
      return ratio(d.gasLimit, BigInt(d.blocks));
    case "networkUtilization":
      return ratio(d.gasUsed, d.gasLimit, 100);
    case "averageGasPrice":
      return ratio(d.priceSum, BigInt(d.txs)) / 1e9;
    case "averageBlockSize":
      return ratio(d.size, BigInt(d.blocks));
    case "newContracts":
      return String(d.contracts);
    case "contractsGrowth":
      return String(totals.contracts);
    case "newNativeCoinTransfers":
      return String(d.transfers);
    case "newEip7702Auths":
      return String(d.auths);
    case "eip7702AuthsGrowth":
      return String(totals.auths);
    case "nativeCoinHoldersGrowth":
      return String(d.holders);
    case "newNativeCoinHolders":
      return String(d.holders - d.holdersBefore);
    case "nativeCoinSupply":
      return formatEther(d.supply);
    case "newVerifiedContracts":
    case "verifiedContractsGrowth":
    case "averageBlockRewards":
      // Nothing of these on this chain (anvil reports no reward traces; no verification).
      return "0";
    default:
      return null;
  }
}

/** The explorer's stages with the coin balances and the EIP-7702 authorizations (the stats stage counts them). */
const stages = () => [
  coinBalanceExtension(),
  currentBalancesExtension(),
  authorizationsExtension(),
  ...explorerExtensions(),
];

/** One EIP-7702 transaction with two authorizations (one for this chain, one for any chain), mined in its block. */
async function setCode(chain: TestChain, target: Hex): Promise<void> {
  const sponsor = walletFor(chain, 1);
  const eoa = privateKeyToAccount(generatePrivateKey());
  const list = [
    await sponsor.signAuthorization({
      account: eoa,
      contractAddress: target,
      chainId: chain.chain.id,
      nonce: 0,
    }),
    await sponsor.signAuthorization({ account: eoa, contractAddress: target, chainId: 0, nonce: 1 }),
  ];
  const nonce = Number(
    await rpc<Hex>(chain.anvil.url, "eth_getTransactionCount", [chain.accounts[1]!.address, "pending"]),
  );
  await sponsor.sendTransaction({
    account: chain.accounts[1]!,
    chain: chain.chain,
    to: eoa.address,
    authorizationList: list,
    gas: 300_000n,
    nonce,
  });
  await rpc(chain.anvil.url, "evm_mine");
}

type Api = Awaited<ReturnType<typeof statsApi>>;
async function statsApi(t: TestDb) {
  const app = Fastify();
  // As the app: a member no column holds is a validation error, which the plugin answers in its dialect.
  app.addHook("preHandler", rejectNonFiniteNumbers);
  await app.register(statsServiceRoutes, {
    prefix: STATS_SERVICE_PREFIX,
    deps: { db: t.db, coinSymbol: "ETH" },
  });
  const get = async (path: string) => {
    const r = await app.inject({ method: "GET", url: `${STATS_SERVICE_PREFIX}${path}` });
    return { status: r.statusCode, body: r.json() };
  };
  return { app, get };
}

/** Every chart of the list, point by point, against the node's recomputation. */
async function compareWithNode(api: Api, url: string): Promise<number> {
  const days = await fromNode(url);
  const lines = (await api.get("/api/v1/lines")).body as {
    sections: Array<{ charts: Array<{ id: string; resolutions: string[] }> }>;
  };
  const ids = lines.sections.flatMap((s) => s.charts.map((c) => c.id));
  let compared = 0;
  for (const id of ids) {
    const { status, body } = await api.get(`/api/v1/lines/${id}?resolution=DAY`);
    expect(status).toBe(200);
    const points = body.chart as Array<{ date: string; date_to: string; value: string }>;
    // Every day from the first block's to the last one's, as on the node.
    expect(points.map((p) => p.date)).toEqual([...days.keys()]);
    const totals = { txs: 0n, accounts: 0n, gas: 0n, contracts: 0n, auths: 0n };
    for (const p of points) {
      const d = days.get(p.date)!;
      totals.txs += BigInt(d.txs);
      totals.accounts += BigInt(d.newAccounts);
      totals.gas += d.gasUsed;
      totals.contracts += BigInt(d.contracts);
      totals.auths += BigInt(d.auths);
      const want = expected(id, d, totals);
      expect(want, `a recomputation of ${id}`).not.toBeNull();
      if (typeof want === "number") {
        const tolerance = Math.max(Math.abs(want) * 1e-9, 0.5 * 10 ** -(DECIMALS[id] ?? 18));
        expect(Math.abs(Number(p.value) - want), `${id} on ${p.date}`).toBeLessThanOrEqual(tolerance);
      } else expect(p.value, `${id} on ${p.date}`).toBe(want);
      expect(p.date_to).toBe(p.date);
      compared++;
    }
    // A week, a month and a year add up (sums) or end (growths) as the days do.
    if (body.info.resolutions.includes("YEAR")) {
      const year = (await api.get(`/api/v1/lines/${id}?resolution=YEAR`)).body.chart as Array<{
        value: string;
      }>;
      const whole = days.size && id.endsWith("Growth") ? points.at(-1)!.value : null;
      if (whole !== null && year.length === 1) expect(year[0]!.value).toBe(whole);
    }
  }
  return compared;
}

/**
 * The stats service's charts, kept per day by the stats stage: every chart's daily points equal a recomputation
 * from the node (blocks, receipts, call traces) over several UTC days, also after a reorganisation that takes a
 * day back, and the kept tables equal those of a clean index of the same chain.
 */
describe("stats service charts", () => {
  let chain: TestChain;
  let t: TestDb;
  let k: ActivityContracts;
  beforeAll(async () => {
    chain = await startTestChain({ hardfork: "prague" });
    t = await createTestDb();
    k = await deployActivityContracts(chain.anvil.url);
  });
  afterAll(async () => {
    await t?.drop();
    await chain?.stop();
  });

  it("serves every chart exactly over several days, through a reorganisation", async () => {
    const url = chain.anvil.url;
    const head = await rpc<{ timestamp: Hex }>(url, "eth_getBlockByNumber", ["latest", false]);
    let day = Math.floor(Number(head.timestamp) / DAY_S) + 1;
    const api = await statsApi(t);
    try {
      for (let i = 0; i < 3; i++, day++) {
        await rpc(url, "evm_setNextBlockTimestamp", [day * DAY_S + 30 + i]);
        await mineActivity(url, k, { blocks: 5, txPerBlock: 3, seed: 11 + i });
        if (i === 1) await setCode(chain, k.token);
      }
      const indexer = await createTestIndexer(t.db, url, { batchSize: 4, extensions: stages() });
      // The next day comes in two steps: today's point moves with its blocks.
      const snap = await rpc<string>(url, "evm_snapshot");
      await rpc(url, "evm_setNextBlockTimestamp", [day * DAY_S + 100]);
      await mineActivity(url, k, { blocks: 3, txPerBlock: 3, seed: 21 });
      await indexToHead(indexer, t.db, url);
      const before = (await api.get("/api/v1/lines/newTxns")).body.chart.at(-1).value;
      await mineActivity(url, k, { blocks: 3, txPerBlock: 4, seed: 22 });
      await indexToHead(indexer, t.db, url);
      expect(Number((await api.get("/api/v1/lines/newTxns")).body.chart.at(-1).value)).toBeGreaterThan(
        Number(before),
      );
      expect(await compareWithNode(api, url)).toBeGreaterThan(80);
      const [auths] = await t.db.query<{ n: string }>(
        "select count(*)::text as n from transaction_authorizations",
      );
      expect(auths!.n).toBe("2");

      // A reorganisation takes the last day back; the new branch stays on the day before.
      await rpc(url, "evm_revert", [snap]);
      await mineActivity(url, k, { blocks: 2, txPerBlock: 2, seed: 31 });
      await indexToHead(indexer, t.db, url);
      expect(await compareWithNode(api, url)).toBeGreaterThan(60);

      const clean = await createTestDb();
      try {
        await indexToHead(await createTestIndexer(clean.db, url, { extensions: stages() }), clean.db, url);
        expect(await dumpTables(t.db, STATS_TABLES)).toEqual(await dumpTables(clean.db, STATS_TABLES));
      } finally {
        await clean.drop();
      }
    } finally {
      await api.app.close();
    }
  });

  it("migration 171 gives an index kept before it the same native coin days as the stats stage keeps", async () => {
    const kept = await dumpTables(t.db, ["daily_stats"]);
    const [changed] = await t.db.query<{ n: string }>(
      "select count(*)::text as n from daily_stats where supply_change <> 0 and holders_change <> 0",
    );
    expect(Number(changed!.n)).toBeGreaterThan(0);
    // The schema as migration 170 left it, with the days the stage kept then.
    await t.db.exec(`
      alter table daily_stats drop column supply_change, drop column holders_change;
      drop table verified_contracts_daily;
      drop function verified_contracts_daily_bump(int8, timestamptz, int8);
      delete from schema_migrations where name = '171_native_coin_and_verified_daily.sql';`);
    expect((await migrate(t.db)).applied).toEqual(["171_native_coin_and_verified_daily.sql"]);
    expect(await dumpTables(t.db, ["daily_stats"])).toEqual(kept);
  });

  it("answers the counters, pages and bad input in the service's shapes", async () => {
    const api = await statsApi(t);
    try {
      const counters = (await api.get("/api/v1/counters")).body.counters as Array<{
        id: string;
        value: string;
      }>;
      const byId = new Map(counters.map((c) => [c.id, c.value]));
      const [txs] = await t.db.query<{ n: string }>("select count(*)::text as n from transactions");
      expect(byId.get("totalTxns")).toBe(txs!.n);
      const [ok] = await t.db.query<{ n: string }>(
        "select count(*)::text as n from transactions where status = 1",
      );
      expect(byId.get("completedTxns")).toBe(ok!.n);
      const [senders] = await t.db.query<{ n: string }>(
        "select count(distinct from_address)::text as n from transactions",
      );
      expect(byId.get("totalAccounts")).toBe(senders!.n);
      const [created] = await t.db.query<{ n: string }>("select count(*)::text as n from contract_creations");
      expect(byId.get("totalContracts")).toBe(created!.n);
      // The holders and the supply end where the current balances are (the top accounts' table, ethsupply's sum).
      const [holders] = await t.db.query<{ n: string }>(
        "select count(*)::text as n from address_coin_balances where value >= 1000000000000000",
      );
      expect(Number(holders!.n)).toBeGreaterThan(5);
      expect(byId.get("totalNativeCoinHolders")).toBe(holders!.n);
      const supply = (await api.get("/api/v1/lines/nativeCoinSupply?resolution=MONTH")).body.chart.at(
        -1,
      ).value;
      expect(supply).toBe(formatEther(BigInt(await coinBalanceSum(t.db, true))));
      expect(counters.every((c) => typeof c.value === "string" && c.value !== "")).toBe(true);

      const main = (await api.get("/api/v1/pages/main")).body;
      expect(main.total_transactions).toMatchObject({ id: "totalTxns", value: txs!.n });
      expect(main.daily_new_transactions.info).toMatchObject({ id: "newTxnsWindow", resolutions: ["DAY"] });
      expect(Object.keys((await api.get("/api/v1/pages/transactions")).body).sort()).toEqual([
        "average_transactions_fee_24h",
        "pending_transactions_30m",
        "transactions_24h",
        "transactions_fee_24h",
      ]);
      expect((await api.get("/api/v1/pages/contracts")).body.total_contracts.value).toBe(created!.n);
      expect((await api.get("/api/v1/update-status")).body.all_status).toBe("COMPLETED_INITIAL_UPDATE");
      // The gas tracker looks for averageGasPrice in the list.
      const lines = (await api.get("/api/v1/lines")).body.sections as Array<{
        charts: Array<{ id: string }>;
      }>;
      expect(lines.flatMap((s) => s.charts.map((c) => c.id))).toContain("averageGasPrice");

      const week = (await api.get("/api/v1/lines/newTxns?resolution=WEEK")).body.chart as Array<{
        date: string;
        value: string;
      }>;
      expect(week.reduce((s, p) => s + Number(p.value), 0)).toBe(Number(txs!.n));
      expect(week.every((p) => new Date(`${p.date}T00:00:00Z`).getUTCDay() === 1)).toBe(true);

      expect(await api.get("/api/v1/lines/nope")).toEqual({
        status: 404,
        body: { code: 5, message: "chart nope not found" },
      });
      expect((await api.get("/api/v1/lines/newTxns?resolution=HOUR")).status).toBe(400);
      expect((await api.get("/api/v1/lines/newTxns?from=2024-02-30")).body.code).toBe(3);
      // Input no column holds: the service's 400, not a failure.
      expect(await api.get("/api/v1/lines/%00")).toMatchObject({ status: 400, body: { code: 3 } });
    } finally {
      await api.app.close();
    }
  });
});
