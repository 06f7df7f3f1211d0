import type { Address } from "viem";
import { deriveMediaUrls, type Gateways, type TokenMetadata } from "../../token-workers/metadata/index.js";
import type { NftType } from "../nft-params.js";
import type { AddressObject } from "./address-view.js";
import { checksummed } from "./checksum.js";
import type { TokenObject } from "./token-view.js";

/** A token instance as Blockscout's TokenView.prepare_token_instance renders it. */
export type TokenInstanceObject = {
  id: string;
  metadata: TokenMetadata | null;
  owner: AddressObject | null;
  token: TokenObject | null;
  external_app_url: string | null;
  animation_url: string | null;
  image_url: string | null;
  media_url: string | null;
  media_type: null;
  thumbnails: null;
  is_unique: boolean;
  holder_address_hash: Address | null;
};

/**
 * is_unique as the older upstream computed it (spec README, NFT items): ERC-721 always; ERC-1155/ERC-404 only when
 * the id's total supply is 1.
 */
export function isUnique(type: NftType, idSupply: string | null): boolean {
  return type === "ERC-721" || idSupply === "1";
}

export function tokenInstanceView(p: {
  id: string;
  metadata: TokenMetadata | null;
  token: TokenObject | null;
  unique: boolean;
  owner: AddressObject | null;
  holder: Address | null;
  gateways: Partial<Gateways>;
}): TokenInstanceObject {
  const media = deriveMediaUrls(p.metadata, p.gateways);
  return {
    id: p.id,
    metadata: p.metadata,
    owner: p.unique ? p.owner : null,
    token: p.token,
    external_app_url: media.external_app_url,
    animation_url: media.animation_url,
    image_url: media.image_url,
    media_url: media.media_url,
    media_type: null,
    thumbnails: null,
    is_unique: p.unique,
    holder_address_hash: p.holder ? checksummed(p.holder) : null,
  };
}
