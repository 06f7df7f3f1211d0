import type { Queryable } from "../../db/db.js";
import { transactionsStats } from "../stats/service.js";
import { averageBlockTimeMs } from "../transaction/query.js";
import {
  type ChartDef,
  COUNTERS_ORDER,
  counterTexts,
  type DayRow,
  lineCharts,
  NEW_TXNS_WINDOW,
  OP_COUNTERS,
  OP_NEW_TXNS_WINDOW,
  RESOLUTIONS,
  type Resolution,
  SECTIONS,
} from "./catalogue.js";
import { chainCounters, contractsSince, dayRows, hasOpDeposits, verifiedCounts } from "./query.js";
import { chartPoints, decimal, type Point } from "./view.js";

export type StatsServiceDeps = { db: Queryable; coinSymbol: string };

export type Counter = { id: string; value: string; title: string; units?: string; description: string };
export type ChartInfo = {
  id: string;
  title: string;
  description: string;
  units?: string;
  resolutions: string[];
};

const DAY_MS = 86_400_000;
const WEI = 10n ** 18n;
const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

function info(def: Pick<ChartDef, "id" | "title" | "description" | "units" | "resolutions">): ChartInfo {
  return {
    id: def.id,
    title: def.title,
    description: def.description,
    ...(def.units ? { units: def.units } : {}),
    resolutions: [...(def.resolutions ?? RESOLUTIONS)],
  };
}

/** How long the answer "is this an OP chain" is reused (it changes once at most, when the first deposit comes). */
const OP_TTL_MS = 60_000;
const opCache = new WeakMap<Queryable, { at: number; op: Promise<boolean> }>();
function isOpChain(db: Queryable, now = Date.now()): Promise<boolean> {
  const hit = opCache.get(db);
  if (hit && now - hit.at < OP_TTL_MS) return hit.op;
  const op = hasOpDeposits(db);
  opCache.set(db, { at: now, op });
  op.catch(() => opCache.get(db)?.op === op && opCache.delete(db));
  return op;
}

/** The charts that apply to the indexed chain (the OP stack's only where its deposits are). */
async function charts(deps: StatsServiceDeps): Promise<ChartDef[]> {
  const op = await isOpChain(deps.db);
  return lineCharts(deps.coinSymbol).filter((c) => op || !c.opStack);
}

/** `/api/v1/lines`: the sections of the layout with their charts. */
export async function lineChartList(deps: StatsServiceDeps) {
  const list = await charts(deps);
  return {
    sections: SECTIONS.map((s) => ({
      id: s.id,
      title: s.title,
      charts: list.filter((c) => c.section === s.id).map(info),
    })).filter((s) => s.charts.length),
  };
}

/** `/api/v1/lines/{name}`, or null for a chart the chain does not have. */
export async function lineChart(
  deps: StatsServiceDeps,
  name: string,
  q: { from?: string; to?: string; resolution: Resolution },
): Promise<{ chart: Point[]; info: ChartInfo } | null> {
  const def = (await charts(deps)).find((c) => c.id === name);
  if (!def) return null;
  const resolution =
    def.resolutions && !def.resolutions.includes(q.resolution) ? def.resolutions[0]! : q.resolution;
  const rows = await dayRows(deps.db, q.to);
  return { chart: chartPoints(rows, def, resolution, q), info: info(def) };
}

/** Every counter's value, from the day rows, chain_counters and the last 24 hours' figures. */
async function counterValues(deps: StatsServiceDeps, now: number): Promise<Map<string, string>> {
  const since = new Date(now - DAY_MS);
  const [rows, chain, blockMs, day, verified, contracts24h] = await Promise.all([
    dayRows(deps.db),
    chainCounters(deps.db),
    averageBlockTimeMs(deps.db),
    transactionsStats(deps.db, () => now),
    verifiedCounts(deps.db, since),
    contractsSince(deps.db, since),
  ]);
  const total = (c: keyof DayRow) => rows.reduce((s, r) => s + BigInt(r[c]), 0n).toString();
  const on = (d: string, c: keyof DayRow) => rows.find((r) => r.day === d)?.[c] ?? "0";
  const today = dayOf(now);
  const yesterday = dayOf(now - DAY_MS);
  return new Map([
    ["averageBlockTime", decimal(BigInt(Math.round(blockMs)), 1000n, 3)],
    ["completedTxns", total("successful_transactions")],
    ["lastNewContracts", on(today, "contracts")],
    ["lastNewVerifiedContracts", on(today, "verified_contracts")],
    ["totalAccounts", total("new_accounts")],
    ["totalAddresses", chain.get("addresses") ?? "0"],
    ["totalBlocks", chain.get("blocks") ?? "0"],
    ["totalContracts", total("contracts")],
    ["totalNativeCoinHolders", total("holders_change")],
    ["totalNativeCoinTransfers", total("native_transfers")],
    ["totalTxns", chain.get("transactions") ?? "0"],
    ["opStackTotalOperationalTxns", total("operational_transactions")],
    ["totalVerifiedContracts", verified.total],
    ["newTxns24h", day.transactions_count_24h],
    ["pendingTxns30m", "0"],
    ["txnsFee24h", decimal(BigInt(day.transaction_fees_sum_24h), WEI, 18)],
    ["averageTxnFee24h", decimal(BigInt(day.transaction_fees_avg_24h), WEI, 18)],
    ["yesterdayTxns", on(yesterday, "transactions")],
    ["opStackYesterdayOperationalTxns", on(yesterday, "operational_transactions")],
    ["newContracts24h", contracts24h],
    ["newVerifiedContracts24h", verified.recent],
  ]);
}

function counter(deps: StatsServiceDeps, values: Map<string, string>, id: string): Counter {
  const t = counterTexts(deps.coinSymbol)[id]!;
  return {
    id,
    value: values.get(id) ?? "0",
    title: t.title,
    ...(t.units ? { units: t.units } : {}),
    description: t.description,
  };
}

/** `/api/v1/counters`. */
export async function counters(deps: StatsServiceDeps, now = Date.now()) {
  const [values, op] = await Promise.all([counterValues(deps, now), isOpChain(deps.db)]);
  return {
    counters: COUNTERS_ORDER.filter((id) => op || !OP_COUNTERS.has(id)).map((id) =>
      counter(deps, values, id),
    ),
  };
}

/** The home chart: the 30 days before today, as the service's new_txns_window. */
function windowChart(
  rows: readonly DayRow[],
  now: number,
  def: typeof NEW_TXNS_WINDOW,
  column: keyof DayRow,
) {
  const byDay = new Map(rows.map((r) => [r.day, r[column]]));
  const first = rows[0]?.day;
  const chart: Point[] = [];
  for (let t = now - 30 * DAY_MS; t < now - DAY_MS / 2; t += DAY_MS) {
    const d = dayOf(t);
    if (first && d >= first && d < dayOf(now))
      chart.push({ date: d, date_to: d, value: byDay.get(d) ?? "0", is_approximate: false });
  }
  return { chart, info: { ...def, resolutions: ["DAY"] } };
}

/** `/api/v1/pages/main`. */
export async function mainPage(deps: StatsServiceDeps, now = Date.now()) {
  const [values, op, rows] = await Promise.all([
    counterValues(deps, now),
    isOpChain(deps.db),
    dayRows(deps.db),
  ]);
  const c = (id: string) => counter(deps, values, id);
  return {
    average_block_time: c("averageBlockTime"),
    total_addresses: c("totalAddresses"),
    total_blocks: c("totalBlocks"),
    total_transactions: c("totalTxns"),
    yesterday_transactions: c("yesterdayTxns"),
    daily_new_transactions: windowChart(rows, now, NEW_TXNS_WINDOW, "transactions"),
    ...(op
      ? {
          op_stack_total_operational_transactions: c("opStackTotalOperationalTxns"),
          op_stack_yesterday_operational_transactions: c("opStackYesterdayOperationalTxns"),
          op_stack_daily_new_operational_transactions: windowChart(
            rows,
            now,
            OP_NEW_TXNS_WINDOW,
            "operational_transactions",
          ),
        }
      : {}),
  };
}

/** `/api/v1/pages/transactions`. */
export async function transactionsPage(deps: StatsServiceDeps, now = Date.now()) {
  const values = await counterValues(deps, now);
  const c = (id: string) => counter(deps, values, id);
  return {
    pending_transactions_30m: c("pendingTxns30m"),
    transactions_fee_24h: c("txnsFee24h"),
    average_transactions_fee_24h: c("averageTxnFee24h"),
    transactions_24h: c("newTxns24h"),
  };
}

/** `/api/v1/pages/contracts`. */
export async function contractsPage(deps: StatsServiceDeps, now = Date.now()) {
  const values = await counterValues(deps, now);
  const c = (id: string) => counter(deps, values, id);
  return {
    total_contracts: c("totalContracts"),
    new_contracts_24h: c("newContracts24h"),
    total_verified_contracts: c("totalVerifiedContracts"),
    new_verified_contracts_24h: c("newVerifiedContracts24h"),
  };
}

/** `/api/v1/update-status`: every chart is kept with each indexed batch, so every group has completed. */
export function updateStatus() {
  const done = "COMPLETED_INITIAL_UPDATE";
  return {
    all_status: done,
    independent_status: done,
    blocks_dependent_status: done,
    internal_transactions_dependent_status: done,
    user_ops_dependent_status: done,
    zetachain_cctx_dependent_status: done,
  };
}
