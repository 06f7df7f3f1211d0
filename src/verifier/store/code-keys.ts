import type { LinkReferences } from "../matching/index.js";
import { placeholdersToZeros } from "../matching/libraries.js";

/** Bytes of creation code that identify it for candidate lookups (long enough to tell contracts apart). */
export const CREATION_PREFIX_BYTES = 32;

/**
 * Compiled code as stored: library placeholders zeroed (the link references keep their positions, and the
 * matching engine accepts zeros there), so the column is plain bytes.
 */
export function codeBytesForIndex(code: string, _linkReferences?: LinkReferences | null): Buffer {
  const body = code.startsWith("0x") ? code.slice(2) : code;
  return Buffer.from(placeholdersToZeros(body), "hex");
}

/**
 * The lookup key of creation code: its first bytes. Library addresses and constructor arguments never sit this
 * early in Solidity or Vyper creation code, so a deployment's creation input starts with the same bytes.
 */
export function creationPrefix(code: Uint8Array): Buffer {
  return Buffer.from(code.subarray(0, CREATION_PREFIX_BYTES));
}
