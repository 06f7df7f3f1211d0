import { Type } from "@sinclair/typebox";

const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });

/** The frontend's ChartTransactionResponse (charts.ts). */
export const TransactionsChartSchema = Type.Object({
  chart_data: Type.Array(
    Type.Object({ date: Day, transactions_count: Type.Union([Type.Integer(), Type.Null()]) }),
  ),
});

/** The frontend's ChartMarketResponse; with no price source Blockscout sends no days and a supply of 0. */
export const MarketChartSchema = Type.Object({
  chart_data: Type.Array(
    Type.Object({
      date: Day,
      closing_price: Type.Union([Type.String(), Type.Null()]),
      market_cap: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      tvl: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
  ),
  available_supply: Type.Union([Type.String(), Type.Number()]),
});
