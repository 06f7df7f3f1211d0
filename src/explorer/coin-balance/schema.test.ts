import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { CoinBalanceByDaySchema, CoinBalanceHistorySchema } from "./schema.js";

// blockscout/frontend mocks/address/coinBalanceHistory.ts (as quoted in the spec notes, §6): what the frontend's
// `AddressCoinBalanceHistoryResponse` type admits. Our schema must accept it and reject anything else.
const frontendItem = {
  block_number: 30367643,
  block_timestamp: "2022-12-11T17:55:20Z",
  delta: "-5568096000000000",
  transaction_hash: null,
  value: "107014805905725000000",
};

describe("coin balance history response schema (frontend types)", () => {
  it("accepts the frontend's mock and our own format", () => {
    expect(Value.Check(CoinBalanceHistorySchema, { items: [frontendItem], next_page_params: null })).toBe(
      true,
    );
    const ours = {
      ...frontendItem,
      block_timestamp: "2022-08-02T07:18:05.000000Z",
      transaction_hash: `0x${"ab".repeat(32)}`,
    };
    expect(
      Value.Check(CoinBalanceHistorySchema, {
        items: [ours],
        next_page_params: { block_number: 19400001, items_count: 50 },
      }),
    ).toBe(true);
  });

  it("rejects wrong types, missing and extra fields", () => {
    const page = (item: object, npp: unknown = null) => ({ items: [item], next_page_params: npp });
    const bad = [
      page({ ...frontendItem, block_number: "30367643" }),
      page({ ...frontendItem, value: 1 }),
      page({ ...frontendItem, delta: "1.5" }),
      page({ ...frontendItem, extra: 1 }),
      page({ ...frontendItem, transaction_hash: undefined }),
      page(frontendItem, { block_number: "1", items_count: 50 }),
      page(frontendItem, { block_number: 1 }),
    ];
    for (const b of bad) expect(Value.Check(CoinBalanceHistorySchema, b)).toBe(false);
  });

  it("describes the by-day chart", () => {
    expect(
      Value.Check(CoinBalanceByDaySchema, { items: [{ date: "2024-03-23", value: "5" }], days: 10 }),
    ).toBe(true);
    expect(Value.Check(CoinBalanceByDaySchema, { items: [{ date: "2024-03-23", value: 5 }], days: 10 })).toBe(
      false,
    );
  });
});
