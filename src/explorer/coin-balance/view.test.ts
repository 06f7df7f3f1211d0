import { describe, expect, it } from "vitest";
import type { CoinBalanceRow } from "./query.js";
import { blockTimestamp, coinBalanceByDay, coinBalanceHistory, coinBalanceSummary } from "./view.js";

const row = (n: number): CoinBalanceRow => ({
  block_number: n,
  value: String(n * 10),
  delta: n % 2 ? "-3" : "10",
  transaction_hash: n % 3 ? Buffer.alloc(32, n) : null,
  block_timestamp: new Date(Date.UTC(2022, 7, 2, 7, 18, 5)),
});

describe("coin balance views", () => {
  it("formats block times with microseconds and Z", () => {
    expect(blockTimestamp(new Date(Date.UTC(2022, 7, 2, 7, 18, 5)))).toBe("2022-08-02T07:18:05.000000Z");
  });

  it("builds a page of 50 and the cursor from the last item only when a 51st row exists", () => {
    const rows = Array.from({ length: 51 }, (_, i) => row(100 - i));
    const page = coinBalanceHistory(rows);
    expect(page.items).toHaveLength(50);
    expect(page.next_page_params).toEqual({ block_number: 51, items_count: 50 });
    expect(page.items[0]).toEqual({
      block_number: 100,
      block_timestamp: "2022-08-02T07:18:05.000000Z",
      delta: "10",
      transaction_hash: `0x${"64".repeat(32)}`,
      value: "1000",
    });
    expect(coinBalanceHistory(rows.slice(0, 50)).next_page_params).toBeNull();
    expect(coinBalanceHistory([])).toEqual({ items: [], next_page_params: null });
    expect(coinBalanceHistory([row(3)]).items[0]!.transaction_hash).toBeNull();
  });

  it("starts the by-day chart at the carried balance when the first day has no change", () => {
    const daily = { days: [{ day: "2024-01-05", value: "7" }], carried: "3" };
    expect(coinBalanceByDay(daily, "2024-01-01", 10)).toEqual({
      items: [
        { date: "2024-01-01", value: "3" },
        { date: "2024-01-05", value: "7" },
      ],
      days: 10,
    });
    expect(
      coinBalanceByDay({ days: [{ day: "2024-01-01", value: "7" }], carried: "3" }, "2024-01-01", 10).items,
    ).toEqual([{ date: "2024-01-01", value: "7" }]);
    expect(coinBalanceByDay({ days: [], carried: null }, "2024-01-01", 5)).toEqual({ items: [], days: 5 });
  });

  it("summarises the latest balance for the address object", () => {
    expect(coinBalanceSummary({ value: "5", block_number: 9 })).toEqual({
      coin_balance: "5",
      block_number_balance_updated_at: 9,
    });
    expect(coinBalanceSummary(null)).toEqual({ coin_balance: null, block_number_balance_updated_at: null });
  });
});
