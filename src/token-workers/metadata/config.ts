import { type AllowedHost, parseAllowedHosts } from "./allow-list.js";
import { DEFAULT_GATEWAYS, type Gateways } from "./gateways.js";

export type MetadataFetcherConfig = {
  gateways: Gateways;
  allowedHosts: AllowedHost[];
};

/** Reads IPFS_GATEWAY_URL, ARWEAVE_GATEWAY_URL and METADATA_ALLOWED_HOSTS (spec README, Interface contract). */
export function metadataFetcherConfigFromEnv(
  env: Record<string, string | undefined> = process.env,
): MetadataFetcherConfig {
  return {
    gateways: {
      ipfs: env.IPFS_GATEWAY_URL?.trim() || DEFAULT_GATEWAYS.ipfs,
      arweave: env.ARWEAVE_GATEWAY_URL?.trim() || DEFAULT_GATEWAYS.arweave,
      swarm: DEFAULT_GATEWAYS.swarm,
    },
    allowedHosts: parseAllowedHosts(env.METADATA_ALLOWED_HOSTS),
  };
}
