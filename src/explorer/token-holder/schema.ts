import { Type } from "@sinclair/typebox";
import { FrontendAddressParam, Null, Page, S } from "../frontend-schema.js";

export const FrontendTokenHolders = Page(
  Type.Object({ address: FrontendAddressParam, value: S, token_id: Type.Optional(Null(S)) }),
  Type.Object({ items_count: Type.Number(), value: S }),
);
