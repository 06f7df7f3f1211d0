import { InvalidInputError } from "../errors/base.js";

/**
 * The aggregator's page token of a tuple: a base64url (unpadded) JSON array of strings. Clients hand it back as
 * they got it; what the strings mean is the list's own.
 */
export function encodePageToken(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/** The strings of a page token of `arity` parts; a 400 in the aggregator's words for anything else. */
export function decodePageToken(token: string, arity: number): string[] {
  let parts: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error("not base64url");
    parts = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw new InvalidInputError("invalid page_token: base64 decode error", { field: "page_token" });
  }
  if (!Array.isArray(parts) || parts.length !== arity || !parts.every((p) => typeof p === "string"))
    throw new InvalidInputError(`invalid page_token: invalid format, expected ${arity} values`, {
      field: "page_token",
    });
  return parts as string[];
}
