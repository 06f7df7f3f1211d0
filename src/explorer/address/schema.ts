import { Type } from "@sinclair/typebox";
import { Hash40, OrNull, Tag } from "../objects/address-schema.js";

/** The frontend's Address (address.ts). */
export const AddressSchema = Type.Object({
  block_number_balance_updated_at: OrNull(Type.Integer()),
  coin_balance: OrNull(Type.String({ pattern: "^[0-9]+$" })),
  creator_address_hash: OrNull(Hash40),
  creation_transaction_hash: OrNull(Type.String({ pattern: "^0x[0-9a-f]{64}$" })),
  exchange_rate: OrNull(Type.String()),
  ens_domain_name: OrNull(Type.String()),
  has_logs: Type.Boolean(),
  has_token_transfers: Type.Boolean(),
  has_tokens: Type.Boolean(),
  has_validated_blocks: Type.Boolean(),
  hash: Hash40,
  implementations: OrNull(Type.Array(Type.Object({ address_hash: Type.String() }))),
  is_contract: Type.Boolean(),
  is_verified: Type.Boolean(),
  name: OrNull(Type.String()),
  token: OrNull(Type.Object({ address_hash: Type.String(), type: Type.String() })),
  watchlist_address_id: OrNull(Type.Integer()),
  private_tags: OrNull(Type.Array(Tag)),
  watchlist_names: OrNull(Type.Array(Type.Object({ label: Type.String(), display_name: Type.String() }))),
  public_tags: OrNull(Type.Array(Tag)),
});
