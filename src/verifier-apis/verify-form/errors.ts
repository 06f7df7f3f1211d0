import { Type } from "@sinclair/typebox";

/** Blockscout's 422 body (OpenApiSpex's JsonRenderErrorV2), for the OpenAPI document. */
export const InvalidValueBody = Type.Object({
  errors: Type.Array(
    Type.Object({
      title: Type.String(),
      source: Type.Object({ pointer: Type.String() }),
      detail: Type.String(),
    }),
  ),
});
export const MessageBody = Type.Object({ message: Type.String() });
