import type { AddressCountersRow } from "./query.js";

/** Blockscout caps every tab counter at 51 (Counters.address_limited_counters): "50+" is all a tab shows. */
export const TAB_COUNTER_CAP = 51;

const ZERO: AddressCountersRow = {
  transactions_count: "0",
  token_transfers_count: "0",
  gas_used: "0",
  gas_used_incoming: "0",
  created_count: "0",
  is_contract: false,
  validations_count: "0",
  internal_transactions_count: "0",
  logs_count: "0",
  withdrawals_count: "0",
};

/**
 * Blockscout's gas usage (Counters.address_to_gas_usage_count): a contract's is the gas of the transactions it
 * received, or, when that is 0, of those it sent; any other address's, of those it sent.
 */
export function gasUsage(
  c: Pick<AddressCountersRow, "gas_used" | "gas_used_incoming" | "is_contract">,
): string {
  return c.is_contract && c.gas_used_incoming !== "0" ? c.gas_used_incoming : c.gas_used;
}

/** The frontend's AddressCounters: decimal strings. */
export function countersView(r: AddressCountersRow | null) {
  const c = r ?? ZERO;
  return {
    transactions_count: c.transactions_count,
    token_transfers_count: c.token_transfers_count,
    gas_usage_count: gasUsage(c),
    validations_count: c.validations_count,
  };
}

const capped = (n: string) => Math.min(TAB_COUNTER_CAP, Number(n));

/** The frontend's AddressTabsCounters: numbers capped at 51. */
export function tabsCountersView(r: AddressCountersRow | null, tokenBalancesCount: number) {
  const c = r ?? ZERO;
  return {
    internal_transactions_count: capped(c.internal_transactions_count),
    logs_count: capped(c.logs_count),
    token_balances_count: Math.min(TAB_COUNTER_CAP, tokenBalancesCount),
    token_transfers_count: capped(c.token_transfers_count),
    // The tab lists the address's transactions, its creation included (Blockscout counts from, to and created
    // contract for the tab), so its count does too; /counters' transactions_count leaves the creation out.
    transactions_count: capped(String(BigInt(c.transactions_count) + BigInt(c.created_count))),
    validations_count: capped(c.validations_count),
    withdrawals_count: capped(c.withdrawals_count),
  };
}
