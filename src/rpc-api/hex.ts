import { fromBytea, fromByteaOrNull } from "../db/bytes.js";

/** Lower-case 0x-hex of a bytea, "" for null (Blockscout interpolates nil as an empty string). */
export const hex = (v: Uint8Array): string => fromBytea(v);
export const hexOr = (v: Uint8Array | null | undefined): string => fromByteaOrNull(v) ?? "";

/** Unix seconds as a decimal string. */
export const unix = (d: Date): string => String(Math.floor(d.getTime() / 1000));

/** A quantity as 0x-hex without leading zeros (JSON-RPC's encoding). */
export const quantity = (v: string | number | bigint): string => `0x${BigInt(v).toString(16)}`;

/** A time as Elixir's DateTime.to_string prints a microsecond timestamp ("2024-01-02 03:04:05.000000Z"). */
export const elixirTime = (d: Date): string =>
  d
    .toISOString()
    .replace("T", " ")
    .replace(/\.(\d{3})Z$/, ".$1000Z");
