import type { Address, Hex } from "viem";
import { newestProxySql } from "../../chain-store/proxies.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { TokenMetadata } from "../../token-workers/metadata/index.js";
import { calleeVerifiedSql } from "../../verifier/store/index-fragments.js";
import { type AddressFactColumns, addressFactsJoin } from "../objects/address-facts.js";
import { TOKEN_COLUMNS, type TokenColumns } from "../objects/token-view.js";

/** A token_transfers row with its block and token (numerics as decimal strings). */
export type TokenTransferRow = TokenColumns & {
  block_number: number;
  log_index: number;
  batch_index: number;
  transaction_hash: Uint8Array;
  token_address: Uint8Array;
  from_address: Uint8Array;
  to_address: Uint8Array;
  token_id: string | null;
  amount: string;
  block_hash: Uint8Array;
  timestamp: Date;
  /** The instance's metadata (null until fetched, and for fungible transfers). */
  metadata: TokenMetadata | null;
  /** The transaction's callee, and its input: whole when the callee is verified (to decode), else its selector. */
  x_to_address: Uint8Array | null;
  x_input: Uint8Array;
  callee_verified: boolean;
} & FactsOf<"af"> &
  FactsOf<"at">;

type FactsOf<A extends string> = {
  [K in keyof AddressFactColumns as K extends `o_${infer C}` ? `${A}_${C}` : never]: AddressFactColumns[K];
};

/** Position of a transfer: (block, log index, row of an ERC-1155 batch). */
export type TransferCursor = { blockNumber: number; logIndex: number; batchIndex: number };

const FROM_FACTS = addressFactsJoin("af", "tt.from_address");
const TO_FACTS = addressFactsJoin("at", "tt.to_address");

/**
 * Columns of TokenTransferRow over `tt` (token_transfers rows) and JOINS. Each row brings what its view needs, so
 * a page is one round trip: block, token, instance, the address facts of both sides, and its transaction's callee
 * and selector (primary-key probes each).
 */
const COLUMNS = `tt.block_number, tt.log_index, tt.batch_index, tt.transaction_hash, tt.token_address,
  tt.from_address, tt.to_address, tt.token_id::text as token_id, tt.amount::text as amount, b.hash as block_hash,
  b.timestamp, ${TOKEN_COLUMNS}, i.metadata, x.to_address as x_to_address,
  case when x.callee_verified then x.input else substring(x.input from 1 for 4) end as x_input, x.callee_verified,
  ${FROM_FACTS.columns}, ${TO_FACTS.columns}`;

const JOINS = `join blocks b on b.number = tt.block_number left join tokens t on t.address = tt.token_address
  left join token_instances i on i.token_address = tt.token_address and i.token_id = tt.token_id
  left join lateral (select x.to_address, x.input, ${calleeVerifiedSql(
    "x.to_address",
    newestProxySql("x.to_address"),
  )} as callee_verified from transactions x where x.hash = tt.transaction_hash) x on true
  ${FROM_FACTS.join} ${TO_FACTS.join}`;

const SELECT = `select ${COLUMNS} from token_transfers tt ${JOINS}`;

const TYPE_FILTER = (p: string) => `(${p}::text[] is null or t.type = any(${p}::text[]))`;

/**
 * A transaction's transfers in log order after the cursor. The transaction's block comes first (primary key of
 * transactions), then the block's range of the token_transfers primary key.
 */
export function transactionTransfersPage(
  db: Queryable,
  hash: Hex,
  types: readonly string[] | null,
  after: TransferCursor | null,
  limit: number,
): Promise<TokenTransferRow[]> {
  return db.query<TokenTransferRow>(
    `${SELECT} where tt.block_number = (select block_number from transactions where hash = $1)
       and tt.transaction_hash = $1 and ${TYPE_FILTER("$2")}
       and (tt.log_index, tt.batch_index) > ($3, $4)
     order by tt.log_index, tt.batch_index limit $5`,
    [toBytea(hash), types, after?.logIndex ?? -1, after?.batchIndex ?? -1, limit],
  );
}

export type TransferDirection = "from" | "to" | null;

/**
 * An address's transfers, newest first, before the cursor, in one statement: one backward range scan each of the
 * (from_address | to_address, block_number, log_index, batch_index) indexes, limited to the page (both for no
 * direction, merged and deduplicated: a transfer to oneself is in both), then the page's joins. The cost of a page
 * does not grow with its depth. The text has one shape per combination of filters (prepared).
 */
export async function addressTransfersPage(
  db: Queryable,
  address: Address,
  o: { direction: TransferDirection; types: readonly string[] | null; token: Address | null },
  before: TransferCursor | null,
  limit: number,
): Promise<TokenTransferRow[]> {
  const params: unknown[] = [
    toBytea(address),
    before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
    before?.logIndex ?? 2 ** 31 - 1,
    before?.batchIndex ?? 2 ** 31 - 1,
    limit,
  ];
  let filters = "";
  if (o.types) {
    params.push(o.types);
    filters += ` and exists (select 1 from tokens k where k.address = s.token_address
      and k.type = any($${params.length}::text[]))`;
  }
  if (o.token) {
    params.push(toBytea(o.token));
    filters += ` and s.token_address = $${params.length}`;
  }
  const order = "block_number desc, log_index desc, batch_index desc";
  const side = (column: "from_address" | "to_address") =>
    `(select s.* from token_transfers s where s.${column} = $1${filters}
       and (s.block_number, s.log_index, s.batch_index) < ($2, $3, $4) order by ${order} limit $5)`;
  const sides =
    o.direction === "from"
      ? [side("from_address")]
      : o.direction === "to"
        ? [side("to_address")]
        : [side("from_address"), side("to_address")];
  return db.query<TokenTransferRow>(
    `select ${COLUMNS} from (select distinct on (block_number, log_index, batch_index) *
       from (${sides.join(" union all ")}) u order by ${order} limit $5) tt ${JOINS}
     order by tt.${order.replaceAll(", ", ", tt.")}`,
    params,
    { prepare: true },
  );
}

/** Which transfers a chain-wide list walks: all of them, one token's, or one token instance's. */
export type TransferScope = { token?: Address; tokenId?: string };

/**
 * Transfers newest first before the cursor, over the chain, a token or a token instance: a backward range scan of
 * the primary key, of (token_address, block_number, log_index, batch_index), or of token_transfers_token_id_idx.
 */
export function transfersPage(
  db: Queryable,
  scope: TransferScope,
  types: readonly string[] | null,
  before: TransferCursor | null,
  limit: number,
): Promise<TokenTransferRow[]> {
  const where = scope.token
    ? scope.tokenId !== undefined
      ? "tt.token_address = $6 and tt.token_id = $7::numeric and"
      : "tt.token_address = $6 and"
    : "";
  const params: unknown[] = [
    types,
    before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
    before?.logIndex ?? 2 ** 31 - 1,
    before?.batchIndex ?? 2 ** 31 - 1,
    limit,
  ];
  if (scope.token) params.push(toBytea(scope.token));
  if (scope.token && scope.tokenId !== undefined) params.push(scope.tokenId);
  return db.query<TokenTransferRow>(
    `${SELECT} where ${where} ${TYPE_FILTER("$1")}
       and tt.block_number <= $2 and (tt.block_number, tt.log_index, tt.batch_index) < ($2, $3, $4)
     order by tt.block_number desc, tt.log_index desc, tt.batch_index desc limit $5`,
    params,
  );
}

/**
 * The transfers of blocks `from..to` from or to one of `addresses`, newest first (the socket's per-address
 * `token_transfer` events): the block range bounds the scan, whatever the number of addresses.
 */
export function rangeAddressTransfers(
  db: Queryable,
  addresses: readonly Address[],
  from: number,
  to: number,
  limit: number,
): Promise<TokenTransferRow[]> {
  return db.query<TokenTransferRow>(
    `${SELECT} where tt.block_number between $2 and $3
       and (tt.from_address = any($1::bytea[]) or tt.to_address = any($1::bytea[]))
     order by tt.block_number desc, tt.log_index desc, tt.batch_index desc limit $4`,
    [addresses.map(toBytea), from, to, limit],
  );
}
