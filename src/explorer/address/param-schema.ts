import { type TSchema, Type } from "@sinclair/typebox";

/** `T | null` (the frontend's `X | null`: present, possibly null). */
export const OrNull = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const Tag = Type.Object({ label: Type.String(), display_name: Type.String(), address_hash: Type.String() });

/**
 * The frontend's AddressParam (types/api/addressParams.ts, v2.0.3): UserTags & AddressParamBasic, every member the
 * type requires; more members are allowed (Blockscout sends more).
 */
export const AddressParamSchema = Type.Object({
  hash: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
  implementations: OrNull(
    Type.Array(Type.Object({ address_hash: Type.String(), name: Type.Optional(OrNull(Type.String())) })),
  ),
  name: OrNull(Type.String()),
  is_contract: Type.Boolean(),
  is_verified: OrNull(Type.Boolean()),
  ens_domain_name: OrNull(Type.String()),
  private_tags: OrNull(Type.Array(Tag)),
  watchlist_names: OrNull(Type.Array(Type.Object({ label: Type.String(), display_name: Type.String() }))),
  public_tags: OrNull(Type.Array(Tag)),
});
