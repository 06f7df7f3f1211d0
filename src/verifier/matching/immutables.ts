import { bytesEqual, bytesToHex } from "./hex.js";
import { record, setKeyedValue, type TransformationLog } from "./transformation-log.js";
import type { ImmutableReferences, MismatchDiagnosis } from "./types.js";

/**
 * Solidity: the constructor writes immutables into the runtime code at `immutableReferences`; copy the on-chain
 * values in. Every reference of one id must hold the same value, or the code was not produced by this contract.
 */
export function applySolidityImmutables(
  compiled: Uint8Array,
  onchain: Uint8Array,
  references: ImmutableReferences | null | undefined,
  log: TransformationLog,
): MismatchDiagnosis | null {
  for (const [id, refs] of Object.entries(references ?? {})) {
    let first: Uint8Array | undefined;
    for (const { start, length } of refs) {
      if (start + length > onchain.length || start + length > compiled.length) {
        return {
          reason: "length_mismatch",
          message: `Immutable ${id} lies beyond the code.`,
          firstDifferingByte: start,
        };
      }
      const value = onchain.slice(start, start + length);
      if (first && !bytesEqual(first, value)) {
        return {
          reason: "immutable_values_inconsistent",
          message: `Immutable ${id} has different on-chain values at its references.`,
          firstDifferingByte: start,
        };
      }
      first = value;
      compiled.set(value, start);
      record(log, "replace", "immutable", start, id);
      setKeyedValue(log, "immutables", id, bytesToHex(value));
    }
  }
  return null;
}

/**
 * Vyper appends its immutables after the runtime code at deployment. From 0.3.10 the creation code's CBOR states
 * their size, so exactly that many on-chain bytes are taken as data. Older versions do not say, and accepting any
 * tail would let arbitrary bytes pass as "immutables", so those cannot be matched from runtime code alone.
 */
export function applyVyperImmutables(
  compiled: Uint8Array,
  onchain: Uint8Array,
  immutableSize: number | undefined,
  log: TransformationLog,
): { code: Uint8Array } | { diagnosis: MismatchDiagnosis } {
  const tail = onchain.length - compiled.length;
  if (tail === 0 && !immutableSize) return { code: compiled };
  if (immutableSize === undefined) {
    return {
      diagnosis: {
        reason: "vyper_immutables_size_unknown",
        message:
          "The on-chain runtime code is longer than the compiled one, as Vyper's appended immutables make it, but this " +
          "Vyper version does not record the immutables' size in its bytecode; verify with the creation transaction instead.",
        compiledLength: compiled.length,
        onchainLength: onchain.length,
      },
    };
  }
  if (tail !== immutableSize) {
    return {
      diagnosis: {
        reason: "vyper_immutables_size_mismatch",
        message: `The on-chain code has ${tail} bytes after the runtime code; the compiled contract has ${immutableSize} bytes of immutables.`,
        firstDifferingByte: compiled.length,
        compiledLength: compiled.length,
        onchainLength: onchain.length,
      },
    };
  }
  const value = onchain.slice(compiled.length);
  const code = new Uint8Array(onchain.length);
  code.set(compiled, 0);
  code.set(value, compiled.length);
  record(log, "insert", "immutable", compiled.length, "0");
  setKeyedValue(log, "immutables", "0", bytesToHex(value));
  return { code };
}
