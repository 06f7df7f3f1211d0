import type { Hex } from "./types.js";

const HEX_RE = /^[0-9a-fA-F]*$/;

/** Strips `0x` and lowercases; does not validate. */
export function stripHex(code: string): string {
  return (code.startsWith("0x") || code.startsWith("0X") ? code.slice(2) : code).toLowerCase();
}

export function isHexBody(body: string): boolean {
  return body.length % 2 === 0 && HEX_RE.test(body);
}

/** Parses hex into bytes; returns null on odd length or non-hex characters. */
export function hexToBytes(code: string): Uint8Array | null {
  const body = stripHex(code);
  if (!isHexBody(body)) return null;
  return Buffer.from(body, "hex");
}

export function bytesToHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Index of the first differing byte over the common length; the shorter length if one is a prefix; -1 if equal. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Byte index of `needle` in `hay`, or -1. */
export function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  if (needle.length === 0) return from;
  return Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength).indexOf(
    Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength),
    from,
  );
}
