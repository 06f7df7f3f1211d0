import { type TSchema, Type } from "@sinclair/typebox";

/** The 422 body of Blockscout 9.x+ (OpenApiSpex's JsonRenderErrorV2). */
export type V2ErrorBody = { errors: Array<{ title: string; source: { pointer: string }; detail: string }> };

export function invalidValue(pointer: string, detail: string): V2ErrorBody {
  return { errors: [{ title: "Invalid value", source: { pointer }, detail }] };
}

export const ADDRESS_HASH_PATTERN = "^0x([A-Fa-f0-9]{40})$";

export const FULL_HASH_PATTERN = "^0x([A-Fa-f0-9]{64})$";
/** Blockscout's 404 body for an unknown transaction or block. */
export const NOT_FOUND = { message: "Not found" } as const;

/** The 422 body as a response schema. */
export const V2ErrorSchema = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        title: Type.String(),
        source: Type.Object({ pointer: Type.String() }),
        detail: Type.String(),
      }),
    ),
  },
  { description: "Invalid input (Blockscout's 422 body)" },
);

export const NotFoundSchema = Type.Object({ message: Type.String() }, { description: "Not found" });

/**
 * The response schemas of an /api/v2 route: its 2xx body, the 422 of bad input and, where the route answers it, the
 * 404. Typed loosely on purpose: the schemas document the answers (the scope serialises with JSON.stringify), the
 * views' own types stay the handlers' return types.
 */
export function answers(ok: TSchema, o: { notFound?: boolean } = {}): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 200: ok };
  if (o.notFound) out[404] = NotFoundSchema;
  out[422] = V2ErrorSchema;
  return out;
}
