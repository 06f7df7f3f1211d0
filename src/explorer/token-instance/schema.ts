import { Type } from "@sinclair/typebox";
import { FrontendAddressParam, Null, Page, S } from "../frontend-schema.js";

export const FrontendTokenInstance = Type.Object({
  is_unique: Type.Boolean(),
  id: S,
  holder_address_hash: Null(S),
  image_url: Null(S),
  animation_url: Null(S),
  media_url: Type.Optional(Null(S)),
  media_type: Type.Optional(Null(S)),
  external_app_url: Null(S),
  metadata: Null(Type.Record(S, Type.Unknown())),
  owner: Null(FrontendAddressParam),
  thumbnails: Null(Type.Object({ original: S })),
});
export const FrontendTokenInventory = Page(
  FrontendTokenInstance,
  Type.Object({ unique_token: Type.Union([Type.Number(), S]) }),
);
export const FrontendTokenInstanceTransfersCount = Type.Object({ transfers_count: Type.Number() });

/** PATCH /tokens/{h}/instances/{id}/refetch-metadata: the acknowledgement. */
export const RefetchSchema = Type.Object({ message: Type.String() });
