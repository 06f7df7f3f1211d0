import type { Address, Hex } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type BlockRow = {
  number: number;
  hash: Uint8Array;
  parent_hash: Uint8Array;
  timestamp: Date;
  miner: Uint8Array;
  gas_used: string;
  gas_limit: string;
  base_fee_per_gas: string | null;
  size: number | null;
  transaction_count: number;
  nonce: Uint8Array | null;
  difficulty: string | null;
  total_difficulty: string | null;
  extra_data: Uint8Array | null;
  state_root: Uint8Array | null;
  blob_gas_used: string | null;
  excess_blob_gas: string | null;
  uncles: Uint8Array[] | null;
  withdrawals_count: number | null;
  /** Sums over the block's transactions, stored by the indexer with the block (null for rows written before). */
  transaction_fees: string | null;
  burnt_fees: string | null;
  priority_fees: string | null;
  internal_transactions_indexed: boolean;
  /** EIP-4844: stored with the block by the indexer (null for blocks written before it kept them). */
  blob_transaction_count: number | null;
  blob_gas_price: string | null;
};

/** A reward the node reported for a block (block_rewards; parity-style trace_block nodes only). */
export type BlockReward = { block_number: number; type: string; reward: string };

const COLUMNS = `b.number, b.hash, b.parent_hash, b.timestamp, b.miner, b.gas_used::text as gas_used,
  b.gas_limit::text as gas_limit, b.base_fee_per_gas::text as base_fee_per_gas, b.size, b.transaction_count,
  b.nonce, b.difficulty::text as difficulty, b.total_difficulty::text as total_difficulty, b.extra_data,
  b.state_root, b.blob_gas_used::text as blob_gas_used, b.excess_blob_gas::text as excess_blob_gas, b.uncles,
  b.withdrawals_count, b.transaction_fees::text as transaction_fees, b.burnt_fees::text as burnt_fees,
  b.priority_fees::text as priority_fees, b.internal_transactions_indexed, b.blob_transaction_count,
  b.blob_gas_price::text as blob_gas_price`;

export async function blockByNumber(db: Queryable, n: number): Promise<BlockRow | null> {
  return (await db.query<BlockRow>(`select ${COLUMNS} from blocks b where b.number = $1`, [n]))[0] ?? null;
}

export async function blockByHash(db: Queryable, hash: Hex): Promise<BlockRow | null> {
  return (
    (await db.query<BlockRow>(`select ${COLUMNS} from blocks b where b.hash = $1`, [toBytea(hash)]))[0] ??
    null
  );
}

/** Blocks newest first below `before` (a backward range scan of the primary key). */
export async function blocksPage(db: Queryable, before: number | null, limit: number): Promise<BlockRow[]> {
  return db.query<BlockRow>(
    `select ${COLUMNS} from blocks b where b.number < $1 order by b.number desc limit $2`,
    [before ?? Number.MAX_SAFE_INTEGER, limit],
  );
}

/** Blocks produced by `miner`, newest first (index blocks_miner_number_idx). */
export async function minerBlocksPage(
  db: Queryable,
  miner: Address,
  before: number | null,
  limit: number,
): Promise<BlockRow[]> {
  return db.query<BlockRow>(
    `select ${COLUMNS} from blocks b where b.miner = $1 and b.number < $2 order by b.number desc limit $3`,
    [toBytea(miner), before ?? Number.MAX_SAFE_INTEGER, limit],
  );
}

/** Rewards of the given blocks (primary-key prefix of block_rewards). */
export async function blockRewards(db: Queryable, numbers: readonly number[]): Promise<BlockReward[]> {
  if (!numbers.length) return [];
  return db.query<BlockReward>(
    `select block_number, type, reward::text as reward from block_rewards
     where block_number = any($1::int8[]) order by block_number, type, address`,
    [numbers],
  );
}

/** Internal transactions of one block as Blockscout counts them (frames other than a plain top-level call). */
export async function internalTransactionsCount(db: Queryable, n: number): Promise<number> {
  const rows = await db.query<{ c: number }>(
    `select count(*)::int as c from internal_transactions where block_number = $1 and (type <> 'call' or index > 0)`,
    [n],
  );
  return rows[0]?.c ?? 0;
}
