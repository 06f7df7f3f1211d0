import type { Address, Hex } from "viem";
import { INDEXED_CHAIN_ID_SQL } from "../../chain-store/checkpoint.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type BlockHit = { number: number; hash: Uint8Array; timestamp: Date };
export type TxHit = { hash: Uint8Array; timestamp: Date };
export type TokenHit = {
  address: Uint8Array;
  name: string | null;
  symbol: string | null;
  type: string | null;
  total_supply: string | null;
  decimals: string | null;
  holders_count: number | null;
};
export type ContractHit = { address: Uint8Array; name: string };

const BLOCK = "select number, hash, timestamp from blocks";

export async function blockByNumberHit(db: Queryable, n: number): Promise<BlockHit[]> {
  return db.query<BlockHit>(`${BLOCK} where number = $1`, [n]);
}

export async function blockByHashHit(db: Queryable, hash: Hex): Promise<BlockHit[]> {
  return db.query<BlockHit>(`${BLOCK} where hash = $1`, [toBytea(hash)]);
}

export async function transactionHit(db: Queryable, hash: Hex): Promise<TxHit[]> {
  return db.query<TxHit>(
    "select t.hash, b.timestamp from transactions t join blocks b on b.number = t.block_number where t.hash = $1",
    [toBytea(hash)],
  );
}

/** Whether the index has seen the address at all (the addresses table of every address seen, by primary key). */
export async function addressKnown(db: Queryable, address: Address): Promise<boolean> {
  const rows = await db.query("select 1 from addresses where address = $1", [toBytea(address)]);
  return rows.length > 0;
}

const TOKEN = `select address, name, symbol, type, total_supply::text as total_supply,
  decimals::text as decimals, holders_count from tokens`;

export async function tokenByAddress(db: Queryable, address: Address): Promise<TokenHit[]> {
  return db.query<TokenHit>(`${TOKEN} where address = $1`, [toBytea(address)]);
}

/**
 * The query's words as a full-text query of word prefixes (`word:*`, all of them), as Blockscout prepares its
 * search term; null when the text has no word (letters and digits).
 */
export function wordPrefixQuery(text: string): string | null {
  const words = text.match(/[a-zA-Z0-9]+/g);
  return words ? words.map((w) => `${w}:*`).join(" & ") : null;
}

/** Where a page of name matches resumes: after this token (by holders, name, address) or this contract. */
export type NameCursor =
  | { kind: "token"; holders: number | null; name: string; address: Address }
  | { kind: "contract"; name: string; address: Address };

/**
 * Tokens every word of whose query is a prefix of a word of their symbol and name, most holders first, then by
 * name and address (Blockscout's ranking), after `after`. A GIN index on the same expression serves the match.
 */
export async function tokensByName(
  db: Queryable,
  words: string,
  limit: number,
  after: Extract<NameCursor, { kind: "token" }> | null = null,
): Promise<TokenHit[]> {
  return db.query<TokenHit>(
    `${TOKEN} where name is not null and symbol is not null
       and to_tsvector('english', symbol || ' ' || name) @@ to_tsquery('english', $1)
       and ($3::text is null or coalesce(holders_count, -1) < $4
         or (coalesce(holders_count, -1) = $4 and (name, address) > ($3, $5)))
     order by coalesce(holders_count, -1) desc, name, address limit $2`,
    [words, limit, after?.name ?? null, after?.holders ?? -1, after ? toBytea(after.address) : null],
  );
}

/** Verified contracts of the indexed chain whose name matches the words (as tokensByName), by name and address. */
export async function contractsByName(
  db: Queryable,
  words: string,
  limit: number,
  after: Extract<NameCursor, { kind: "contract" }> | null = null,
): Promise<ContractHit[]> {
  return db.query<ContractHit>(
    `select v.address, c.contract_name as name from verified_contracts v
       join verified_compilations c on c.id = v.compilation_id
     where v.chain_id = ${INDEXED_CHAIN_ID_SQL}
       and to_tsvector('english', c.contract_name) @@ to_tsquery('english', $1)
       and ($3::text is null or (c.contract_name, v.address) > ($3, $4))
     order by c.contract_name, v.address limit $2`,
    [words, limit, after?.name ?? null, after ? toBytea(after.address) : null],
  );
}
