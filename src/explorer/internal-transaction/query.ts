import type { Address, Hex } from "viem";
import type { InternalTransactionsRow } from "../../chain-store/rows.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

/** An internal_transactions row with its block's time (numerics as decimal strings). */
export type InternalTxRow = Omit<
  InternalTransactionsRow,
  "gas_used" | "input" | "output" | "trace_address"
> & {
  timestamp: Date;
};

export type InternalTxCursor = { blockNumber: number; transactionIndex: number; index: number };

const SELECT = `select i.block_number, i.transaction_index, i.index, i.transaction_hash, i.type, i.call_type,
  i.from_address, i.to_address, i.created_contract_address, i.value::text as value, i.gas::text as gas, i.error,
  b.timestamp
  from internal_transactions i join blocks b on b.number = i.block_number`;

// Blockscout's where_is_different_from_parent_transaction: the top-level call repeats the transaction itself;
// a top-level create stays (it is the creation).
const NOT_PARENT = "not (i.type = 'call' and i.index = 0)";

/** A transaction's frames in depth-first order after `afterIndex` ((transaction_hash, index) index). */
export function transactionInternalTxsPage(
  db: Queryable,
  hash: Hex,
  afterIndex: number | null,
  limit: number,
): Promise<InternalTxRow[]> {
  return db.query<InternalTxRow>(
    `${SELECT} where i.transaction_hash = $1 and i.index > $2 and ${NOT_PARENT} order by i.index limit $3`,
    [toBytea(hash), afterIndex ?? -1, limit],
  );
}

/** What a block's list keeps: call types win over frame types, as in Blockscout (both empty: every frame). */
export type BlockInternalTxFilter = { types: readonly string[]; callTypes: readonly string[] };

/**
 * A block's frames in (transaction_index, index) order after the cursor: a forward range scan of the primary key
 * within the block.
 */
export function blockInternalTxsPage(
  db: Queryable,
  blockNumber: number,
  filter: BlockInternalTxFilter,
  after: { transactionIndex: number; index: number } | null,
  limit: number,
): Promise<InternalTxRow[]> {
  const byCall = filter.callTypes.length > 0;
  const kinds = byCall ? filter.callTypes : filter.types;
  return db.query<InternalTxRow>(
    `${SELECT} where i.block_number = $1 and ${NOT_PARENT}
       and (i.transaction_index, i.index) > ($2, $3)
       and (cardinality($4::text[]) = 0 or ${byCall ? "i.call_type" : "i.type"} = any($4::text[]))
     order by i.transaction_index, i.index limit $5`,
    [blockNumber, after?.transactionIndex ?? -1, after?.index ?? -1, kinds, limit],
  );
}

/** All frames of the chain, newest first, before the cursor: a backward range scan of the primary key. */
export function allInternalTxsPage(
  db: Queryable,
  before: InternalTxCursor | null,
  limit: number,
): Promise<InternalTxRow[]> {
  return db.query<InternalTxRow>(
    `${SELECT} where ${NOT_PARENT} and i.block_number <= $1
       and (i.block_number, i.transaction_index, i.index) < ($1, $2, $3)
     order by i.block_number desc, i.transaction_index desc, i.index desc limit $4`,
    [
      before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
      before?.transactionIndex ?? 2 ** 31 - 1,
      before?.index ?? 2 ** 31 - 1,
      limit,
    ],
  );
}

export type InternalTxDirection = "from" | "to" | null;

/**
 * An address's frames, newest first, before the cursor: one backward range scan per role (sender, recipient,
 * created contract), merged and deduplicated for no direction, as Blockscout's union does.
 */
export async function addressInternalTxsPage(
  db: Queryable,
  address: Address,
  direction: InternalTxDirection,
  before: InternalTxCursor | null,
  limit: number,
): Promise<InternalTxRow[]> {
  const side = (column: string) =>
    db.query<InternalTxRow>(
      `${SELECT} where i.${column} = $1 and ${NOT_PARENT} and i.block_number <= $2
         and (i.block_number, i.transaction_index, i.index) < ($2, $3, $4)
       order by i.block_number desc, i.transaction_index desc, i.index desc limit $5`,
      [
        toBytea(address),
        before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
        before?.transactionIndex ?? 2 ** 31 - 1,
        before?.index ?? 2 ** 31 - 1,
        limit,
      ],
    );
  if (direction === "from") return side("from_address");
  if (direction === "to") return side("to_address");
  const parts = await Promise.all([
    side("from_address"),
    side("to_address"),
    side("created_contract_address"),
  ]);
  const seen = new Set<string>();
  return parts
    .flat()
    .sort(
      (x, y) =>
        y.block_number - x.block_number || y.transaction_index - x.transaction_index || y.index - x.index,
    )
    .filter((r) => {
      const k = `${r.block_number}:${r.transaction_index}:${r.index}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .slice(0, limit);
}
