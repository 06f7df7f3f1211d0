import type { Address, Hex } from "viem";
import type { InternalTransactionsRow } from "../../chain-store/rows.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { boundedUnion, dir, rangeConditions } from "../bounded.js";
import type { ListOptions } from "../params.js";

export type TxRow = {
  hash: Uint8Array;
  block_number: string;
  index: number;
  block_hash: Uint8Array;
  timestamp: Date;
  from_address: Uint8Array;
  to_address: Uint8Array | null;
  contract_address: Uint8Array | null;
  value: string;
  nonce: string;
  gas: string;
  gas_price: string | null;
  status: number | null;
  input: Uint8Array;
  cumulative_gas_used: string;
  gas_used: string;
};

const TX_COLUMNS = `t.hash, t.block_number, t.index, b.hash as block_hash, b.timestamp, t.from_address, t.to_address,
  t.contract_address, t.value::text as value, t.nonce, t.gas::text as gas,
  coalesce(t.effective_gas_price, t.gas_price)::text as gas_price, t.status, t.input,
  t.cumulative_gas_used::text as cumulative_gas_used, t.gas_used::text as gas_used`;

/**
 * `txlist`: an address's transactions as sender, recipient or creator (the creation from contract_creations, whose
 * address index finds it), each role a bounded scan of its (address, block_number, index) index.
 */
export function addressTransactions(db: Queryable, address: Address, o: ListOptions): Promise<TxRow[]> {
  const params: unknown[] = [toBytea(address)];
  const range = rangeConditions("t", o, params);
  const where = (cond: string) => [cond, ...range].join(" and ");
  const d = dir(o);
  const order = `order by t.block_number ${d}, t.index ${d}`;
  const from = "from transactions t join blocks b on b.number = t.block_number";
  const branches: string[] = [];
  if (o.filterBy !== "to")
    branches.push(`select ${TX_COLUMNS} ${from} where ${where("t.from_address = $1")} ${order}`);
  if (o.filterBy !== "from") {
    branches.push(`select ${TX_COLUMNS} ${from} where ${where("t.to_address = $1")} ${order}`);
    branches.push(
      `select ${TX_COLUMNS} from contract_creations c join transactions t on t.hash = c.transaction_hash
         join blocks b on b.number = t.block_number
       where ${where("c.address = $1 and c.kind = 'transaction'")} ${order}`,
    );
  }
  return db.query<TxRow>(boundedUnion(branches, `block_number ${d}, index ${d}`, o), params);
}

export type InternalRow = Omit<InternalTransactionsRow, "output" | "trace_address"> & { timestamp: Date };

const IT_COLUMNS = `i.block_number, i.transaction_index, i.index, i.transaction_hash, b.timestamp, i.type, i.call_type,
  i.from_address, i.to_address, i.created_contract_address, i.value::text as value, i.gas::text as gas,
  i.gas_used::text as gas_used, i.input, i.error`;

// Blockscout's where_is_different_from_parent_transaction (the top call repeats the transaction) and, unless
// include_zero_value=true, its include_zero_value(false) (calls moving no value are left out).
const itFilter = (includeZero: boolean) =>
  `not (i.type = 'call' and i.index = 0)${includeZero ? "" : " and (i.type <> 'call' or i.value > 0)"}`;

const IT_FROM = "from internal_transactions i join blocks b on b.number = i.block_number";

/** `txlistinternal` by address: sender, recipient and created-contract index scans, bounded. */
export function addressInternalTransactions(
  db: Queryable,
  address: Address,
  o: ListOptions,
  includeZero: boolean,
): Promise<InternalRow[]> {
  const params: unknown[] = [toBytea(address)];
  const range = rangeConditions("i", o, params);
  const d = dir(o);
  const order = `order by i.block_number ${d}, i.transaction_index ${d}, i.index ${d}`;
  const branch = (column: string) =>
    `select ${IT_COLUMNS} ${IT_FROM} where ${[`i.${column} = $1`, itFilter(includeZero), ...range].join(" and ")} ${order}`;
  const branches: string[] = [];
  if (o.filterBy !== "to") branches.push(branch("from_address"));
  if (o.filterBy !== "from") branches.push(branch("to_address"), branch("created_contract_address"));
  return db.query<InternalRow>(
    boundedUnion(branches, `block_number ${d}, transaction_index ${d}, index ${d}`, o),
    params,
  );
}

/** `txlistinternal` without address or txhash: the whole chain's frames, a bounded scan of the primary key. */
export function allInternalTransactions(
  db: Queryable,
  o: ListOptions,
  includeZero: boolean,
): Promise<InternalRow[]> {
  const params: unknown[] = [];
  const range = rangeConditions("i", o, params);
  const d = dir(o);
  return db.query<InternalRow>(
    `select ${IT_COLUMNS} ${IT_FROM} where ${[itFilter(includeZero), ...range].join(" and ")}
     order by i.block_number ${d}, i.transaction_index ${d}, i.index ${d}
     offset ${(o.page - 1) * o.offset} limit ${o.offset}`,
    params,
  );
}

/** `txlistinternal` by txhash (at most 10,000 frames, as Blockscout), through the (transaction_hash, index) index. */
export function transactionInternalTransactions(
  db: Queryable,
  hash: Hex,
  o: ListOptions,
  includeZero: boolean,
): Promise<InternalRow[]> {
  const d = dir(o);
  return db.query<InternalRow>(
    `select ${IT_COLUMNS} ${IT_FROM} where i.transaction_hash = $1 and ${itFilter(includeZero)}
     order by i.index ${d} limit 10000`,
    [toBytea(hash)],
  );
}

/** Whether the transaction is indexed, and whether its block's frames are (null: unknown transaction). */
export async function transactionTraced(db: Queryable, hash: Hex): Promise<boolean | null> {
  const [r] = await db.query<{ traced: boolean }>(
    `select b.internal_transactions_indexed as traced from transactions t join blocks b on b.number = t.block_number
     where t.hash = $1`,
    [toBytea(hash)],
  );
  return r ? r.traced : null;
}

export type TransferRow = {
  block_number: string;
  log_index: number;
  batch_index: number;
  transaction_hash: Uint8Array;
  block_hash: Uint8Array;
  timestamp: Date;
  token_address: Uint8Array;
  from_address: Uint8Array;
  to_address: Uint8Array;
  token_id: string | null;
  amount: string;
  kind: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  nonce: string;
  transaction_index: number;
  gas: string;
  gas_price: string | null;
  gas_used: string;
  cumulative_gas_used: string;
  input: Uint8Array;
};

/** The standards the transfer actions list (ERC-7984's confidential transfers are not indexed: none listed). */
export type TransferKind = "ERC-20" | "ERC-721" | "ERC-1155" | "ERC-404" | "ERC-7984";

/**
 * `tokentx`, `tokennfttx`, `token1155tx`, `token404tx`, `token7984tx`: an address's (or a token's, or both) transfers of one standard. The
 * address roles are bounded scans of the (from|to, block_number, log_index, batch_index) indexes, the token alone
 * of (token_address, block_number, log_index, batch_index); the standard and token filter the scanned rows.
 */
export function tokenTransfers(
  db: Queryable,
  kind: TransferKind,
  address: Address | null,
  token: Address | null,
  o: ListOptions,
): Promise<TransferRow[]> {
  const params: unknown[] = [kind];
  // The transfers are scanned without their blocks (joined after the page is cut).
  const range = rangeConditions("x", o, params, null);
  const d = dir(o);
  const order = `order by x.block_number ${d}, x.log_index ${d}, x.batch_index ${d}`;
  const inner = (cond: string) =>
    `select x.* from token_transfers x where ${[cond, "x.kind = $1", ...range].join(" and ")} ${order}`;
  let rows: string;
  if (address) {
    params.push(toBytea(address));
    const a = `$${params.length}`;
    let tokenCond = "";
    if (token) {
      params.push(toBytea(token));
      tokenCond = ` and x.token_address = $${params.length}`;
    }
    rows = boundedUnion(
      [inner(`x.from_address = ${a}${tokenCond}`), inner(`x.to_address = ${a}${tokenCond}`)],
      `block_number ${d}, log_index ${d}, batch_index ${d}`,
      o,
    );
  } else {
    params.push(toBytea(token!));
    rows = `${inner(`x.token_address = $${params.length}`)} offset ${(o.page - 1) * o.offset} limit ${o.offset}`;
  }
  return db.query<TransferRow>(
    `select x.block_number, x.log_index, x.batch_index, x.transaction_hash, b.hash as block_hash, b.timestamp,
       x.token_address, x.from_address, x.to_address, x.token_id::text as token_id, x.amount::text as amount, x.kind,
       k.name, k.symbol, k.decimals::text as decimals, t.nonce, t.index as transaction_index, t.gas::text as gas,
       coalesce(t.effective_gas_price, t.gas_price)::text as gas_price, t.gas_used::text as gas_used,
       t.cumulative_gas_used::text as cumulative_gas_used, t.input
     from (${rows}) x
       join blocks b on b.number = x.block_number
       join transactions t on t.hash = x.transaction_hash
       left join tokens k on k.address = x.token_address
     order by x.block_number ${d}, x.log_index ${d}, x.batch_index ${d}`,
    params,
  );
}

/** Current coin balances of the listed addresses (address_coin_balances, by primary key). */
export async function coinBalances(db: Queryable, addresses: Address[]): Promise<Map<string, string>> {
  const rows = await db.query<{ address: Uint8Array; value: string }>(
    "select address, value::text as value from address_coin_balances where address = any($1)",
    [addresses.map(toBytea)],
  );
  return new Map(rows.map((r) => [`0x${Buffer.from(r.address).toString("hex")}`, r.value]));
}

/** The balance as of a block: the newest change at or before it (coin_balance_changes primary key). */
export async function balanceAt(db: Queryable, address: Address, block: number): Promise<string | null> {
  const [r] = await db.query<{ value: string }>(
    `select value::text as value from coin_balance_changes where address = $1 and block_number <= $2
     order by block_number desc limit 1`,
    [toBytea(address), block],
  );
  return r?.value ?? null;
}

/** Whether the index has seen the address (Blockscout answers "not found" for an address it never saw). */
export async function addressKnown(db: Queryable, address: Address): Promise<boolean> {
  const rows = await db.query("select 1 from addresses where address = $1", [toBytea(address)]);
  return rows.length > 0;
}

/** `tokenbalance`: the holder's balance of an ERC-20/404 token (or its ERC-721 count), "0" when none. */
export async function tokenBalance(db: Queryable, token: Address, holder: Address): Promise<string> {
  const [r] = await db.query<{ value: string }>(
    `select value::text as value from token_fungible_balances where holder = $1 and token_address = $2
     union all select value::text from token_erc721_balances where holder = $1 and token_address = $2
     limit 1`,
    [toBytea(holder), toBytea(token)],
  );
  return r?.value ?? "0";
}

export type HoldingRow = {
  token_address: Uint8Array;
  token_id: string | null;
  value: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  type: string;
};

/** `tokenlist`: every positive balance of the holder (fungible, ERC-721 per token, ERC-1155 per id). */
export function holderTokens(db: Queryable, holder: Address): Promise<HoldingRow[]> {
  return db.query<HoldingRow>(
    `select h.token_address, h.token_id, h.value, k.name, k.symbol, k.decimals::text as decimals, k.type from (
       select token_address, null::text as token_id, value::text as value from token_fungible_balances
         where holder = $1 and value > 0
       union all select token_address, null, value::text from token_erc721_balances where holder = $1 and value > 0
       union all select token_address, token_id::text, value::text from token_holdings
         where holder = $1 and token_type = 'ERC-1155' and value > 0
     ) h join tokens k on k.address = h.token_address
     order by h.token_address, h.token_id`,
    [toBytea(holder)],
  );
}

/** `getminedblocks`: blocks by the miner, newest first ((miner, number desc) index), offset-paged. */
export function minedBlocks(
  db: Queryable,
  miner: Address,
  page: number,
  offset: number,
): Promise<Array<{ number: string; timestamp: Date }>> {
  return db.query(
    `select number, timestamp from blocks where miner = $1 order by number desc offset $2 limit $3`,
    [toBytea(miner), (page - 1) * offset, offset],
  );
}

/**
 * `listaccounts`: addresses in the order the index first saw them (Blockscout: insertion time, then hash), through
 * the first_block index, offset-paged; balances by primary key.
 */
export function accountsInOrder(
  db: Queryable,
  page: number,
  offset: number,
): Promise<Array<{ address: Uint8Array; value: string | null }>> {
  return db.query(
    `select a.address, c.value::text as value from
       (select address, first_block from addresses order by first_block, address offset $1 limit $2) a
       left join address_coin_balances c on c.address = a.address
     order by a.first_block, a.address`,
    [(page - 1) * offset, offset],
  );
}
