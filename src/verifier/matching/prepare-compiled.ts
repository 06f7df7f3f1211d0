import { deriveCborAuxdataPositions } from "./auxdata-positions.js";
import { hexToBytes } from "./hex.js";
import { type CompiledBytes, compiledCodeToBytes } from "./libraries.js";
import type { CborAuxdataPositions, CompiledContract } from "./types.js";
import { decodeVyperAuxdataValue, vyperAuxdataStyle } from "./vyper-auxdata.js";

/** A compiled contract parsed once: bytes with placeholders zeroed, auxdata positions, Vyper immutables size. */
export type PreparedContract = {
  contract: CompiledContract;
  creation: CompiledBytes;
  runtime: CompiledBytes;
  creationAuxdata: CborAuxdataPositions;
  runtimeAuxdata: CborAuxdataPositions;
  /** Vyper ≥ 0.3.10: bytes of immutables appended to the runtime code, from the creation code's CBOR. */
  vyperImmutableSize?: number;
};

export function prepareContract(contract: CompiledContract): PreparedContract {
  const creation = compiledCodeToBytes(contract.creationCode, contract.linkReferences);
  const runtime = compiledCodeToBytes(contract.runtimeCode, contract.deployedLinkReferences);
  const derived = deriveCborAuxdataPositions(
    contract.language,
    contract.compilerVersion,
    creation.ok ? creation.bytes : new Uint8Array(),
    runtime.ok ? runtime.bytes : new Uint8Array(),
  );
  // Artifacts win when present: they come from the compiler (or from diffing two compilations).
  const prepared: PreparedContract = {
    contract,
    creation,
    runtime,
    creationAuxdata: contract.creationCborAuxdata ?? derived.creation,
    runtimeAuxdata: contract.runtimeCborAuxdata ?? derived.runtime,
  };
  if (contract.language === "Vyper") {
    const style = vyperAuxdataStyle(contract.compilerVersion);
    if (style === "array" || style === "array-integrity") {
      for (const { value } of Object.values(prepared.creationAuxdata)) {
        const bytes = hexToBytes(value);
        const meta = bytes ? decodeVyperAuxdataValue(bytes, style) : null;
        if (meta?.immutableSize !== undefined) prepared.vyperImmutableSize = meta.immutableSize;
      }
    }
  }
  return prepared;
}
