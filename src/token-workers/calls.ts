import { decodeAbiParameters, type Hex, hexToString } from "viem";

/** Selectors of the read calls the token fetchers make. */
export const SELECTORS = {
  name: "0x06fdde03",
  symbol: "0x95d89b41",
  decimals: "0x313ce567",
  totalSupply: "0x18160ddd",
  supportsInterface: "0x01ffc9a7",
  tokenURI: "0xc87b56dd",
  uri: "0x0e89341c",
} as const;

/** ERC-165 interface ids of the NFT standards. */
export const INTERFACE_IDS = { "ERC-721": "0x80ac58cd", "ERC-1155": "0xd9b67a26" } as const;

export const uint256Arg = (v: bigint) => v.toString(16).padStart(64, "0");

/** PostgreSQL text cannot hold NUL; contracts sometimes pad strings with it. */
const clean = (s: string) => s.replaceAll("\u0000", "").trim();

/**
 * A string returned by a call: ABI `string`, or the `bytes32` some old tokens return for name/symbol.
 * null when it is neither. Pure.
 */
export function decodeStringResult(data: Hex | null | undefined): string | null {
  if (!data || data === "0x") return null;
  try {
    return clean(decodeAbiParameters([{ type: "string" }], data)[0]);
  } catch {
    if (data.length === 66) return clean(hexToString(data)) || null;
    return null;
  }
}

/** A uint256 returned by a call, as a decimal string; null when the answer is not one word. Pure. */
export function decodeUintResult(data: Hex | null | undefined): string | null {
  if (data?.length !== 66) return null;
  return BigInt(data).toString();
}

/** A bool returned by a call; null when the answer is not a 0/1 word. Pure. */
export function decodeBoolResult(data: Hex | null | undefined): boolean | null {
  const v = decodeUintResult(data);
  return v === "1" ? true : v === "0" ? false : null;
}
