import type { Address } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { TokenMetadata } from "../../token-workers/metadata/index.js";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObject } from "../objects/address-facts.js";
import type { NftType } from "../objects/nft-params.js";
import { isUnique, type TokenInstanceObject, tokenInstanceView } from "../objects/token-instance-view.js";
import { TOKEN_COLUMNS, type TokenColumns, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { page } from "../paging.js";
import { type InstancesPageRow, instancesPage, tokenRow } from "./query.js";

export type InstancesPage = {
  items: TokenInstanceObject[];
  next_page_params: { unique_token: number | string; items_count: number } | null;
};

/** Upstream sends the id as a JSON integer (the frontend's type is a number); beyond 2^53 a string keeps it exact. */
const uniqueToken = (id: string) => (BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id);

/** GET /tokens/{h}/instances; null when the token is unknown or an ERC-20 (upstream's 404). */
export async function tokenInstances(
  db: Queryable,
  token: Address,
  before: bigint | null,
  deps: Omit<ExplorerDeps, "db">,
): Promise<InstancesPage | null> {
  const t = await tokenRow(db, token);
  if (t === null || t.t_type === "ERC-20") return null;
  const type = t.t_type as NftType;
  const unique = (r: InstancesPageRow) =>
    type === "ERC-721" || (Number(r.holders) === 1 && isUnique(type, r.id_supply));
  // The owner shown: the single holder of a unique instance.
  const ownerOf = (r: InstancesPageRow) => (r.owner && unique(r) ? fromBytea(r.owner) : null);
  const tokenObject = tokenView(tokenFactsFromRow(token, t));
  return page({
    rows: await instancesPage(db, token, before),
    cursor: (last) => ({ unique_token: uniqueToken(last.token_id) }),
    addressesOf: (rows) => rows.map(ownerOf).filter((a) => a !== null),
    deps: { ...deps, db },
    render: (rows, owners) =>
      rows.map((r) => {
        const owner = ownerOf(r);
        return tokenInstanceView({
          id: r.token_id,
          metadata: r.metadata,
          token: tokenObject,
          unique: unique(r),
          owner: owner ? owners.get(owner)! : null,
          holder: owner,
          gateways: deps.gateways ?? {},
        });
      }),
  });
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
  deps: Omit<ExplorerDeps, "db">,
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
    gateways: deps.gateways ?? {},
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
