import { INDEXED_FROM_GENESIS_SQL } from "../chain-store/checkpoint.js";
import { NEWEST_CREATION_ORDER } from "../chain-store/creations.js";
import { newestProxySql } from "../chain-store/proxies.js";
import type { InternalTransactionsRow } from "../chain-store/rows.js";
import type { Queryable } from "../db/db.js";
import type { BlockRow } from "../explorer/block/query.js";
import type { TransactionRow as ExplorerTransactionRow } from "../explorer/transaction/query.js";
import { keysetSql, type PagePlan, scanOrder } from "./paging.js";

/**
 * The GraphQL API's reads: the explorer's tables, each statement keyset-paged on an index and taking a batch of
 * parents (`unnest` + `lateral`), so a query costs a statement per field of its shape, never one per item.
 */

export type AddressRow = {
  address: Uint8Array;
  seen: boolean;
  balance: string | null;
  balance_block: number | null;
  code: Uint8Array | null;
  delegate: Uint8Array | null;
  nonce: number | null;
  transactions_count: number | null;
  token_transfers_count: number | null;
  gas_used: string | null;
};

/**
 * Addresses by hash: the balance as the address object shows it (the newest change; 0 since its first block when the
 * index starts at genesis), the newest creation's code (or an EIP-7702 delegation's designation), the nonce of its
 * newest transaction, the counters the indexer keeps. Primary-key and index probes per address.
 */
export function addressRows(db: Queryable, addresses: readonly Buffer[]): Promise<AddressRow[]> {
  return db.query<AddressRow>(
    `select a.k as address,
       (x.address is not null or n.address is not null or cb.address is not null) as seen,
       coalesce(cb.value::text, case when x.address is not null
         and ${INDEXED_FROM_GENESIS_SQL} then '0' end) as balance,
       coalesce(cb.block_number, case when ${INDEXED_FROM_GENESIS_SQL}
         then x.first_block end) as balance_block,
       (select runtime_code from contract_creations c where c.address = a.k
         order by ${NEWEST_CREATION_ORDER} limit 1) as code,
       (select case when d.proxy_type = 'eip7702' then d.implementation end
         from ${newestProxySql("a.k", "proxy_type, implementation")} d) as delegate,
       (select t.nonce from transactions t where t.from_address = a.k
         order by t.block_number desc, t.index desc limit 1) as nonce,
       n.transactions_count, n.token_transfers_count, n.gas_used::text as gas_used
     from unnest($1::bytea[]) a(k)
       left join addresses x on x.address = a.k
       left join address_counters n on n.address = a.k
       left join address_coin_balances cb on cb.address = a.k`,
    [addresses],
  );
}

/** The explorer's transaction row, its members that the GraphQL object reads, plus the receipt's and block's. */
export type TransactionRow = Pick<
  ExplorerTransactionRow,
  | "hash"
  | "block_number"
  | "index"
  | "from_address"
  | "to_address"
  | "value"
  | "nonce"
  | "gas"
  | "gas_price"
  | "max_fee_per_gas"
  | "max_priority_fee_per_gas"
  | "type"
  | "input"
  | "status"
  | "gas_used"
  | "contract_address"
  | "traced"
  | "error"
  | "internal_error"
> & { cumulative_gas_used: string; block_hash: Uint8Array; revert_reason: string | null };

const TX_COLUMNS = `t.hash, t.block_number, t.index, t.from_address, t.to_address, t.value::text as value, t.nonce,
  t.gas::text as gas, coalesce(t.gas_price, t.effective_gas_price)::text as gas_price,
  t.max_fee_per_gas::text as max_fee_per_gas, t.max_priority_fee_per_gas::text as max_priority_fee_per_gas, t.type,
  t.input, t.status, t.gas_used::text as gas_used, t.cumulative_gas_used::text as cumulative_gas_used,
  t.contract_address, b.hash as block_hash, t.revert_reason, b.internal_transactions_indexed as traced, f.error,
  exists (select 1 from internal_transactions e where e.block_number = t.block_number
    and e.transaction_index = t.index and e.index > 0 and e.error is not null) as internal_error`;

// The block (primary key) and the top call frame (primary key), for the hash and the error.
const TX_JOINS = `join blocks b on b.number = t.block_number
  left join internal_transactions f on f.block_number = t.block_number and f.transaction_index = t.index
    and f.index = 0`;

/** Transactions by hash (primary key). */
export function transactionRows(db: Queryable, hashes: readonly Buffer[]): Promise<TransactionRow[]> {
  return db.query<TransactionRow>(
    `select ${TX_COLUMNS} from transactions t ${TX_JOINS} where t.hash = any($1::bytea[])`,
    [hashes],
  );
}

/**
 * A page of the transactions from, to or creating each of `owners` (Blockscout's address_to_transactions_query),
 * by (block_number, index): per owner one range scan of transactions_from_idx, of transactions_to_idx and of the
 * contract's creations, each limited to the page, merged and cut. Rows in scan order, tagged with their owner.
 */
export function addressTransactionPages(
  db: Queryable,
  owners: readonly Buffer[],
  plan: PagePlan,
): Promise<Array<TransactionRow & { owner: Uint8Array }>> {
  const params: unknown[] = [owners, plan.limit];
  const keyset = keysetSql(plan, ["t.block_number", "t.index"], params);
  const order = scanOrder(plan, ["block_number", "index"]);
  const side = (column: string) =>
    `(select t.hash, t.block_number, t.index from transactions t where t.${column} = o.owner${keyset}
      order by ${scanOrder(plan, ["t.block_number", "t.index"])} limit $2)`;
  return db.query(
    `select p.owner, ${TX_COLUMNS} from (
       select o.owner, s.hash from unnest($1::bytea[]) o(owner) cross join lateral (
         select distinct on (block_number, index) hash, block_number, index from (
           ${side("from_address")} union all ${side("to_address")}
           union all (select t.hash, t.block_number, t.index from contract_creations c
             join transactions t on t.hash = c.transaction_hash
             where c.address = o.owner and c.kind = 'transaction'${keyset}
             order by ${scanOrder(plan, ["t.block_number", "t.index"])} limit $2)) u
         order by ${order} limit $2) s) p
     join transactions t on t.hash = p.hash ${TX_JOINS}
     order by p.owner, ${scanOrder(plan, ["t.block_number", "t.index"])}`,
    params,
  );
}

/** A whole internal transaction row: the frame's data and trace address too. */
export type InternalRow = InternalTransactionsRow;

const INTERNAL_COLUMNS = `i.block_number, i.transaction_index, i.index, i.transaction_hash, i.type, i.call_type,
  i.from_address, i.to_address, i.created_contract_address, i.value::text as value, i.gas::text as gas,
  i.gas_used::text as gas_used, i.input, i.output, i.error, i.trace_address`;

// Blockscout's where_is_different_from_parent_transaction: the top-level call repeats the transaction.
const NOT_PARENT = "not (i.type = 'call' and i.index = 0)";

/** A page of each transaction's internal transactions by index ((transaction_hash, index) index). */
export function internalTransactionPages(
  db: Queryable,
  hashes: readonly Buffer[],
  plan: PagePlan,
): Promise<InternalRow[]> {
  const params: unknown[] = [hashes, plan.limit];
  const keyset = keysetSql(plan, ["i.index"], params);
  return db.query<InternalRow>(
    `select ${INTERNAL_COLUMNS} from unnest($1::bytea[]) o(h) cross join lateral (
       select ${INTERNAL_COLUMNS} from internal_transactions i where i.transaction_hash = o.h and ${NOT_PARENT}${keyset}
       order by ${scanOrder(plan, ["i.index"])} limit $2) i
     order by i.transaction_hash, ${scanOrder(plan, ["i.index"])}`,
    params,
  );
}

/** One internal transaction by its transaction's hash and index (the Node interface). */
export async function internalTransactionRow(
  db: Queryable,
  hash: Buffer,
  index: number,
): Promise<InternalRow | null> {
  const [row] = await db.query<InternalRow>(
    `select ${INTERNAL_COLUMNS} from internal_transactions i where i.transaction_hash = $1 and i.index = $2
       and ${NOT_PARENT}`,
    [hash, index],
  );
  return row ?? null;
}

/** A token transfer's log: its transfers are one node (an ERC-1155 batch holds several ids). */
export type TransferKey = { block_number: number; log_index: number };

/** A page of a token's transfers, newest first by log (token_transfers_token_idx). */
export function tokenTransferKeys(db: Queryable, token: Buffer, plan: PagePlan): Promise<TransferKey[]> {
  const params: unknown[] = [token, plan.limit];
  const keyset = keysetSql(plan, ["tt.block_number", "tt.log_index"], params);
  return db.query<TransferKey>(
    `select distinct on (tt.block_number, tt.log_index) tt.block_number, tt.log_index from token_transfers tt
     where tt.token_address = $1${keyset}
     order by ${scanOrder(plan, ["tt.block_number", "tt.log_index"])} limit $2`,
    params,
  );
}

/**
 * A page of the transfers from or to each of `owners`, by log: per owner a range scan of token_transfers_from_page_idx
 * and of token_transfers_to_page_idx, each limited to the page, merged (a transfer to oneself once) and cut.
 */
export function addressTransferKeys(
  db: Queryable,
  owners: readonly Buffer[],
  plan: PagePlan,
): Promise<Array<TransferKey & { owner: Uint8Array }>> {
  const params: unknown[] = [owners, plan.limit];
  const keyset = keysetSql(plan, ["tt.block_number", "tt.log_index"], params);
  const order = scanOrder(plan, ["tt.block_number", "tt.log_index"]);
  const side = (column: string) =>
    `(select distinct on (tt.block_number, tt.log_index) tt.block_number, tt.log_index from token_transfers tt
      where tt.${column} = o.owner${keyset} order by ${order} limit $2)`;
  return db.query(
    `select o.owner, s.block_number, s.log_index from unnest($1::bytea[]) o(owner) cross join lateral (
       select distinct on (block_number, log_index) block_number, log_index from (
         ${side("from_address")} union all ${side("to_address")}) u
       order by ${scanOrder(plan, ["block_number", "log_index"])} limit $2) s
     order by o.owner, ${scanOrder(plan, ["s.block_number", "s.log_index"])}`,
    params,
  );
}

export type TransferRow = TransferKey & {
  batch_index: number;
  transaction_hash: Uint8Array;
  token_address: Uint8Array;
  kind: string;
  from_address: Uint8Array;
  to_address: Uint8Array;
  token_id: string | null;
  amount: string;
  is_batch: boolean;
};

const TRANSFER_BATCH_TOPIC = "\\x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb";

/** Every row of the given logs' transfers (primary key), with whether the log is an ERC-1155 TransferBatch. */
export function transferRows(db: Queryable, keys: readonly TransferKey[]): Promise<TransferRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.query<TransferRow>(
    `select tt.block_number, tt.log_index, tt.batch_index, tt.transaction_hash, tt.token_address, tt.kind,
       tt.from_address, tt.to_address, tt.token_id::text as token_id, tt.amount::text as amount,
       coalesce(l.topic0 = '${TRANSFER_BATCH_TOPIC}'::bytea, false) as is_batch
     from unnest($1::int8[], $2::int4[]) k(b, li)
       join token_transfers tt on tt.block_number = k.b and tt.log_index = k.li
       left join logs l on l.block_number = tt.block_number and l.log_index = tt.log_index
     order by tt.block_number, tt.log_index, tt.batch_index`,
    [keys.map((k) => k.block_number), keys.map((k) => k.log_index)],
  );
}

/** The log of a transaction's transfer (the Node interface): its block from the transaction's primary key. */
export async function transferKeyOf(
  db: Queryable,
  hash: Buffer,
  logIndex: number,
): Promise<TransferKey | null> {
  const [row] = await db.query<TransferKey>(
    `select tt.block_number, tt.log_index from token_transfers tt
     where tt.block_number = (select block_number from transactions where hash = $1) and tt.log_index = $2
       and tt.transaction_hash = $1 limit 1`,
    [hash, logIndex],
  );
  return row ?? null;
}

export type GraphqlBlockRow = Pick<
  BlockRow,
  | "number"
  | "hash"
  | "parent_hash"
  | "timestamp"
  | "miner"
  | "gas_used"
  | "gas_limit"
  | "base_fee_per_gas"
  | "size"
  | "transaction_count"
  | "nonce"
  | "difficulty"
  | "total_difficulty"
>;

/** Blocks by number (primary key). */
export function blockRows(db: Queryable, numbers: readonly number[]): Promise<GraphqlBlockRow[]> {
  return db.query<GraphqlBlockRow>(
    `select number, hash, parent_hash, timestamp, miner, gas_used::text as gas_used, gas_limit::text as gas_limit,
       base_fee_per_gas::text as base_fee_per_gas, size, transaction_count, nonce, difficulty::text as difficulty,
       total_difficulty::text as total_difficulty
     from blocks where number = any($1::int8[])`,
    [numbers],
  );
}

export type TokenRow = {
  address: Uint8Array;
  type: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  total_supply: string | null;
  holders_count: number;
};

/** Tokens by contract address (primary key). */
export function tokenRows(db: Queryable, addresses: readonly Buffer[]): Promise<TokenRow[]> {
  return db.query<TokenRow>(
    `select address, type, name, symbol, decimals::text as decimals, total_supply::text as total_supply, holders_count
     from tokens where address = any($1::bytea[])`,
    [addresses],
  );
}

/** The newest indexed transaction (GraphiQL's default query), or null on an empty index. */
export async function newestTransactionHash(db: Queryable): Promise<Uint8Array | null> {
  const [row] = await db.query<{ hash: Uint8Array }>(
    "select hash from transactions order by block_number desc, index desc limit 1",
  );
  return row?.hash ?? null;
}
