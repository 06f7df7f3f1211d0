import { Type } from "@sinclair/typebox";
import { OrNull } from "../objects/address-schema.js";

export const PreviewQuery = Type.Object({
  preload_ens: Type.Optional(Type.Boolean()),
  preload_metadata: Type.Optional(Type.Boolean()),
  decode_input: Type.Optional(Type.Boolean()),
});

const PreviewAddress = Type.Object({
  hash: Type.String(),
  name: OrNull(Type.String()),
  ens_domain_name: OrNull(Type.String()),
  metadata: OrNull(Type.Unknown()),
});

/** GET /transactions/{h}/preview (TransactionView "preview.json"): for social-media previews. */
export const TransactionPreviewSchema = Type.Object({
  status: OrNull(Type.Union([Type.Literal("ok"), Type.Literal("error")])),
  timestamp: OrNull(Type.String()),
  method: OrNull(Type.String()),
  from: OrNull(PreviewAddress),
  to: OrNull(PreviewAddress),
});
