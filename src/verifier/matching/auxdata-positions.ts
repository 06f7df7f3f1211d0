import { decodeCborItem, isCborMap } from "./cbor.js";
import { bytesToHex, hexToBytes, indexOfBytes } from "./hex.js";
import { placeholdersToZeros } from "./libraries.js";
import {
  decodeSolidityAuxdataValue,
  findTrailingSolidityAuxdata,
  interpretSolidityMetadata,
} from "./solidity-auxdata.js";
import type { CborAuxdataPositions, Language } from "./types.js";
import { decodeVyperAuxdataValue, findTrailingVyperAuxdata, vyperAuxdataStyle } from "./vyper-auxdata.js";

/**
 * Auxdata positions the compiler output proves, for code without `cborAuxdata` artifacts. We never scan code for
 * CBOR-shaped bytes: an attacker could plant a fake blob mid-code to have it waved through as metadata.
 * Solidity: the trailing CBOR only (several auxdata, as in factories, need `cborAuxdataPositionsFromDiff`).
 * Vyper: by version (see `vyperAuxdataStyle`).
 */
export function deriveCborAuxdataPositions(
  language: Language,
  compilerVersion: string,
  creation: Uint8Array,
  runtime: Uint8Array,
): { creation: CborAuxdataPositions; runtime: CborAuxdataPositions } {
  if (language !== "Vyper") {
    return { creation: trailingSolidity(creation), runtime: trailingSolidity(runtime) };
  }
  const style = vyperAuxdataStyle(compilerVersion);
  if (style === null || style === "none") return { creation: {}, runtime: {} };
  if (style === "array" || style === "array-integrity") {
    const found = findTrailingVyperAuxdata(creation, style);
    return { creation: found ? { "1": { offset: found.offset, value: found.value } } : {}, runtime: {} };
  }
  // 0.3.4–0.3.9: the auxdata ends the runtime code, which the creation code embeds (not always at its end:
  // 0.3.6 puts deploy code after it), so its creation offset is where the compiled runtime sits.
  const inRuntime = findTrailingVyperAuxdata(runtime, style);
  if (!inRuntime) return { creation: {}, runtime: {} };
  const runtimePositions = { "1": { offset: inRuntime.offset, value: inRuntime.value } };
  const at = runtime.length > 0 ? indexOfBytes(creation, runtime) : -1;
  if (at >= 0) {
    return {
      creation: { "1": { offset: at + inRuntime.offset, value: inRuntime.value } },
      runtime: runtimePositions,
    };
  }
  const inCreation = findTrailingVyperAuxdata(creation, style);
  return {
    creation: inCreation ? { "1": { offset: inCreation.offset, value: inCreation.value } } : {},
    runtime: runtimePositions,
  };
}

function trailingSolidity(code: Uint8Array): CborAuxdataPositions {
  const found = findTrailingSolidityAuxdata(code);
  return found ? { "1": { offset: found.offset, value: found.value } } : {};
}

/** Whether a recorded auxdata value carries a hash binding the sources (ipfs/bzzr; Vyper's integrity hash). */
export function auxdataHasMetadataHash(
  language: Language,
  compilerVersion: string,
  valueHex: string,
): boolean {
  const value = hexToBytes(valueHex);
  if (!value) return false;
  if (language === "Vyper") {
    const style = vyperAuxdataStyle(compilerVersion);
    if (style !== "array-integrity") return false;
    return decodeVyperAuxdataValue(value, style)?.integrityHash !== undefined;
  }
  return decodeSolidityAuxdataValue(value)?.hash !== undefined;
}

export type AuxdataDiffResult =
  | { ok: true; positions: CborAuxdataPositions }
  | { ok: false; reason: "length_differs" | "difference_outside_auxdata"; offset?: number };

const MAX_WALK_BACK = 512;

/**
 * Derives auxdata positions by diffing two compilations that differ only in metadata (the second compiled with
 * every source edited, e.g. one space appended). Each differing region must lie inside a CBOR item that decodes
 * and is followed by a consistent length suffix (Solidity: the CBOR length; Vyper ≥ 0.4.1: CBOR length + 2);
 * otherwise the compilations differ in code, not metadata, and nothing is returned.
 * `expectedValues` (e.g. the `.auxdata` entries of solc's legacyAssembly) further restricts accepted values.
 */
export function cborAuxdataPositionsFromDiff(
  originalHex: string,
  editedHex: string,
  language: Language,
  expectedValues?: readonly string[],
): AuxdataDiffResult {
  const a = hexToBytes(placeholdersToZeros(originalHex));
  const b = hexToBytes(placeholdersToZeros(editedHex));
  if (!a || !b || a.length !== b.length) return { ok: false, reason: "length_differs" };
  const expected = expectedValues?.map((v) => v.toLowerCase().replace(/^0x/, ""));
  const positions: CborAuxdataPositions = {};
  let id = 1;
  let i = 0;
  while (i < a.length) {
    if (a[i] === b[i]) {
      i++;
      continue;
    }
    const found = auxdataCovering(a, i, language);
    if (!found) return { ok: false, reason: "difference_outside_auxdata", offset: i };
    const value = bytesToHex(a.subarray(found.start, found.end));
    if (expected && !expected.some((e) => value.slice(2).startsWith(e))) {
      return { ok: false, reason: "difference_outside_auxdata", offset: i };
    }
    positions[String(id++)] = { offset: found.start, value };
    i = found.end;
  }
  return { ok: true, positions };
}

/** Walks back from a differing byte to the CBOR item (plus length suffix) that contains it. */
function auxdataCovering(
  code: Uint8Array,
  diffAt: number,
  language: Language,
): { start: number; end: number } | null {
  for (let start = diffAt; start >= 0 && start >= diffAt - MAX_WALK_BACK; start--) {
    const decoded = decodeCborItem(code, start);
    if (!decoded || decoded.end + 2 > code.length || decoded.end <= diffAt - 2) continue;
    const cborLen = decoded.end - start;
    const suffix = ((code[decoded.end] as number) << 8) | (code[decoded.end + 1] as number);
    const ok =
      language === "Vyper"
        ? suffix === cborLen + 2 && Array.isArray(decoded.value)
        : suffix === cborLen && isCborMap(decoded.value) && interpretSolidityMetadata(decoded.value) !== null;
    if (ok) return { start, end: decoded.end + 2 };
  }
  return null;
}
