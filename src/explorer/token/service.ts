import type { Address } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { Gateways, TokenMetadata } from "../../token-workers/metadata/index.js";
import { isUnique, type TokenInstanceObject, tokenInstanceView } from "../nft/view.js";
import { type AddressDeps, loadAddressObject } from "../objects/address-facts.js";
import type { NftType } from "../objects/nft-params.js";
import {
  TOKEN_COLUMNS,
  type TokenColumns,
  type TokenObject,
  tokenFactsFromRow,
  tokenView,
} from "../objects/token-view.js";

/** GET /tokens/{a}: the token object, or null when no such token was indexed. */
export async function tokenObject(db: Queryable, address: Address): Promise<TokenObject | null> {
  const [r] = await db.query<TokenColumns>(`select ${TOKEN_COLUMNS} from tokens t where t.address = $1`, [
    toBytea(address),
  ]);
  return r ? tokenView(tokenFactsFromRow(address, r)) : null;
}

type InstanceRow = TokenColumns & {
  metadata: TokenMetadata | null;
  owner: Uint8Array | null;
  holders: number;
  id_supply: string | null;
};

/**
 * GET /tokens/{a}/instances/{id}: null (a 404, as upstream) when the token is unknown or an ERC-20, or the id was never
 * minted (no transfer of it seen; a burned id stays an instance).
 * `owner` is the single holder when the instance is unique (ERC-721 owner; sole holder of a supply-1 id).
 */
export async function tokenInstance(
  db: Queryable,
  address: Address,
  tokenId: bigint,
  deps: AddressDeps & { gateways: Partial<Gateways> },
): Promise<TokenInstanceObject | null> {
  const [r] = await db.query<InstanceRow>(
    `select ${TOKEN_COLUMNS}, i.metadata,
       (select holder from token_holdings h where h.token_address = t.address and h.token_id = $2 and h.value > 0 limit 1) as owner,
       (select count(*) from token_holdings h where h.token_address = t.address and h.token_id = $2 and h.value > 0) as holders,
       (select sum(value)::text from token_holdings h where h.token_address = t.address and h.token_id = $2 and h.value > 0) as id_supply
     from tokens t join token_instances i on i.token_address = t.address and i.token_id = $2
     where t.address = $1 and t.type <> 'ERC-20'`,
    [toBytea(address), tokenId.toString()],
  );
  if (!r) return null;
  const type = (r.t_type ?? "ERC-721") as NftType;
  const unique = Number(r.holders) === 1 && isUnique(type, r.id_supply);
  const owner = unique && r.owner ? await loadAddressObject(db, fromBytea(r.owner), deps) : null;
  return tokenInstanceView({
    id: tokenId.toString(),
    metadata: r.metadata,
    token: tokenView(tokenFactsFromRow(address, r)),
    unique: type === "ERC-721" ? true : unique,
    owner,
    holder: null,
    gateways: deps.gateways,
  });
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
