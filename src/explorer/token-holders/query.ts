import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export const PAGE_SIZE = 50;

/** The keyset of a holders page: upstream's (value, address_hash), and the id for per-id rows. */
export type HolderCursor = { value: bigint; holder: Address; tokenId: bigint | null };
export type HolderRow = { holder: Uint8Array; value: string; token_id: string | null };

/** A token's kind as the holder lists need it, or null when no such token was indexed. */
export async function tokenType(db: Queryable, token: Address): Promise<string | null> {
  const [r] = await db.query<{ type: string }>("select type from tokens where address = $1", [
    toBytea(token),
  ]);
  return r?.type ?? null;
}

/** Where a token type's holders are: per-holder balances (fungible, or ERC-721 id counts) or per-id holdings. */
export type HolderSource = "token_fungible_balances" | "token_erc721_balances" | "per-id";

export function holderSource(type: string): HolderSource {
  if (type === "ERC-721") return "token_erc721_balances";
  return type === "ERC-1155" ? "per-id" : "token_fungible_balances";
}

/**
 * GET /tokens/{h}/holders: per-holder balances (ERC-20 and ERC-404 fungible balances, ERC-721 id counts) or, for
 * ERC-1155, one row per (holder, id), by value then holder descending, as upstream lists its current token
 * balances; one backward range scan of a (token, value, holder[, id]) index.
 */
export function holdersPage(
  db: Queryable,
  token: Address,
  source: HolderSource,
  cursor: HolderCursor | null,
): Promise<HolderRow[]> {
  const c = cursor
    ? [cursor.value.toString(), toBytea(cursor.holder), cursor.tokenId?.toString() ?? null]
    : [null, null, null];
  if (source !== "per-id")
    return db.query<HolderRow>(
      `select holder, value::text as value, null as token_id from ${source}
       where token_address = $1 and value > 0 and ($2::numeric is null or (value, holder) < ($2::numeric, $3::bytea))
       order by value desc, holder desc limit $4`,
      [toBytea(token), c[0], c[1], PAGE_SIZE + 1],
    );
  return db.query<HolderRow>(
    `select holder, value::text as value, token_id::text as token_id from token_holdings
     where token_address = $1 and value > 0
       and ($2::numeric is null or (value, holder, token_id) < ($2::numeric, $3::bytea, $4::numeric))
     order by value desc, holder desc, token_id desc limit $5`,
    [toBytea(token), ...c, PAGE_SIZE + 1],
  );
}

/** GET /tokens/{h}/instances/{id}/holders: the id's holders by value then holder descending. */
export function instanceHoldersPage(
  db: Queryable,
  token: Address,
  tokenId: bigint,
  cursor: HolderCursor | null,
): Promise<HolderRow[]> {
  return db.query<HolderRow>(
    `select holder, value::text as value, token_id::text as token_id from token_holdings
     where token_address = $1 and token_id = $2 and value > 0
       and ($3::numeric is null or (value, holder) < ($3::numeric, $4::bytea))
     order by value desc, holder desc limit $5`,
    [
      toBytea(token),
      tokenId.toString(),
      cursor ? cursor.value.toString() : null,
      cursor ? toBytea(cursor.holder) : null,
      PAGE_SIZE + 1,
    ],
  );
}

/** The stored counters of a token (kept by the indexer), or null when it is unknown. */
export async function tokenCounters(
  db: Queryable,
  token: Address,
): Promise<{ holders: string; transfers: string } | null> {
  const [r] = await db.query<{ holders: string; transfers: string }>(
    "select holders_count::text as holders, transfers_count::text as transfers from tokens where address = $1",
    [toBytea(token)],
  );
  return r ?? null;
}

/**
 * Transfer events of one id (upstream counts rows of its token_transfers, one per event). Served by the
 * (token, id, block, log) index; an id's history is what is counted, not the token's.
 */
export async function instanceTransfersCount(
  db: Queryable,
  token: Address,
  tokenId: bigint,
): Promise<number> {
  const [r] = await db.query<{ n: string }>(
    `select count(distinct (block_number, log_index))::text as n from token_transfers
     where token_address = $1 and token_id = $2`,
    [toBytea(token), tokenId.toString()],
  );
  return Number(r!.n);
}
