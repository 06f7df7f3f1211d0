import { type TSchema, Type } from "@sinclair/typebox";

/**
 * `T | null` as one JSON-schema type list rather than anyOf: fast-json-stringify serialises a type list by a typeof
 * check, whereas anyOf makes it validate each candidate branch for every value.
 */
export function nullable<T extends TSchema & { type: string }>(schema: T) {
  return Type.Unsafe<T["static"] | null>({ ...schema, type: [schema.type, "null"] });
}

export const NullableString = nullable(Type.String());

/**
 * The address object of view.ts as a response schema, every field of it (a response schema drops the ones it does
 * not list). The tag lists and metadata are free-form and serialised as they are.
 */
export const AddressObjectSchema = Type.Object({
  hash: Type.String(),
  is_contract: Type.Boolean(),
  name: NullableString,
  is_scam: Type.Boolean(),
  reputation: Type.String(),
  proxy_type: NullableString,
  implementations: Type.Array(Type.Object({ address_hash: Type.String(), name: NullableString })),
  implementation_name: NullableString,
  is_verified: Type.Boolean(),
  ens_domain_name: NullableString,
  metadata: Type.Unknown({ description: "{ tags: [...] } or null" }),
  private_tags: Type.Array(Type.Unknown()),
  watchlist_names: Type.Array(Type.Unknown()),
  public_tags: Type.Array(
    Type.Object({ address_hash: Type.String(), display_name: Type.String(), label: Type.String() }),
  ),
});

/** `T | null` (the frontend's `X | null`: present, possibly null). */
export const OrNull = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Tag = Type.Object({
  label: Type.String(),
  display_name: Type.String(),
  address_hash: Type.String(),
});
export const Hash40 = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" });

/** The frontend's AddressParam (addressParams.ts): every required member, with its type. */
export const AddressParamSchema = Type.Object({
  hash: Hash40,
  implementations: OrNull(Type.Array(Type.Object({ address_hash: Type.String() }))),
  name: OrNull(Type.String()),
  is_contract: Type.Boolean(),
  is_verified: OrNull(Type.Boolean()),
  ens_domain_name: OrNull(Type.String()),
  private_tags: OrNull(Type.Array(Tag)),
  watchlist_names: OrNull(Type.Array(Type.Object({ label: Type.String(), display_name: Type.String() }))),
  public_tags: OrNull(Type.Array(Tag)),
});
