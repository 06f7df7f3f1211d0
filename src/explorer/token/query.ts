import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { TOKEN_COLUMNS, type TokenColumns } from "../objects/token-view.js";
import { PAGE_LIMIT } from "../paging.js";

/** Upstream's token-list keyset (its market cap and fiat value are always null here). */
export type TokenListCursor = { holdersCount: bigint; name: string | null; address: Address };
export type TokenListFilter = { types: readonly string[] | null; q: string | null };

/** LIKE pattern of a search term, its wildcards taken literally. */
const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The token list's orders, as upstream's sortings (fiat value, market cap, holders; each either way) come out
 * here: fiat value and market cap are always null, so those sorts leave the default order, holders descending
 * (tokens_list_idx); holders ascending is the other one (tokens_list_holders_asc_idx). Then name ascending (nulls
 * last) and address ascending.
 */
export type TokenListOrder = "holders_desc" | "holders_asc";

const HOLDERS = { holders_desc: "(-t.holders_count)", holders_asc: "t.holders_count" } as const;

/**
 * GET /tokens in `order`. The sort keys are all ascending expressions of the order's index, so a page is one forward
 * range scan from the cursor's row; `type` and `q` filter rows along that scan (q: an address matches that token,
 * else a substring of name or symbol).
 */
export function tokenListPage(
  db: Queryable,
  filter: TokenListFilter,
  cursor: TokenListCursor | null,
  order: TokenListOrder = "holders_desc",
): Promise<TokenColumns[]> {
  const holders = HOLDERS[order];
  const params: unknown[] = [PAGE_LIMIT];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (filter.types) where.push(`t.type = any(${p(filter.types)}::text[])`);
  if (filter.q !== null) {
    if (/^0x[0-9a-fA-F]{40}$/.test(filter.q)) where.push(`t.address = ${p(toBytea(filter.q))}`);
    else {
      const term = p(likeTerm(filter.q));
      where.push(`(t.name ilike ${term} or t.symbol ilike ${term})`);
    }
  }
  if (cursor)
    where.push(
      `(${holders}, (t.name is null), coalesce(t.name, ''), t.address) > (${p((order === "holders_asc" ? cursor.holdersCount : -cursor.holdersCount).toString())}::int8, ${p(cursor.name === null)}::bool, ${p(cursor.name ?? "")}::text, ${p(toBytea(cursor.address))}::bytea)`,
    );
  return db.query<TokenColumns>(
    `select ${TOKEN_COLUMNS} from tokens t ${where.length ? `where ${where.join(" and ")}` : ""}
     order by ${holders}, (t.name is null), coalesce(t.name, ''), t.address limit $1`,
    params,
  );
}

/** The token's columns (null when no such token was indexed). */
export async function tokenColumns(db: Queryable, token: Address): Promise<TokenColumns | null> {
  const [r] = await db.query<TokenColumns>(`select ${TOKEN_COLUMNS} from tokens t where t.address = $1`, [
    toBytea(token),
  ]);
  return r ?? null;
}

/** A token's kind as the holder lists need it, or null when no such token was indexed. */
export async function tokenType(db: Queryable, token: Address): Promise<string | null> {
  const [r] = await db.query<{ type: string }>("select type from tokens where address = $1", [
    toBytea(token),
  ]);
  return r?.type ?? null;
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
