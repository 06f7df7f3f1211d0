import type { Address, Hex } from "viem";
import { everContractSql, newestProxySql } from "../../chain-store/proxies.js";
import type { InternalTransactionsRow, LogsRow } from "../../chain-store/rows.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { calleeVerifiedSql } from "../../verifier/store/index-fragments.js";

/** The block range of an export's period; `empty` when the period holds no indexed block. */
export type BlockRange = { from: number | null; to: number | null; empty: boolean };

/**
 * The blocks of a period as Blockscout's CsvExport.Helper.block_from_period finds them: the first block at or after
 * the start, the last at or before the end (blocks_timestamp_idx, one probe each).
 */
export async function blockRange(db: Queryable, from: Date | null, to: Date | null): Promise<BlockRange> {
  const [r] = await db.query<{ from_block: number | string | null; to_block: number | string | null }>(
    `select (select number from blocks where timestamp >= $1 order by timestamp limit 1) as from_block,
       (select number from blocks where timestamp <= $2 order by timestamp desc limit 1) as to_block`,
    [from ?? new Date(0), to ?? new Date(8.64e15)],
  );
  const f = r?.from_block == null ? null : Number(r.from_block);
  const t = r?.to_block == null ? null : Number(r.to_block);
  const empty =
    (from !== null && f === null) || (to !== null && t === null) || (f !== null && t !== null && f > t);
  return { from: from ? f : null, to: to ? t : null, empty };
}

/** Range conditions on `col` with their parameters appended to `params`. */
function rangeSql(col: string, r: BlockRange, params: unknown[]): string {
  let sql = "";
  if (r.from !== null) {
    params.push(r.from);
    sql += ` and ${col} >= $${params.length}`;
  }
  if (r.to !== null) {
    params.push(r.to);
    sql += ` and ${col} <= $${params.length}`;
  }
  return sql;
}

const IS_CONTRACT = everContractSql;
const IMPLEMENTATION = (col: string) => newestProxySql(col);

export type CsvTransactionRow = {
  hash: Uint8Array;
  block_number: number;
  index: number;
  timestamp: Date;
  from_address: Uint8Array;
  to_address: Uint8Array | null;
  contract_address: Uint8Array | null;
  value: string;
  price: string | null;
  gas_used: string;
  status: number | null;
  error: string | null;
  /** The whole input when the callee is verified (to decode), else its selector. */
  input: Uint8Array;
  callee_verified: boolean;
  to_is_contract: boolean;
};

export type Direction = "from" | "to" | null;

/**
 * An address's transactions in the block range, newest first, before the cursor: one backward range scan per role
 * (sender, recipient, and for no direction the contracts it created: contract_creations by address), merged.
 */
export function csvTransactions(
  db: Queryable,
  address: Address,
  direction: Direction,
  range: BlockRange,
  before: { blockNumber: number; index: number } | null,
  limit: number,
): Promise<CsvTransactionRow[]> {
  const params: unknown[] = [
    toBytea(address),
    before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
    before?.index ?? 2 ** 31 - 1,
    limit,
  ];
  const txRange = rangeSql("block_number", range, params);
  const side = (col: string) =>
    `(select hash, block_number, index from transactions where ${col} = $1${txRange}
       and (block_number, index) < ($2, $3) order by block_number desc, index desc limit $4)`;
  const sides = direction === "from" ? [side("from_address")] : [side("to_address")];
  if (direction === null) {
    sides.unshift(side("from_address"));
    const createdRange = rangeSql("c.block_number", range, params);
    sides.push(`(select x.hash, x.block_number, x.index from contract_creations c
       join transactions x on x.block_number = c.block_number and x.index = c.transaction_index
       where c.address = $1 and c.kind = 'transaction'${createdRange}
         and (c.block_number, c.transaction_index) < ($2, $3)
       order by c.block_number desc, c.transaction_index desc limit $4)`);
  }
  return db.query<CsvTransactionRow>(
    `select t.hash, t.block_number, t.index, b.timestamp, t.from_address, t.to_address, t.contract_address,
       t.value::text as value, coalesce(t.gas_price, t.effective_gas_price)::text as price,
       t.gas_used::text as gas_used, t.status, f.error, v.callee_verified,
       case when v.callee_verified then t.input else substring(t.input from 1 for 4) end as input,
       t.to_address is not null and ${IS_CONTRACT("t.to_address")} as to_is_contract
     from (select distinct * from (${sides.join(" union all ")}) s order by block_number desc, index desc limit $4) k
     join transactions t on t.hash = k.hash
     join blocks b on b.number = t.block_number
     left join internal_transactions f on f.block_number = t.block_number and f.transaction_index = t.index
       and f.index = 0
     cross join lateral (select ${calleeVerifiedSql("t.to_address", IMPLEMENTATION("t.to_address"))}
       as callee_verified) v
     order by t.block_number desc, t.index desc`,
    params,
  );
}

export type CsvTransferRow = {
  block_number: number;
  log_index: number;
  batch_index: number;
  transaction_hash: Uint8Array;
  timestamp: Date;
  from_address: Uint8Array;
  to_address: Uint8Array;
  token_address: Uint8Array;
  token_type: string | null;
  decimals: string | null;
  symbol: string | null;
  token_id: string | null;
  amount: string;
  price: string | null;
  tx_gas_used: string;
  status: number | null;
  error: string | null;
};

/**
 * An address's token transfers (as sender, recipient or token contract; or one side) in the block range, oldest
 * first, after the cursor: one forward range scan per role, merged.
 */
export function csvTokenTransfers(
  db: Queryable,
  address: Address,
  direction: Direction,
  range: BlockRange,
  after: { blockNumber: number; logIndex: number; batchIndex: number } | null,
  limit: number,
): Promise<CsvTransferRow[]> {
  const params: unknown[] = [
    toBytea(address),
    after?.blockNumber ?? -1,
    after?.logIndex ?? -1,
    after?.batchIndex ?? -1,
    limit,
  ];
  const r = rangeSql("block_number", range, params);
  const order = "block_number, log_index, batch_index";
  const side = (col: string) =>
    `(select ${order} from token_transfers where ${col} = $1${r}
       and (block_number, log_index, batch_index) > ($2, $3, $4) order by ${order} limit $5)`;
  const sides =
    direction === "from"
      ? [side("from_address")]
      : direction === "to"
        ? [side("to_address")]
        : [side("from_address"), side("to_address"), side("token_address")];
  return db.query<CsvTransferRow>(
    `select tt.block_number, tt.log_index, tt.batch_index, tt.transaction_hash, b.timestamp, tt.from_address,
       tt.to_address, tt.token_address, t.type as token_type, t.decimals::text as decimals, t.symbol,
       tt.token_id::text as token_id, tt.amount::text as amount,
       coalesce(x.gas_price, x.effective_gas_price)::text as price, x.gas_used::text as tx_gas_used, x.status,
       f.error
     from (select distinct * from (${sides.join(" union all ")}) s order by ${order} limit $5) k
     join token_transfers tt on tt.block_number = k.block_number and tt.log_index = k.log_index
       and tt.batch_index = k.batch_index
     join transactions x on x.hash = tt.transaction_hash
     join blocks b on b.number = tt.block_number
     left join tokens t on t.address = tt.token_address
     left join internal_transactions f on f.block_number = x.block_number and f.transaction_index = x.index
       and f.index = 0
     order by tt.block_number, tt.log_index, tt.batch_index`,
    params,
  );
}

export type CsvInternalRow = Omit<InternalTransactionsRow, "trace_address"> & {
  timestamp: Date;
  /** The transaction's gas price (the fee column). */
  price: string | null;
};

/**
 * An address's internal transactions (top-level calls left out) in the block range, newest first, before the
 * cursor. `to` is Blockscout's: the recipient of a call or the contract a creation made.
 */
export function csvInternalTransactions(
  db: Queryable,
  address: Address,
  direction: Direction,
  range: BlockRange,
  before: { blockNumber: number; transactionIndex: number; index: number } | null,
  limit: number,
): Promise<CsvInternalRow[]> {
  const params: unknown[] = [
    toBytea(address),
    before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
    before?.transactionIndex ?? 2 ** 31 - 1,
    before?.index ?? 2 ** 31 - 1,
    limit,
  ];
  const r = rangeSql("block_number", range, params);
  const order = "block_number desc, transaction_index desc, index desc";
  const side = (col: string) =>
    `(select block_number, transaction_index, index from internal_transactions
       where ${col} = $1 and (type <> 'call' or index > 0)${r}
         and (block_number, transaction_index, index) < ($2, $3, $4) order by ${order} limit $5)`;
  const sides =
    direction === "from"
      ? [side("from_address")]
      : direction === "to"
        ? [side("to_address"), side("created_contract_address")]
        : [side("from_address"), side("to_address"), side("created_contract_address")];
  return db.query<CsvInternalRow>(
    `select i.transaction_hash, i.index, i.block_number, i.transaction_index, b.timestamp, i.from_address,
       i.to_address, i.created_contract_address, i.type, i.call_type, i.gas::text as gas,
       i.gas_used::text as gas_used, i.value::text as value, i.input, i.output, i.error,
       coalesce(x.gas_price, x.effective_gas_price)::text as price
     from (select distinct * from (${sides.join(" union all ")}) s order by ${order} limit $5) k
     join internal_transactions i on i.block_number = k.block_number
       and i.transaction_index = k.transaction_index and i.index = k.index
     join blocks b on b.number = i.block_number
     join transactions x on x.block_number = i.block_number and x.index = i.transaction_index
     order by i.${order.replaceAll(", ", ", i.")}`,
    params,
  );
}

export type CsvLogRow = Omit<LogsRow, "transaction_index"> & { block_hash: Uint8Array };

/**
 * The logs an address emitted in the block range, newest first, before the cursor (logs_address_idx); with
 * `topic`, those holding it in any position (checked while scanning, as Blockscout does).
 */
export function csvLogs(
  db: Queryable,
  address: Address,
  topic: Hex | null,
  range: BlockRange,
  before: { blockNumber: number; index: number } | null,
  limit: number,
): Promise<CsvLogRow[]> {
  const params: unknown[] = [
    toBytea(address),
    before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
    before?.index ?? 2 ** 31 - 1,
    limit,
  ];
  let where = rangeSql("l.block_number", range, params);
  if (topic) {
    params.push(toBytea(topic));
    const t = `$${params.length}`;
    where += ` and (l.topic0 = ${t} or l.topic1 = ${t} or l.topic2 = ${t} or l.topic3 = ${t})`;
  }
  return db.query<CsvLogRow>(
    `select l.transaction_hash, l.log_index, l.block_number, b.hash as block_hash, l.address, l.data,
       l.topic0, l.topic1, l.topic2, l.topic3
     from (select * from logs l where l.address = $1${where} and (l.block_number, l.log_index) < ($2, $3)
       order by l.block_number desc, l.log_index desc limit $4) l
     join blocks b on b.number = l.block_number
     order by l.block_number desc, l.log_index desc`,
    params,
  );
}

export type CsvHolderRow = { holder: Uint8Array; value: string; token_id: string | null };

/** A token's type and decimals; null when no such token was indexed. */
export async function tokenOf(
  db: Queryable,
  token: Address,
): Promise<{ type: string; decimals: string | null } | null> {
  const [r] = await db.query<{ type: string; decimals: string | null }>(
    "select type, decimals::text as decimals from tokens where address = $1",
    [toBytea(token)],
  );
  return r ?? null;
}

/**
 * A token's holders by value then holder descending, after the cursor, as `/tokens/{h}/holders` lists them (per
 * holder; per holder and id for ERC-1155): one backward range scan of the type's (token, value, holder) index.
 */
export function csvHolders(
  db: Queryable,
  token: Address,
  type: string,
  before: { value: string; holder: Uint8Array; tokenId: string } | null,
  limit: number,
): Promise<CsvHolderRow[]> {
  const params = [
    toBytea(token),
    before?.value ?? "1e100",
    before?.holder ?? Buffer.alloc(21, 0xff),
    before?.tokenId ?? "1e100",
    limit,
  ];
  const sql =
    type === "ERC-1155"
      ? `select holder, value::text as value, token_id::text as token_id from token_holdings
           where token_address = $1 and value > 0 and (value, holder, token_id) < ($2::numeric, $3::bytea, $4::numeric)
           order by value desc, holder desc, token_id desc limit $5`
      : `select holder, value::text as value, null as token_id from ${
          type === "ERC-721" ? "token_erc721_balances" : "token_fungible_balances"
        } where token_address = $1 and value > 0 and (value, holder) < ($2::numeric, $3::bytea)
           and $4::numeric is not null order by value desc, holder desc limit $5`;
  return db.query<CsvHolderRow>(sql, params);
}
