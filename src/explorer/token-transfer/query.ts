import type { Address, Hex } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { TokenMetadata } from "../../tokens/metadata/index.js";
import { TOKEN_COLUMNS, type TokenColumns } from "../tokens/view.js";

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
};

/** Position of a transfer: (block, log index, row of an ERC-1155 batch). */
export type TransferCursor = { blockNumber: number; logIndex: number; batchIndex: number };

const SELECT = `select tt.block_number, tt.log_index, tt.batch_index, tt.transaction_hash, tt.token_address,
  tt.from_address, tt.to_address, tt.token_id::text as token_id, tt.amount::text as amount, b.hash as block_hash,
  b.timestamp, ${TOKEN_COLUMNS}, i.metadata
  from token_transfers tt join blocks b on b.number = tt.block_number left join tokens t on t.address = tt.token_address
  left join token_instances i on i.token_address = tt.token_address and i.token_id = tt.token_id`;

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
 * An address's transfers, newest first, before the cursor: one backward range scan of the from- or to-index each
 * (both for no direction, merged and deduplicated: a transfer to oneself is in both).
 */
export async function addressTransfersPage(
  db: Queryable,
  address: Address,
  o: { direction: TransferDirection; types: readonly string[] | null; token: Address | null },
  before: TransferCursor | null,
  limit: number,
): Promise<TokenTransferRow[]> {
  const side = (column: "from_address" | "to_address") =>
    db.query<TokenTransferRow>(
      `${SELECT} where tt.${column} = $1 and ${TYPE_FILTER("$2")}
         and ($3::bytea is null or tt.token_address = $3)
         and tt.block_number <= $4 and (tt.block_number, tt.log_index, tt.batch_index) < ($4, $5, $6)
       order by tt.block_number desc, tt.log_index desc, tt.batch_index desc limit $7`,
      [
        toBytea(address),
        o.types,
        o.token ? toBytea(o.token) : null,
        before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
        before?.logIndex ?? 2 ** 31 - 1,
        before?.batchIndex ?? 2 ** 31 - 1,
        limit,
      ],
    );
  if (o.direction === "from") return side("from_address");
  if (o.direction === "to") return side("to_address");
  const [a, b] = await Promise.all([side("from_address"), side("to_address")]);
  const seen = new Set<string>();
  return [...a, ...b]
    .sort(
      (x, y) => y.block_number - x.block_number || y.log_index - x.log_index || y.batch_index - x.batch_index,
    )
    .filter((r) => {
      const k = `${r.block_number}:${r.log_index}:${r.batch_index}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .slice(0, limit);
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
