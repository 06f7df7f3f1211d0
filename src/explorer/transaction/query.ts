import type { Address, Hex } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { calleeVerifiedSql } from "../../verifier/store/index-fragments.js";
import { type AddressFactColumns, addressFactsJoin } from "../objects/address-facts.js";
import { TRANSACTION_TYPE_PREDICATES, type TransactionType } from "./filters.js";
import { OP_COLUMNS, OP_JOIN, type OpColumns } from "./op-stack.js";

/** A transaction with its block's fields and the facts its view needs, as one row (numerics as strings). */
export type TransactionRow = {
  hash: Uint8Array;
  block_number: number;
  index: number;
  from_address: Uint8Array;
  to_address: Uint8Array | null;
  value: string;
  nonce: number;
  gas: string;
  gas_price: string | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  type: number;
  input: Uint8Array;
  status: number | null;
  gas_used: string;
  effective_gas_price: string | null;
  contract_address: Uint8Array | null;
  max_fee_per_blob_gas: string | null;
  blob_gas_used: string | null;
  blob_gas_price: string | null;
  blob_versioned_hashes: Uint8Array[] | null;
  timestamp: Date;
  base_fee_per_gas: string | null;
  /** The top-level call frame's error and output; `traced` false when the block's frames were not indexed. */
  traced: boolean;
  error: string | null;
  output: Uint8Array | null;
  internal_error: boolean;
  has_token_transfers: boolean;
  creates_token: boolean;
  /** Newest indexed block (confirmations) and AverageBlockTime in ms: the same on every row of a statement. */
  ctx_head: number;
  ctx_block_time_ms: number;
  /** The callee (or its implementation) is verified on the indexed chain: its ABI may decode the input. */
  callee_verified: boolean;
} & FactsOf<"af"> &
  FactsOf<"at"> &
  FactsOf<"ac"> &
  OpColumns;

/** The address facts of addressFactsJoin(alias), as columns of a row. */
type FactsOf<A extends string> = {
  [K in keyof AddressFactColumns as K extends `o_${infer C}` ? `${A}_${C}` : never]: AddressFactColumns[K];
};

const FROM_FACTS = addressFactsJoin("af", "t.from_address");
const TO_FACTS = addressFactsJoin("at", "t.to_address");
const CREATED_FACTS = addressFactsJoin("ac", "t.contract_address");

/**
 * Columns of TransactionRow for a `transactions t join blocks b` statement. The frame lookups are primary-key
 * probes ((block_number, transaction_index, index) of internal_transactions); whether it moved tokens or created a
 * token the indexer stored with it (migration 100). The context of the view comes along, so a page is one round trip: the address facts of
 * from/to/created (a few primary-key probes each), and the head and average block time as uncorrelated subqueries
 * (init plans, run once per statement: the newest 101 entries of the blocks primary key).
 */
/** Blockscout's AverageBlockTime in ms: the mean gap over the newest 100 blocks (0 with fewer than 2). */
const blockTimeMsSql = (fewerThanTwo: "0" | "null") => `(select case when count(*) < 2 then ${fewerThanTwo}
    else round(extract(epoch from max(timestamp) - min(timestamp)) * 1000 / (count(*) - 1)) end::int8
  from (select timestamp from blocks order by number desc limit 101) bt)`;
const BLOCK_TIME_MS = blockTimeMsSql("0");

export const COLUMNS = `t.hash, t.block_number, t.index, t.from_address, t.to_address, t.value::text as value, t.nonce,
  t.gas::text as gas, t.gas_price::text as gas_price, t.max_fee_per_gas::text as max_fee_per_gas,
  t.max_priority_fee_per_gas::text as max_priority_fee_per_gas, t.type, t.input, t.status, t.gas_used::text as gas_used,
  t.effective_gas_price::text as effective_gas_price, t.contract_address,
  t.max_fee_per_blob_gas::text as max_fee_per_blob_gas, t.blob_gas_used::text as blob_gas_used,
  t.blob_gas_price::text as blob_gas_price, t.blob_versioned_hashes,
  b.timestamp, b.base_fee_per_gas::text as base_fee_per_gas,
  b.internal_transactions_indexed as traced, f.error, f.output,
  exists (select 1 from internal_transactions e where e.block_number = t.block_number
    and e.transaction_index = t.index and e.index > 0 and e.error is not null) as internal_error,
  t.has_token_transfers, t.creates_token,
  (select max(number) from blocks) as ctx_head, ${BLOCK_TIME_MS} as ctx_block_time_ms,
  ${calleeVerifiedSql("t.to_address", "at.o_implementation")} as callee_verified,
  ${FROM_FACTS.columns}, ${TO_FACTS.columns}, ${CREATED_FACTS.columns},
  ${OP_COLUMNS}`;

export const FROM = `join blocks b on b.number = t.block_number
  left join internal_transactions f on f.block_number = t.block_number and f.transaction_index = t.index and f.index = 0
  ${FROM_FACTS.join} ${TO_FACTS.join} ${CREATED_FACTS.join}
  ${OP_JOIN}`;

/** Keyset cursor of transaction lists: (block_number, index), newest first. */
export type TxCursor = { blockNumber: number; index: number };

export async function transactionByHash(db: Queryable, hash: Hex): Promise<TransactionRow | null> {
  const rows = await db.query<TransactionRow>(
    `select ${COLUMNS} from transactions t ${FROM} where t.hash = $1`,
    [toBytea(hash)],
    { prepare: true },
  );
  return rows[0] ?? null;
}

export function cursorCondition(c: TxCursor | null, params: unknown[]): string {
  if (!c) return "";
  params.push(c.blockNumber, c.index);
  return ` and (t.block_number, t.index) < ($${params.length - 1}, $${params.length})`;
}

/** All validated transactions, newest first: a backward scan of the (block_number, index) unique index. */
export async function transactionsPage(db: Queryable, cursor: TxCursor | null, limit: number) {
  const params: unknown[] = [limit];
  const where = cursorCondition(cursor, params);
  return db.query<TransactionRow>(
    `select ${COLUMNS} from (select * from transactions t where true${where}
       order by t.block_number desc, t.index desc limit $1) t ${FROM}
     order by t.block_number desc, t.index desc`,
    params,
    { prepare: true },
  );
}

/** What `/transactions` keeps: any of `types` (null: all), with a selector among `methods` (null: any). */
export type TransactionFilter = { types: readonly TransactionType[] | null; methods: readonly Hex[] | null };

/** The selector expression of migration 100's index (the planner matches the text). */
const SELECTOR = "substring(t.input from 1 for 4)";

/**
 * Filtered validated transactions, newest first. Each type is a backward scan of its partial index and each
 * selector of the selector index (the types then filter along it), each limited to the page; the scans are
 * merged and cut to the page, so a page costs a few short range scans however rare the type or deep the cursor.
 */
export async function filteredTransactionsPage(
  db: Queryable,
  filter: TransactionFilter,
  cursor: TxCursor | null,
  limit: number,
) {
  const params: unknown[] = [limit];
  const where = cursorCondition(cursor, params);
  const typed = (filter.types ?? []).map((k) => TRANSACTION_TYPE_PREDICATES[k]);
  const scan = (condition: string) =>
    `(select t.hash, t.block_number, t.index from transactions t where ${condition}${where}
      order by t.block_number desc, t.index desc limit $1)`;
  const scans = filter.methods?.length
    ? filter.methods.map((m) => {
        params.push(toBytea(m));
        const any = typed.length ? ` and (${typed.join(" or ")})` : "";
        return scan(`length(t.input) >= 4 and ${SELECTOR} = $${params.length}${any}`);
      })
    : typed.map(scan);
  return db.query<TransactionRow>(
    `select ${COLUMNS} from (select distinct on (block_number, index) hash from (${scans.join(" union all ")}) s
       order by block_number desc, index desc limit $1) p
     join transactions t on t.hash = p.hash ${FROM}
     order by t.block_number desc, t.index desc`,
    params,
    // One text per combination of types and number of selectors.
    { prepare: true },
  );
}

/** The transactions of one block in index order (Blockscout lists a block's transactions ascending). */
export async function blockTransactionsPage(
  db: Queryable,
  blockNumber: number,
  afterIndex: number | null,
  limit: number,
  types: readonly TransactionType[] | null = null,
) {
  // `type=` (Blockscout's block transactions filter) along the block's range: a block bounds the scan.
  const typed = types?.length
    ? ` and (${types.map((k) => TRANSACTION_TYPE_PREDICATES[k]).join(" or ")})`
    : "";
  return db.query<TransactionRow>(
    `select ${COLUMNS} from (select * from transactions t where t.block_number = $1 and t.index > $2${typed}
       order by t.index limit $3) t ${FROM} order by t.index`,
    [blockNumber, afterIndex ?? -1, limit],
    { prepare: true },
  );
}

export type AddressTxFilter = "to" | "from" | null;

/**
 * Transactions from, to, or creating `address`, newest first. Each side is its own range scan of its index
 * (from_address / to_address, block_number desc, index desc; contract_creations by address) limited to the page,
 * merged and cut to the page: the cost of a page does not grow with its depth.
 */
export async function addressTransactionsPage(
  db: Queryable,
  address: Address,
  filter: AddressTxFilter,
  cursor: TxCursor | null,
  limit: number,
) {
  const params: unknown[] = [toBytea(address), limit];
  const where = cursorCondition(cursor, params);
  const side = (col: string) =>
    `(select t.hash, t.block_number, t.index from transactions t where t.${col} = $1${where}
      order by t.block_number desc, t.index desc limit $2)`;
  const sides: string[] = [];
  if (filter !== "to") sides.push(side("from_address"));
  if (filter !== "from") {
    sides.push(side("to_address"));
    sides.push(`(select t.hash, t.block_number, t.index from contract_creations c
      join transactions t on t.hash = c.transaction_hash
      where c.address = $1 and c.kind = 'transaction'${where} order by t.block_number desc, t.index desc limit $2)`);
  }
  return db.query<TransactionRow>(
    `select ${COLUMNS} from (select distinct on (block_number, index) hash from (${sides.join(" union all ")}) s
       order by block_number desc, index desc limit $2) p
     join transactions t on t.hash = p.hash ${FROM}
     order by t.block_number desc, t.index desc`,
    params,
    { prepare: true },
  );
}

/**
 * The transactions of blocks `from..to` that are from, to, or create one of `addresses`, newest first (the
 * socket's per-address `transaction` events): the range bounds the scan, whatever the number of addresses.
 */
export async function rangeAddressTransactions(
  db: Queryable,
  addresses: readonly Address[],
  from: number,
  to: number,
  limit: number,
) {
  return db.query<TransactionRow>(
    `select ${COLUMNS} from (select * from transactions t where t.block_number between $2 and $3
       and (t.from_address = any($1::bytea[]) or t.to_address = any($1::bytea[])
         or t.contract_address = any($1::bytea[]))
       order by t.block_number desc, t.index desc limit $4) t ${FROM}
     order by t.block_number desc, t.index desc`,
    [addresses.map(toBytea), from, to, limit],
  );
}

/** The number of the newest indexed block (a countdown is counted from it). */
export async function headBlockNumber(db: Queryable): Promise<number | null> {
  const rows = await db.query<{ n: number | null }>("select max(number) as n from blocks");
  return rows[0]?.n ?? null;
}

/** Blockscout's AverageBlockTime in milliseconds: the mean gap over the newest 100 blocks (0 with fewer than 2). */
export async function averageBlockTimeMs(db: Queryable): Promise<number> {
  return (await knownBlockTimeMs(db)) ?? 0;
}

/** The average block time, null while fewer than two blocks are indexed (a known average may be 0 s). */
export async function knownBlockTimeMs(db: Queryable): Promise<number | null> {
  const rows = await db.query<{ ms: number | string | null }>(`select ${blockTimeMsSql("null")} as ms`);
  const ms = rows[0]?.ms;
  return ms == null ? null : Number(ms);
}

/** One EIP-7702 authorization of a set-code transaction (numerics as decimal strings). */
export type AuthorizationRow = {
  index: number;
  chain_id: string;
  address: Uint8Array;
  nonce: string;
  v: string;
  r: string;
  s: string;
  authority: Uint8Array | null;
  status: string;
};

/** The authorization list of the transaction at (block, index), in list order: a primary-key prefix range. */
export async function transactionAuthorizations(
  db: Queryable,
  blockNumber: number,
  transactionIndex: number,
): Promise<AuthorizationRow[]> {
  return db.query<AuthorizationRow>(
    `select index, chain_id::text as chain_id, address, nonce::text as nonce, v::text as v, r::text as r,
       s::text as s, authority, status
     from transaction_authorizations where block_number = $1 and transaction_index = $2 order by index`,
    [blockNumber, transactionIndex],
    { prepare: true },
  );
}
