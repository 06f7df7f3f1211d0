import { auxdataHasMetadataHash } from "./auxdata-positions.js";
import { bytesEqual, bytesToHex } from "./hex.js";
import { record, setKeyedValue, type TransformationLog } from "./transformation-log.js";
import type { BytecodeMatch, CborAuxdataPositions, Language, MismatchDiagnosis } from "./types.js";

export type CompareOutcome =
  | { kind: "identical" }
  /** Equal once the on-chain auxdata was copied in. */
  | { kind: "auxdata_replaced" }
  /** `code` is the compiled code with on-chain auxdata copied in, for the diagnosis. */
  | { kind: "different"; code: Uint8Array };

/**
 * Compares transformed compiled code with the same-length on-chain code. If they differ, copies the on-chain
 * bytes into each known auxdata position that differs (recording a `cborAuxdata` transformation) and compares again.
 * Only positions from the compiler output are used: bytes elsewhere must be equal.
 */
export function compareWithAuxdata(
  compiled: Uint8Array,
  onchain: Uint8Array,
  positions: CborAuxdataPositions,
  log: TransformationLog,
): CompareOutcome {
  if (bytesEqual(compiled, onchain)) return { kind: "identical" };
  const code = compiled.slice();
  let replaced = false;
  for (const [id, { offset, value }] of Object.entries(positions)) {
    const length = (value.length - 2) / 2;
    if (offset + length > code.length || offset + length > onchain.length) continue;
    const onchainValue = onchain.subarray(offset, offset + length);
    if (bytesEqual(code.subarray(offset, offset + length), onchainValue)) continue;
    code.set(onchainValue, offset);
    record(log, "replace", "cborAuxdata", offset, id);
    setKeyedValue(log, "cborAuxdata", id, bytesToHex(onchainValue));
    replaced = true;
  }
  if (replaced && bytesEqual(code, onchain)) return { kind: "auxdata_replaced" };
  return { kind: "different", code };
}

/**
 * Full needs identical code with at least one auxdata, every one carrying a metadata hash (spec "Decisions").
 * Reads the auxdata from the code itself, so an artifact cannot claim a hash the code does not hold.
 */
export function hasMetadataHash(
  language: Language,
  compilerVersion: string,
  code: Uint8Array,
  positions: CborAuxdataPositions,
): boolean {
  const values = Object.values(positions);
  return (
    values.length > 0 &&
    values.every(({ offset, value }) => {
      const end = offset + (value.length - 2) / 2;
      return (
        end <= code.length &&
        auxdataHasMetadataHash(language, compilerVersion, bytesToHex(code.subarray(offset, end)))
      );
    })
  );
}

export function failed(diagnosis: MismatchDiagnosis): BytecodeMatch {
  return { match: false, type: null, transformations: [], values: {}, metadataMatch: false, diagnosis };
}

export function succeeded(log: TransformationLog, full: boolean): BytecodeMatch {
  return {
    match: true,
    type: full ? "full" : "partial",
    transformations: log.transformations,
    values: log.values,
    metadataMatch: full,
  };
}
