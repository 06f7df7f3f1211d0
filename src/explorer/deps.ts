import type { Db } from "../db/db.js";
import { type Gateways, metadataFetcherConfigFromEnv } from "../token-workers/metadata/index.js";
import type { VerifiedContractLookup } from "./objects/address-facts.js";
import { loadPublicTags, type PublicTags } from "./objects/tags.js";

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
