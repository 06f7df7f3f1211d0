import { type CborValue, decodeCborItem, isCborMap } from "./cbor.js";
import { bytesToHex } from "./hex.js";
import type { Hex } from "./types.js";

/** What solc's CBOR metadata says. `hash` is absent with `bytecodeHash: "none"`. */
export type SolidityMetadata = {
  hash?: { kind: "ipfs" | "bzzr0" | "bzzr1"; digest: Hex };
  /** `0.8.18` for releases; the full string for prereleases/nightlies. */
  solcVersion?: string;
  experimental?: boolean;
};

export type TrailingAuxdata<M> = {
  /** Byte offset of the CBOR item in the code. */
  offset: number;
  /** The CBOR plus its length suffix (if the format has one), as stored in `cborAuxdata` artifacts. */
  value: Hex;
  metadata: M;
};

const KNOWN_KEYS = new Set(["ipfs", "bzzr0", "bzzr1", "solc", "experimental"]);

/** Interprets a decoded CBOR map as solc metadata; null if it is not one (unknown key or wrongly typed value). */
export function interpretSolidityMetadata(value: CborValue): SolidityMetadata | null {
  if (!isCborMap(value)) return null;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((k) => KNOWN_KEYS.has(k))) return null;
  const out: SolidityMetadata = {};
  for (const kind of ["ipfs", "bzzr0", "bzzr1"] as const) {
    const digest = value[kind];
    if (digest === undefined) continue;
    if (!(digest instanceof Uint8Array)) return null;
    out.hash = { kind, digest: bytesToHex(digest) };
  }
  const solc = value["solc"];
  if (solc instanceof Uint8Array) {
    if (solc.length !== 3) return null;
    out.solcVersion = `${solc[0]}.${solc[1]}.${solc[2]}`;
  } else if (typeof solc === "string") {
    out.solcVersion = solc;
  } else if (solc !== undefined) {
    return null;
  }
  const experimental = value["experimental"];
  if (experimental !== undefined) {
    if (typeof experimental !== "boolean") return null;
    out.experimental = experimental;
  }
  // A map with neither a hash nor a compiler version would prove nothing about being solc output.
  if (!out.hash && out.solcVersion === undefined) return null;
  return out;
}

/**
 * Finds solc's CBOR metadata at the very end of the code: `<cbor><2-byte big-endian length of the cbor>`.
 * Only accepted when the item decodes, ends exactly at the length suffix, and looks like solc metadata.
 */
export function findTrailingSolidityAuxdata(code: Uint8Array): TrailingAuxdata<SolidityMetadata> | null {
  if (code.length < 2) return null;
  const len = ((code[code.length - 2] as number) << 8) | (code[code.length - 1] as number);
  const offset = code.length - 2 - len;
  if (len === 0 || offset < 0) return null;
  const decoded = decodeCborItem(code, offset, code.length - 2);
  if (!decoded || decoded.end !== code.length - 2) return null;
  const metadata = interpretSolidityMetadata(decoded.value);
  if (!metadata) return null;
  return { offset, value: bytesToHex(code.subarray(offset)), metadata };
}

/**
 * Decodes an auxdata value as recorded in `cborAuxdata` (CBOR followed by its 2-byte length, or bare CBOR).
 * Null if it is not solc metadata.
 */
export function decodeSolidityAuxdataValue(value: Uint8Array): SolidityMetadata | null {
  const decoded = decodeCborItem(value, 0);
  if (!decoded) return null;
  if (decoded.end === value.length - 2) {
    const len = ((value[value.length - 2] as number) << 8) | (value[value.length - 1] as number);
    if (len !== decoded.end) return null;
  } else if (decoded.end !== value.length) {
    return null;
  }
  return interpretSolidityMetadata(decoded.value);
}
