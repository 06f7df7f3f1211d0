import type { Hex } from "viem";
import { indexedRange } from "../../chain-store/checkpoint.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { OP_COLUMNS, type OpColumns } from "../transaction/op-stack.js";

/** A transaction of the block up to the one asked for, with what moves native coin (numerics as strings). */
export type BlockTxRow = {
  hash: Uint8Array;
  block_number: number;
  index: number;
  from_address: Uint8Array;
  to_address: Uint8Array | null;
  contract_address: Uint8Array | null;
  value: string;
  status: number | null;
  gas_used: string;
  /** What it paid per gas (effectiveGasPrice, else gasPrice). */
  price: string | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  base_fee_per_gas: string | null;
  miner: Uint8Array;
  /** OP stack: a deposit's mint (credited to its sender before it runs). */
  op_mint: string | null;
  /** EIP-4844: the blob fee a blob transaction's sender pays beside gas (blob gas used × blob gas price). */
  blob_fee: string | null;
} & OpColumns;

/**
 * The transaction `hash` and the transactions before it in its block, in block order: the block's range of the
 * (block_number, index) unique index. Empty when the transaction is not indexed.
 */
export function blockTransactionsUpTo(db: Queryable, hash: Hex): Promise<BlockTxRow[]> {
  return db.query<BlockTxRow>(
    `select x.hash, x.block_number, x.index, x.from_address, x.to_address, x.contract_address, x.value::text as value,
       x.status, x.gas_used::text as gas_used, coalesce(x.effective_gas_price, x.gas_price)::text as price,
       x.max_fee_per_gas::text as max_fee_per_gas, x.max_priority_fee_per_gas::text as max_priority_fee_per_gas,
       b.base_fee_per_gas::text as base_fee_per_gas, b.miner, o.mint::text as op_mint,
       (x.blob_gas_used * x.blob_gas_price)::text as blob_fee, ${OP_COLUMNS}
     from transactions t
       join transactions x on x.block_number = t.block_number and x.index <= t.index
       join blocks b on b.number = t.block_number
       left join op_transactions o on o.transaction_hash = x.hash
     where t.hash = $1
     order by x.index`,
    [toBytea(hash)],
    { prepare: true },
  );
}

/** A call frame that carried value (below the top frame), with its trace address to judge its ancestors. */
export type ValueFrameRow = {
  transaction_index: number;
  call_type: string | null;
  from_address: Uint8Array;
  /** The callee, or the created contract, or a selfdestruct's beneficiary. */
  to_address: Uint8Array | null;
  value: string;
  error: string | null;
  trace_address: number[];
};

/**
 * Frames of the block's transactions up to `lastIndex` that carried value or failed (a failed frame undoes its
 * descendants' transfers): the block's range of the internal_transactions primary key.
 */
export function valueFramesUpTo(db: Queryable, block: number, lastIndex: number): Promise<ValueFrameRow[]> {
  return db.query<ValueFrameRow>(
    `select transaction_index, call_type, from_address, coalesce(to_address, created_contract_address) as to_address,
       value::text as value, error, trace_address
     from internal_transactions
     where block_number = $1 and transaction_index <= $2 and index > 0 and (value > 0 or error is not null)
     order by transaction_index, index`,
    [block, lastIndex],
    { prepare: true },
  );
}

/** A token transfer of the block: who, what and how much (no rendering columns). */
export type BlockTransferRow = {
  transaction_hash: Uint8Array;
  token_address: Uint8Array;
  token_type: string | null;
  from_address: Uint8Array;
  to_address: Uint8Array;
  token_id: string | null;
  amount: string;
};

/** The block's token transfers in log order (the block's range of the token_transfers primary key). */
export function blockTransfers(db: Queryable, block: number): Promise<BlockTransferRow[]> {
  return db.query<BlockTransferRow>(
    `select tt.transaction_hash, tt.token_address, t.type as token_type, tt.from_address, tt.to_address,
       tt.token_id::text as token_id, tt.amount::text as amount
     from token_transfers tt left join tokens t on t.address = tt.token_address
     where tt.block_number = $1
     order by tt.log_index, tt.batch_index`,
    [block],
    { prepare: true },
  );
}

/**
 * Each address's native balance at the end of `block`: its newest coin_balance_changes row at or below it (one
 * backward probe of the primary key per address); null when it has none.
 */
export async function coinBalancesAt(
  db: Queryable,
  addresses: readonly Uint8Array[],
  block: number,
): Promise<Array<{ address: Uint8Array; value: string | null }>> {
  if (!addresses.length) return [];
  return db.query(
    `select a.address, (select c.value::text from coin_balance_changes c
       where c.address = a.address and c.block_number <= $2 order by c.block_number desc limit 1) as value
     from unnest($1::bytea[]) a(address)`,
    [addresses, block],
  );
}

/** A holder's balance of a token (of one id for ERC-1155) as it stands in the index now. */
export type HolderKey = {
  holder: Uint8Array;
  token: Uint8Array;
  kind: "fungible" | "erc721" | "id";
  id: string | null;
};

/** Current balances of the keys, from the balance tables the indexer keeps with the transfers (0 when absent). */
export async function currentTokenBalances(db: Queryable, keys: readonly HolderKey[]): Promise<string[]> {
  if (!keys.length) return [];
  const rows = await db.query<{ i: number; value: string | null }>(
    `select k.i, case k.kind
         when 'fungible' then (select value::text from token_fungible_balances
           where holder = k.holder and token_address = k.token)
         when 'erc721' then (select value::text from token_erc721_balances
           where holder = k.holder and token_address = k.token)
         else (select sum(value)::text from token_holdings
           where holder = k.holder and token_address = k.token and token_id = k.id::numeric)
       end as value
     from unnest($1::bytea[], $2::bytea[], $3::text[], $4::text[]) with ordinality k(holder, token, kind, id, i)`,
    [keys.map((k) => k.holder), keys.map((k) => k.token), keys.map((k) => k.kind), keys.map((k) => k.id)],
  );
  const out = keys.map(() => "0");
  for (const r of rows) out[r.i - 1] = r.value ?? "0";
  return out;
}

/** A transfer of a holder at or after a block, seen from that holder's side. */
export type HolderTransferRow = {
  holder: Uint8Array;
  incoming: boolean;
  token_address: Uint8Array;
  token_id: string | null;
  amount: string;
};

/**
 * Each holder's transfers (any token) from `block` on, on each side at most `limit` (the (address, block_number
 * desc, ...) indexes of either side, a bounded range scan each): what separates the balance now from the balance
 * before `block`. A side that reaches the limit is incomplete and the caller gives up on that holder.
 */
export function holderTransfersSince(
  db: Queryable,
  holders: readonly Uint8Array[],
  block: number,
  limit: number,
): Promise<HolderTransferRow[]> {
  if (!holders.length) return Promise.resolve([]);
  return db.query<HolderTransferRow>(
    `select h.holder, s.incoming, s.token_address, s.token_id, s.amount
     from unnest($1::bytea[]) h(holder),
       lateral (
         (select false as incoming, token_address, token_id::text as token_id, amount::text as amount
          from token_transfers where from_address = h.holder and block_number >= $2 limit $3)
         union all
         (select true, token_address, token_id::text, amount::text
          from token_transfers where to_address = h.holder and block_number >= $2 limit $3)
       ) s`,
    [holders, block, limit],
  );
}

/** The first block the indexer indexed (its balances history starts there); null before it started. */
export async function indexStartBlock(db: Queryable): Promise<number | null> {
  return (await indexedRange(db))?.startBlock ?? null;
}
