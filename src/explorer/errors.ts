/** The 422 body of Blockscout 9.x+ (OpenApiSpex's JsonRenderErrorV2). */
export type V2ErrorBody = { errors: Array<{ title: string; source: { pointer: string }; detail: string }> };

export function invalidValue(pointer: string, detail: string): V2ErrorBody {
  return { errors: [{ title: "Invalid value", source: { pointer }, detail }] };
}

export const ADDRESS_HASH_PATTERN = "^0x([A-Fa-f0-9]{40})$";

export const FULL_HASH_PATTERN = "^0x([A-Fa-f0-9]{64})$";
/** Blockscout's 404 body for an unknown transaction or block. */
export const NOT_FOUND = { message: "Not found" } as const;
