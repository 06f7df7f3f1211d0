import type { ChartDef, DayColumn, DayRow, Resolution } from "./catalogue.js";

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** `num / den` as a decimal string with at most `decimals` places (half up, trailing zeros dropped); 0 when den is 0. */
export function decimal(num: bigint, den: bigint, decimals: number): string {
  if (den === 0n) return "0";
  const scale = 10n ** BigInt(decimals);
  const neg = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const q = (n * scale * 2n + d) / (2n * d);
  const whole = (q / scale).toString();
  const frac = decimals ? (q % scale).toString().padStart(decimals, "0").replace(/0+$/, "") : "";
  return `${neg && q !== 0n ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

/** The first day of the period holding `day` (weeks start on Monday, as the service's). */
export function periodStart(day: string, resolution: Resolution): string {
  const d = new Date(ms(day));
  if (resolution === "DAY") return day;
  if (resolution === "WEEK") return iso(ms(day) - ((d.getUTCDay() + 6) % 7) * DAY_MS);
  if (resolution === "MONTH") return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  return iso(Date.UTC(d.getUTCFullYear(), 0, 1));
}

/** The last day of the period starting at `start`. */
function periodEnd(start: string, resolution: Resolution): string {
  const d = new Date(ms(start));
  if (resolution === "DAY") return start;
  if (resolution === "WEEK") return iso(ms(start) + 6 * DAY_MS);
  if (resolution === "MONTH") return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - DAY_MS);
  return iso(Date.UTC(d.getUTCFullYear() + 1, 0, 1) - DAY_MS);
}

export type Point = { date: string; date_to: string; value: string; is_approximate: boolean };

const big = (row: DayRow | undefined, c: DayColumn) => BigInt(row?.[c] ?? 0);

/**
 * A chart's points from the day rows (ascending, from the index's first day): every day from the first to the last
 * is a point (a day without blocks is 0, a growth keeps its total), those in [from, to] are grouped by period, and
 * each period gets its value from its days' sums (a growth: its total at the period's last day). `date_to` is the
 * period's last day, or the last day there is when the period is not over.
 */
export function chartPoints(
  rows: readonly DayRow[],
  def: ChartDef,
  resolution: Resolution,
  range: { from?: string; to?: string },
): Point[] {
  if (!rows.length) return [];
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const first = rows[0]!.day;
  const last = rows[rows.length - 1]!.day;
  const from = range.from && range.from > first ? range.from : first;
  const to = range.to && range.to < last ? range.to : last;
  const v = def.value;
  let total = 0n;
  type Acc = { start: string; end: string; a: bigint; b: bigint; total: bigint };
  const periods: Acc[] = [];
  for (let t = ms(first); t <= ms(to); t += DAY_MS) {
    const day = iso(t);
    const row = byDay.get(day);
    if (v.kind === "growth") total += big(row, v.column);
    if (day < from) continue;
    const start = periodStart(day, resolution);
    let p = periods[periods.length - 1];
    if (!p || p.start !== start) {
      p = { start, end: day, a: 0n, b: 0n, total };
      periods.push(p);
    }
    p.end = day;
    p.total = total;
    if (v.kind === "sum") p.a += big(row, v.column);
    if (v.kind === "ratio") {
      p.a += big(row, v.numerator);
      p.b += big(row, v.denominator);
    }
  }
  return periods.map((p) => {
    const end = periodEnd(p.start, resolution);
    let value: string;
    if (v.kind === "growth") value = decimal(p.total, v.divisor ?? 1n, v.decimals ?? 0);
    else if (v.kind === "sum") value = decimal(p.a, v.divisor ?? 1n, v.decimals ?? 0);
    else value = decimal(p.a * (v.times ?? 1n), p.b * v.divisor, v.decimals);
    return { date: p.start, date_to: end < last ? end : last, value, is_approximate: false };
  });
}
