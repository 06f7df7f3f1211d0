import type { Address } from "viem";
import { checksummed } from "./checksum.js";
import type { PublicTag } from "./tags.js";

/** Everything known about one address, as the loader gathers it. */
export type AddressFacts = {
  hash: Address;
  isContract: boolean;
  /** Contract name of a verified contract (verified-contract store), else null. */
  verifiedName: string | null;
  isVerified: boolean;
  tokenName: string | null;
  proxy: { type: string; implementations: Array<{ address: Address; name: string | null }> } | null;
  tags: readonly PublicTag[];
  ensDomainName: string | null;
};

/** Blockscout's address object (API.V2.Helper.address_with_info), newest field names plus implementation_name. */
export type AddressObject = {
  hash: Address;
  is_contract: boolean;
  name: string | null;
  is_scam: boolean;
  reputation: "ok";
  proxy_type: string | null;
  implementations: Array<{ address_hash: Address; name: string | null }>;
  implementation_name: string | null;
  is_verified: boolean;
  ens_domain_name: string | null;
  metadata: { tags: PublicTag[] } | null;
  private_tags: [];
  watchlist_names: [];
  public_tags: Array<{ address_hash: Address; display_name: string; label: string }>;
};

/**
 * Blockscout counts an address whose code only points elsewhere (an EIP-7702 delegation) as verified when every
 * implementation it points to is.
 */
function verifiedAsDelegate(f: AddressFacts): boolean {
  const impls = f.proxy?.type === "eip7702" ? f.proxy.implementations : [];
  return impls.length > 0 && impls.every((i) => i.name !== null);
}

/** The one rendering of an address used by every endpoint. Pure. */
export function addressView(f: AddressFacts): AddressObject {
  const hash = checksummed(f.hash);
  const implementations = (f.proxy?.implementations ?? []).map((i) => ({
    address_hash: checksummed(i.address),
    name: i.name,
  }));
  return {
    hash,
    is_contract: f.isContract,
    name: f.verifiedName ?? f.tokenName,
    is_scam: false,
    reputation: "ok",
    proxy_type: f.proxy?.type ?? null,
    implementations,
    implementation_name: implementations.find((i) => i.name !== null)?.name ?? null,
    is_verified: f.isVerified || verifiedAsDelegate(f),
    ens_domain_name: f.ensDomainName,
    metadata: f.tags.length ? { tags: [...f.tags] } : null,
    private_tags: [],
    watchlist_names: [],
    public_tags: f.tags.map((t) => ({ address_hash: hash, display_name: t.name, label: t.slug })),
  };
}

/** Facts of an address nothing is known about. */
export function unknownAddressFacts(hash: Address): AddressFacts {
  return {
    hash,
    isContract: false,
    verifiedName: null,
    isVerified: false,
    tokenName: null,
    proxy: null,
    tags: [],
    ensDomainName: null,
  };
}
