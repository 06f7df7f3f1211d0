import type { Address } from "viem";
import { isContractSql } from "../../chain-store/proxies.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

/** The address_counters row (kept by the indexer; numerics as strings). */
export type AddressCountersRow = {
  transactions_count: string;
  token_transfers_count: string;
  gas_used: string;
  gas_used_incoming: string;
  /** Transactions that created the address (not in transactions_count; in the transactions tab's list). */
  created_count: string;
  /** Whether the address holds a contract (the index saw its creation, or it is a token or a proxy). */
  is_contract: boolean;
  validations_count: string;
  internal_transactions_count: string;
  logs_count: string;
  withdrawals_count: string;
};

/** One primary-key probe; null for an address the index never counted. */
export async function addressCounters(db: Queryable, address: Address): Promise<AddressCountersRow | null> {
  const [row] = await db.query<AddressCountersRow>(
    `select transactions_count::text, created_count::text, token_transfers_count::text, gas_used::text,
       gas_used_incoming::text,
       validations_count::text, internal_transactions_count::text, logs_count::text, withdrawals_count::text,
       ${isContractSql("$1")} as is_contract
     from address_counters where address = $1`,
    [toBytea(address)],
  );
  return row ?? null;
}
