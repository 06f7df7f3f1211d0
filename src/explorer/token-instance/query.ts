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

export type InstanceRow = TokenColumns & {
  metadata: TokenMetadata | null;
  owner: Uint8Array | null;
  holders: number;
  id_supply: string | null;
};

/**
 * GET /tokens/{a}/instances/{id}: the token and the instance, with the id's holders (a single `owner` when it has
 * exactly one), its holder count and supply; null when the token is unknown or an ERC-20, or the id was never minted.
 */
export async function instanceRow(
  db: Queryable,
  address: Address,
  tokenId: bigint,
): Promise<InstanceRow | null> {
  const [r] = await db.query<InstanceRow>(
    `select ${TOKEN_COLUMNS}, i.metadata,
       (select holder from token_holdings h where h.token_address = t.address and h.token_id = $2 and h.value > 0 limit 1) as owner,
       (select count(*) from token_holdings h where h.token_address = t.address and h.token_id = $2 and h.value > 0) as holders,
       (select sum(value)::text from token_holdings h where h.token_address = t.address and h.token_id = $2 and h.value > 0) as id_supply
     from tokens t join token_instances i on i.token_address = t.address and i.token_id = $2
     where t.address = $1 and t.type <> 'ERC-20'`,
    [toBytea(address), tokenId.toString()],
  );
  return r ?? null;
}

/** Clears the give-up and backoff of an instance: the metadata worker fetches it at its next poll. */
export async function requestMetadataRefetch(
  db: Queryable,
  address: Address,
  tokenId: bigint,
): Promise<boolean> {
  const rows = await db.query(
    `update token_instances set retry_at = now(), fetch_attempts = 0, gave_up = false
     where token_address = $1 and token_id = $2 returning 1`,
    [toBytea(address), tokenId.toString()],
  );
  return rows.length > 0;
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
