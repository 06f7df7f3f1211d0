import type { Address } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { TokenMetadata } from "../../token-workers/metadata/index.js";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObject, loadAddressObjects } from "../objects/address-facts.js";
import type { NftType } from "../objects/nft-params.js";
import { isUnique, type TokenInstanceObject, tokenInstanceView } from "../objects/token-instance-view.js";
import { TOKEN_COLUMNS, type TokenColumns, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { instancesPage, PAGE_SIZE, tokenRow } from "./query.js";

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
  const rows = await instancesPage(db, token, before);
  const page = rows.slice(0, PAGE_SIZE);
  const unique = (r: (typeof page)[number]) =>
    type === "ERC-721" || (Number(r.holders) === 1 && isUnique(type, r.id_supply));
  const owners = await loadAddressObjects(
    db,
    page.filter((r) => r.owner && unique(r)).map((r) => fromBytea(r.owner!)),
    deps,
  );
  const tokenObject = tokenView(tokenFactsFromRow(token, t));
  const items = page.map((r) => {
    const owner = r.owner && unique(r) ? fromBytea(r.owner) : null;
    return tokenInstanceView({
      id: r.token_id,
      metadata: r.metadata,
      token: tokenObject,
      unique: unique(r),
      owner: owner ? owners.get(owner)! : null,
      holder: owner,
      gateways: deps.gateways ?? {},
    });
  });
  const last = page[page.length - 1];
  return {
    items,
    next_page_params:
      rows.length > PAGE_SIZE && last
        ? { unique_token: uniqueToken(last.token_id), items_count: page.length }
        : null,
  };
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
