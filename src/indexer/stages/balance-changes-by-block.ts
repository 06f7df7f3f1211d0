/**
 * The condition a statement adds to read coin_balance_changes (as `table`) by block range through its block index
 * (migration 182), which is partial on it. Every row meets it (an unchanged balance is not stored), so it changes no
 * result; an address's pages, which do not state it, cannot use that index and keep to the primary key.
 */
export const byBlock = (table = "coin_balance_changes"): string => `${table}.delta <> 0`;
