import { decodeCborItem } from "./cbor.js";
import { parseCompilerVersion } from "./compiler-version.js";
import { firstDifference } from "./hex.js";
import { findTrailingSolidityAuxdata, interpretSolidityMetadata } from "./solidity-auxdata.js";
import type { CborAuxdataPositions, Language, MismatchDiagnosis } from "./types.js";
import { findTrailingVyperAuxdata, type VyperAuxdataStyle } from "./vyper-auxdata.js";

/**
 * Explains a mismatch: the first differing byte of the transformed compiled code and, when the on-chain CBOR names
 * a different compiler version, both versions (a wrong-version choice is the most common cause).
 */
export function diagnoseMismatch(
  language: Language,
  compilerVersion: string,
  compiled: Uint8Array,
  onchain: Uint8Array,
  positions: CborAuxdataPositions,
  reason: MismatchDiagnosis["reason"] = "bytecode_mismatch",
): MismatchDiagnosis {
  const at = firstDifference(compiled, onchain);
  const diagnosis: MismatchDiagnosis = {
    reason,
    message:
      reason === "length_mismatch"
        ? `The compiled code is ${compiled.length} bytes, the on-chain code ${onchain.length} bytes.`
        : `The compiled code differs from the on-chain code at byte ${at}.`,
    firstDifferingByte: at,
    compiledLength: compiled.length,
    onchainLength: onchain.length,
  };
  const onchainVersion = onchainCompilerVersion(language, onchain, positions);
  const compiledSemver = parseCompilerVersion(compilerVersion);
  const onchainSemver = onchainVersion === null ? null : parseCompilerVersion(onchainVersion);
  if (compiledSemver && onchainSemver && onchainVersion !== null) {
    const a = `${compiledSemver.major}.${compiledSemver.minor}.${compiledSemver.patch}`;
    const b = `${onchainSemver.major}.${onchainSemver.minor}.${onchainSemver.patch}`;
    if (a !== b) {
      diagnosis.compilerVersions = { compiled: a, onchain: onchainVersion };
      diagnosis.message += ` The on-chain metadata names compiler ${onchainVersion}, not ${a}.`;
    }
  }
  return diagnosis;
}

/** The compiler version the on-chain CBOR names, read at the compiled auxdata offsets or from the code's end. */
function onchainCompilerVersion(
  language: Language,
  onchain: Uint8Array,
  positions: CborAuxdataPositions,
): string | null {
  if (language === "Vyper") {
    const styles: VyperAuxdataStyle[] = ["array-integrity", "array", "map", "fixed-0.3.4"];
    for (const style of styles) {
      const found = findTrailingVyperAuxdata(onchain, style);
      if (found) return found.metadata.vyperVersion;
    }
    return null;
  }
  for (const { offset } of Object.values(positions)) {
    const decoded = decodeCborItem(onchain, offset);
    const meta = decoded ? interpretSolidityMetadata(decoded.value) : null;
    if (meta?.solcVersion) return meta.solcVersion;
  }
  return findTrailingSolidityAuxdata(onchain)?.metadata.solcVersion ?? null;
}
