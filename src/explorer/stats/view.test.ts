import { describe, expect, it } from "vitest";
import { gasPricesView, indexingStatusView, statsView } from "./view.js";

describe("home page stats", () => {
  it("reads totals from the counters and computes utilisation over the recent blocks", () => {
    const s = statsView({
      counters: new Map([
        ["transactions", "42"],
        ["addresses", "7"],
        ["gas_used", "900"],
      ]),
      indexedBlocks: 10,
      averageBlockTimeMs: 2000,
      today: { transactions: "5", gas_used: "100" },
      recentGas: { gas_used: "1", gas_limit: "3" },
    });
    expect(s).toMatchObject({
      total_blocks: "10",
      total_transactions: "42",
      total_addresses: "7",
      total_gas_used: "900",
      average_block_time: 2000,
      transactions_today: "5",
      gas_used_today: "100",
    });
    expect(s.network_utilization_percentage).toBeCloseTo(33.3333, 3);
    expect(
      statsView({
        ...{ counters: new Map(), indexedBlocks: 0, averageBlockTimeMs: 0 },
        today: { transactions: "0", gas_used: "0" },
        recentGas: { gas_used: "0", gas_limit: "0" },
      }),
    ).toMatchObject({ total_transactions: "0", network_utilization_percentage: 0 });
  });

  it("says indexing is unfinished while the indexer catches up or nothing is indexed", () => {
    const all = { indexed: 10, span: 10 };
    expect(indexingStatusView(false, all)).toMatchObject({
      finished_indexing: false,
      finished_indexing_blocks: false,
    });
    expect(indexingStatusView(true, { indexed: 0, span: 0 })).toMatchObject({
      finished_indexing: false,
      indexed_blocks_ratio: "0.00",
    });
    // History catching up beside the head: at the head, yet not finished; never rounded up to 1.00.
    expect(indexingStatusView(true, { indexed: 999, span: 1000 })).toMatchObject({
      finished_indexing_blocks: false,
      indexed_blocks_ratio: "0.99",
    });
    expect(indexingStatusView(true, { indexed: 120, span: 1000 })).toMatchObject({
      indexed_blocks_ratio: "0.12",
    });
    expect(indexingStatusView(true, all)).toEqual({
      finished_indexing: true,
      finished_indexing_blocks: true,
      indexed_blocks_ratio: "1.00",
      indexed_internal_transactions_ratio: "1.00",
    });
  });

  it("computes the gas price oracle as Blockscout does: mean of per-block percentiles, in gwei rounded up", () => {
    const gwei = 1_000_000_000n;
    const block = (n: number, price: bigint[], prio: Array<bigint | null>) => ({
      block_number: n,
      slow_price: String(price[0]),
      average_price: String(price[1]),
      fast_price: String(price[2]),
      slow_priority: prio[0] === null ? null : String(prio[0]),
      average_priority: prio[1] === null ? null : String(prio[1]),
      fast_priority: prio[2] === null ? null : String(prio[2]),
    });
    const blocks = [
      block(9, [2n * gwei, 3n * gwei, 5n * gwei], [1n * gwei, 2n * gwei, 4n * gwei]),
      block(8, [2n * gwei, 4n * gwei, 6n * gwei], [2n * gwei, 3n * gwei, 5n * gwei]),
    ];
    // Priority fee path: mean priority + base fee.
    const withBase = gasPricesView(blocks, String(gwei / 3n), 2000);
    expect(withBase.slow).toEqual({
      price: 1.84, // 1.5 + 0.333333333 gwei, rounded up to 0.01
      priority_fee: 1.5,
      base_fee: 0.34,
      time: 2000,
      fiat_price: null,
    });
    expect(withBase.average?.price).toBe(2.84);
    expect(withBase.fast?.price).toBe(4.84);
    // No base fee (pre-London chain): the gas price percentiles.
    const legacy = gasPricesView(blocks, null, 2000);
    expect(legacy.slow).toMatchObject({ price: 2, priority_fee: null, base_fee: null });
    expect(legacy.average).toMatchObject({ price: 3.5 });
    expect(legacy.fast).toMatchObject({ price: 5.5 });
    // A level without any priority fee: every level falls back to gas prices.
    const mixed = gasPricesView([block(9, [gwei, gwei, gwei], [null, gwei, gwei])], "7", 0);
    expect(mixed.average).toMatchObject({ price: 1, priority_fee: null, time: null });
    // No paying transaction in range: every level null, as Blockscout answers.
    expect(gasPricesView([], "7", 2000)).toEqual({ slow: null, average: null, fast: null });
  });
});
