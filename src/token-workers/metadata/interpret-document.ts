import { type Failure, failure } from "./reasons.js";

/** Token metadata as stored: always a JSON object. */
export type TokenMetadata = Record<string, unknown>;

export type MetadataResult = { ok: true; metadata: TokenMetadata } | Failure;

export function isMediaContentType(contentType: string): boolean {
  return contentType.startsWith("image/") || contentType.startsWith("video/");
}

/**
 * Turns a fetched document into metadata, as upstream does (spec §5 "Response handling"): `image/*` becomes
 * `{image: url}`, `video/*` becomes `{animation_url: url}` (audio is not mentioned there, so it must be JSON);
 * anything else must parse as a JSON object, whatever content type it was served with. Pure.
 */
export function interpretDocument(
  contentType: string,
  body: Buffer | null,
  mediaUrl: string,
): MetadataResult {
  const ct = contentType.trim().toLowerCase();
  if (ct.startsWith("image/")) return { ok: true, metadata: { image: mediaUrl } };
  if (ct.startsWith("video/")) return { ok: true, metadata: { animation_url: mediaUrl } };
  const text = (body ?? Buffer.alloc(0)).toString("utf8").replace(/^\uFEFF/, "");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return failure("invalid_json", `invalid json: ${(e as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return failure(
      "not_an_object",
      `wrong metadata type: ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}`,
    );
  }
  return { ok: true, metadata: value as TokenMetadata };
}
