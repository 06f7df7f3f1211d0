import { describe, expect, it } from "vitest";
import { indexingStatusView, statsView } from "./view.js";

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
    expect(indexingStatusView(false, true)).toMatchObject({
      finished_indexing: false,
      finished_indexing_blocks: false,
    });
    expect(indexingStatusView(true, false)).toMatchObject({
      finished_indexing: false,
      indexed_blocks_ratio: "0.00",
    });
    expect(indexingStatusView(true, true)).toEqual({
      finished_indexing: true,
      finished_indexing_blocks: true,
      indexed_blocks_ratio: "1.00",
      indexed_internal_transactions_ratio: "1.00",
    });
  });
});
