import type { Db } from "../../db/db.js";
import type { VerifiedContractLookup } from "../../explorer/address/query.js";
import { loadPublicTags, type PublicTags } from "../../explorer/address/tags.js";
import { type Gateways, metadataFetcherConfigFromEnv } from "../../tokens/metadata/index.js";

/** Options of the token/NFT/address route plugins. Unset parts come from the environment. */
export type ExplorerRouteOptions = {
  db: Db;
  /** The verified-contract store; none until the verifier plugs it in (is_verified false, no names). */
  verified?: VerifiedContractLookup;
  tags?: PublicTags;
  gateways?: Partial<Gateways>;
};

export type ExplorerDeps = {
  db: Db;
  verified?: VerifiedContractLookup;
  tags: PublicTags;
  gateways: Partial<Gateways>;
};

export function explorerDeps(o: ExplorerRouteOptions): ExplorerDeps {
  return {
    db: o.db,
    ...(o.verified ? { verified: o.verified } : {}),
    tags: o.tags ?? loadPublicTags(),
    gateways: o.gateways ?? metadataFetcherConfigFromEnv(process.env).gateways,
  };
}
