/**
 * The rows of the indexed `logs` and `internal_transactions` tables as every reader gets them (docs/architecture.md,
 * "One owner per table fact"): int8 and int4 as numbers, numerics as decimal strings (selected `::text`), bytea as
 * bytes. A query selects the columns it needs: its row type is a `Pick` of these, plus what it joins.
 */

/** A `logs` row. */
export type LogsRow = {
  block_number: number;
  log_index: number;
  transaction_hash: Uint8Array;
  transaction_index: number;
  address: Uint8Array;
  topic0: Uint8Array | null;
  topic1: Uint8Array | null;
  topic2: Uint8Array | null;
  topic3: Uint8Array | null;
  data: Uint8Array;
};

/** An `internal_transactions` row (one call frame); `value`, `gas` and `gas_used` selected as text. */
export type InternalTransactionsRow = {
  block_number: number;
  transaction_index: number;
  index: number;
  transaction_hash: Uint8Array;
  type: string;
  call_type: string | null;
  from_address: Uint8Array;
  to_address: Uint8Array | null;
  created_contract_address: Uint8Array | null;
  value: string;
  gas: string | null;
  gas_used: string | null;
  input: Uint8Array | null;
  output: Uint8Array | null;
  error: string | null;
  trace_address: number[];
};
