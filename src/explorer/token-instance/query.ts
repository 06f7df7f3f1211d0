import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { TokenMetadata } from "../../token-workers/metadata/index.js";
import { TOKEN_COLUMNS, type TokenColumns } from "../objects/token-view.js";
import { PAGE_LIMIT } from "../paging.js";

export type InstancesPageRow = {
  token_id: string;
  metadata: TokenMetadata | null;
  /** The single holder of the id when it has exactly one (ERC-721 owner). */
  owner: Uint8Array | null;
  holders: string;
  id_supply: string | null;
};

/** The token row (null when unknown). */
export async function tokenRow(db: Queryable, token: Address): Promise<TokenColumns | null> {
  const [r] = await db.query<TokenColumns>(`select ${TOKEN_COLUMNS} from tokens t where t.address = $1`, [
    toBytea(token),
  ]);
  return r ?? null;
}

/**
 * GET /tokens/{h}/instances: the token's ids by id descending (upstream's `unique_token` keyset), a backward scan
 * of token_instances' primary key; holders per id from the (token, id) holdings index (few rows per id).
 */
export function instancesPage(
  db: Queryable,
  token: Address,
  before: bigint | null,
): Promise<InstancesPageRow[]> {
  return db.query<InstancesPageRow>(
    `select i.token_id::text as token_id, i.metadata, h.owner, h.holders::text as holders, h.id_supply
     from (select token_id, metadata from token_instances where token_address = $1
             and ($2::numeric is null or token_id < $2::numeric) order by token_id desc limit $3) i
     cross join lateral (select (array_agg(holder))[1] as owner, count(*) as holders, sum(value)::text as id_supply
       from token_holdings where token_address = $1 and token_id = i.token_id and value > 0) h
     order by i.token_id desc`,
    [toBytea(token), before?.toString() ?? null, PAGE_LIMIT],
  );
}
