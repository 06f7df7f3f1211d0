import type { Hex } from "viem";

/** A 0x-hex string as the Buffer both drivers accept for `bytea` parameters. */
export function toBytea(hex: string): Buffer {
  return Buffer.from(hex.startsWith("0x") ? hex.slice(2) : hex, "hex");
}

export function toByteaOrNull(hex: string | null | undefined): Buffer | null {
  return hex == null ? null : toBytea(hex);
}

/**
 * A `bytea` value from either driver as a Buffer (its memory, not a copy): node-postgres hands out Buffers already;
 * PGlite hands out plain Uint8Arrays. So it can go back as a parameter, or be read as hex.
 */
export function byteaBuffer(value: Uint8Array): Buffer {
  return value instanceof Buffer ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** A `bytea` value from either driver as lower-case 0x-hex. */
export function fromBytea(value: Uint8Array): Hex {
  return `0x${byteaBuffer(value).toString("hex")}`;
}

export function fromByteaOrNull(value: Uint8Array | null | undefined): Hex | null {
  return value == null ? null : fromBytea(value);
}
