import { type CborValue, decodeCborItem, isCborMap } from "./cbor.js";
import { parseCompilerVersion } from "./compiler-version.js";
import { bytesToHex } from "./hex.js";
import type { TrailingAuxdata } from "./solidity-auxdata.js";

/**
 * How a Vyper version lays out its auxdata:
 * - `none`: before 0.3.4, nothing is appended;
 * - `fixed-0.3.4`: 0.3.4 appends the 11-byte map `{vyper:[0,3,4]}` without a length suffix;
 * - `map`: 0.3.5–0.3.9 append a CBOR map plus a 2-byte length that does not count itself, in runtime code (and
 *   so inside the creation code that embeds it);
 * - `array`: 0.3.10–0.4.0 append `[runtime_size, data_sizes, immutable_size, {vyper}]` plus a 2-byte length that
 *   counts itself, to the creation code only;
 * - `array-integrity`: from 0.4.1 the array starts with a 32-byte integrity hash of the compiler input.
 */
export type VyperAuxdataStyle = "none" | "fixed-0.3.4" | "map" | "array" | "array-integrity";

export function vyperAuxdataStyle(compilerVersion: string): VyperAuxdataStyle | null {
  const v = parseCompilerVersion(compilerVersion);
  if (!v) return null;
  if (v.major > 0 || v.minor > 4) return "array-integrity";
  if (v.minor === 4) return v.patch >= 1 ? "array-integrity" : "array";
  if (v.minor < 3) return "none";
  if (v.patch < 4) return "none";
  if (v.patch === 4) return "fixed-0.3.4";
  if (v.patch < 10) return "map";
  return "array";
}

export type VyperMetadata = {
  /** `0.3.8`, from the `vyper` entry. */
  vyperVersion: string;
  /** 0.4.1+: keccak of the compiler input, binding the sources. */
  integrityHash?: `0x${string}`;
  /** 0.3.10+: sizes the compiler promises. */
  runtimeSize?: number;
  dataSizes?: number[];
  immutableSize?: number;
};

const FIXED_0_3_4 = Uint8Array.from([0xa1, 0x65, 0x76, 0x79, 0x70, 0x65, 0x72, 0x83, 0x00, 0x03, 0x04]);

function vyperVersionOf(map: CborValue | undefined): string | null {
  if (!isCborMap(map)) return null;
  const keys = Object.keys(map);
  const v = map["vyper"];
  if (keys.length !== 1 || !Array.isArray(v) || v.length !== 3) return null;
  if (!v.every((x) => typeof x === "number")) return null;
  return v.join(".");
}

function isUint(x: CborValue | undefined): x is number {
  return typeof x === "number";
}

/** Interprets the 0.3.10+ array; null if it has the wrong shape. */
function interpretArray(value: CborValue, withIntegrity: boolean): VyperMetadata | null {
  if (!Array.isArray(value)) return null;
  const items = withIntegrity ? value.slice(1) : value;
  if (items.length !== 4) return null;
  let integrityHash: `0x${string}` | undefined;
  if (withIntegrity) {
    const h = value[0];
    if (!(h instanceof Uint8Array) || h.length !== 32) return null;
    integrityHash = bytesToHex(h);
  }
  const [runtimeSize, dataSizes, immutableSize, map] = items;
  if (!isUint(runtimeSize) || !isUint(immutableSize)) return null;
  if (!Array.isArray(dataSizes) || !dataSizes.every(isUint)) return null;
  const vyperVersion = vyperVersionOf(map);
  if (vyperVersion === null) return null;
  const out: VyperMetadata = { vyperVersion, runtimeSize, dataSizes: dataSizes as number[], immutableSize };
  if (integrityHash) out.integrityHash = integrityHash;
  return out;
}

/** Finds the auxdata a Vyper compiler of `style` puts at the end of `code`, validated by decode and length. */
export function findTrailingVyperAuxdata(
  code: Uint8Array,
  style: VyperAuxdataStyle,
): TrailingAuxdata<VyperMetadata> | null {
  if (style === "none") return null;
  if (style === "fixed-0.3.4") {
    const offset = code.length - FIXED_0_3_4.length;
    if (offset < 0) return null;
    for (let i = 0; i < FIXED_0_3_4.length; i++) if (code[offset + i] !== FIXED_0_3_4[i]) return null;
    return { offset, value: bytesToHex(code.subarray(offset)), metadata: { vyperVersion: "0.3.4" } };
  }
  if (code.length < 2) return null;
  const suffix = ((code[code.length - 2] as number) << 8) | (code[code.length - 1] as number);
  // 0.3.5–0.3.9 count the CBOR only; 0.3.10+ count the suffix too.
  const offset = style === "map" ? code.length - 2 - suffix : code.length - suffix;
  if (offset < 0 || offset >= code.length - 2) return null;
  const decoded = decodeCborItem(code, offset, code.length - 2);
  if (!decoded || decoded.end !== code.length - 2) return null;
  let metadata: VyperMetadata | null;
  if (style === "map") {
    const vyperVersion = vyperVersionOf(decoded.value);
    metadata = vyperVersion === null ? null : { vyperVersion };
  } else {
    metadata = interpretArray(decoded.value, style === "array-integrity");
  }
  if (!metadata) return null;
  return { offset, value: bytesToHex(code.subarray(offset)), metadata };
}

/** Decodes a recorded Vyper auxdata value (as in `cborAuxdata`), trying the style the version implies. */
export function decodeVyperAuxdataValue(value: Uint8Array, style: VyperAuxdataStyle): VyperMetadata | null {
  const found = findTrailingVyperAuxdata(value, style);
  return found && found.offset === 0 ? found.metadata : null;
}
