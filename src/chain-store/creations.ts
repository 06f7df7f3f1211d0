import type { Hex } from "viem";
import { fromBytea, fromByteaOrNull, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";

/** One contract creation as the index keeps it (a CREATE2 address re-created after a self-destruct has several). */
export type IndexedCreation = {
  address: Hex;
  transactionHash: Hex;
  creator: Hex;
  blockNumber: number;
  initCode: Hex;
  /** Null when the constructor deployed nothing (or self-destructed). */
  runtimeCode: Hex | null;
};

/** The order that makes the first row of an address its newest creation; served by contract_creations_address_idx. */
export const NEWEST_CREATION_ORDER = "block_number desc, transaction_index desc, creation_index desc";

type Row = {
  address: Uint8Array;
  transaction_hash: Uint8Array;
  creator: Uint8Array;
  block_number: number | string;
  init_code: Uint8Array;
  runtime_code: Uint8Array | null;
};

const COLUMNS = "address, transaction_hash, creator, block_number, init_code, runtime_code";

function creationOf(r: Row): IndexedCreation {
  return {
    address: fromBytea(r.address),
    transactionHash: fromBytea(r.transaction_hash),
    creator: fromBytea(r.creator),
    blockNumber: Number(r.block_number),
    initCode: fromBytea(r.init_code),
    runtimeCode: fromByteaOrNull(r.runtime_code),
  };
}

/** The newest creation of `address` in the index, or null when the index saw none. */
export async function newestCreation(db: Queryable, address: string): Promise<IndexedCreation | null> {
  const [row] = await db.query<Row>(
    `select ${COLUMNS} from contract_creations where address = $1 order by ${NEWEST_CREATION_ORDER} limit 1`,
    [toBytea(address)],
  );
  return row ? creationOf(row) : null;
}

/** The newest creation of each of `addresses` that the index saw, keyed by lower-case address. */
export async function newestCreations(
  db: Queryable,
  addresses: readonly string[],
): Promise<Map<string, IndexedCreation>> {
  if (addresses.length === 0) return new Map();
  const rows = await db.query<Row>(
    `select distinct on (address) ${COLUMNS} from contract_creations where address = any($1::bytea[])
     order by address, ${NEWEST_CREATION_ORDER}`,
    [addresses.map(toBytea)],
  );
  return new Map(
    rows.map((r) => {
      const c = creationOf(r);
      return [c.address.toLowerCase(), c];
    }),
  );
}

/**
 * Whether the contract_creations row aliased `k` is its address's newest creation (no later creation of the same
 * address: a CREATE2 address created again counts once), as a SQL condition.
 */
export const isNewestCreationSql = (k: string): string =>
  `not exists (select 1 from contract_creations d where d.address = ${k}.address
    and (d.block_number, d.transaction_index, d.creation_index) > (${k}.block_number, ${k}.transaction_index, ${k}.creation_index))`;

/** A newest creation with what Blockscout's `getcontractcreation` tells of it beside the creation itself. */
export type CreationWithTransaction = IndexedCreation & {
  kind: "transaction" | "create" | "create2";
  /** The creating transaction's sender (the factory is `creator` for a creation inside a call). */
  sender: Hex;
  /** The block's timestamp, unix seconds. */
  timestamp: number;
};

/** `newestCreations` with each creation's kind, transaction sender and block time (by primary keys). */
export async function newestCreationsWithTransaction(
  db: Queryable,
  addresses: readonly string[],
): Promise<Map<string, CreationWithTransaction>> {
  if (addresses.length === 0) return new Map();
  const rows = await db.query<
    Row & { kind: CreationWithTransaction["kind"]; sender: Uint8Array; timestamp: string }
  >(
    `select c.*, t.from_address as sender, extract(epoch from b.timestamp)::int8::text as timestamp
     from (select distinct on (address) ${COLUMNS}, kind from contract_creations
       where address = any($1::bytea[]) order by address, ${NEWEST_CREATION_ORDER}) c
     join transactions t on t.hash = c.transaction_hash
     join blocks b on b.number = c.block_number`,
    [addresses.map(toBytea)],
  );
  return new Map(
    rows.map((r) => {
      const c = creationOf(r);
      return [
        c.address.toLowerCase(),
        { ...c, kind: r.kind, sender: fromBytea(r.sender), timestamp: Number(r.timestamp) },
      ];
    }),
  );
}
