import { Type } from "@sinclair/typebox";

const Count = Type.String({ pattern: "^[0-9]+$" });
const Tab = Type.Union([Type.Integer({ minimum: 0, maximum: 51 }), Type.Null()]);

/** The frontend's AddressCounters: decimal strings. */
export const AddressCountersSchema = Type.Object({
  transactions_count: Count,
  token_transfers_count: Count,
  gas_usage_count: Type.Union([Count, Type.Null()]),
  validations_count: Type.Union([Count, Type.Null()]),
});

/** The frontend's AddressTabsCounters: numbers, capped at 51 as Blockscout caps them. */
export const AddressTabsCountersSchema = Type.Object({
  internal_transactions_count: Tab,
  logs_count: Tab,
  token_balances_count: Tab,
  token_transfers_count: Tab,
  transactions_count: Tab,
  validations_count: Tab,
  withdrawals_count: Tab,
});
