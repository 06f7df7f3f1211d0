import type { Queryable } from "../../db/db.js";
import {
  type CompiledContract,
  type ContractMatch,
  decodeOnchain,
  type Hex,
  matchContract,
  selectBestMatch,
} from "../matching/index.js";
import type { VerifiedContractRecord } from "./types.js";
import { candidatesByCreationPrefix, candidatesByRuntimeLength } from "./verified-contracts.js";

export type BytecodeType = "CREATION_INPUT" | "DEPLOYED_BYTECODE";

/** A stored source that matches a searched bytecode, in eth-bytecode-db's `Source` shape plus where it came from. */
export type SourceMatch = {
  fileName: string;
  contractName: string;
  compilerVersion: string;
  /** JSON text of the standard JSON settings, as upstream. */
  compilerSettings: string;
  sourceType: "SOLIDITY" | "VYPER" | "YUL";
  sourceFiles: Record<string, string>;
  abi: string | null;
  /** Hex without 0x, as upstream's search returns it. */
  constructorArguments: string | null;
  matchType: "FULL" | "PARTIAL";
  isBlueprint: boolean;
  libraries: Record<string, string>;
  /** JSON text, as upstream: `{abi}` (the store keeps no docs or storage layout). */
  compilationArtifacts: string;
  /** JSON text: `{linkReferences, cborAuxdata}` of the creation code. */
  creationInputArtifacts: string;
  /** JSON text: `{linkReferences, immutableReferences, cborAuxdata}` of the runtime code. */
  deployedBytecodeArtifacts: string;
  /** The verified contract the source was taken from. */
  chainId: string;
  address: Hex;
};

/** The on-chain shape a query stands for: creation input or deployed (runtime) code. */
export function onchainFor(bytecode: Hex, type: BytecodeType) {
  return type === "CREATION_INPUT"
    ? { runtimeCode: "0x", creationInput: bytecode }
    : { runtimeCode: bytecode, creationInput: null };
}

/** Candidates for a code: by creation prefix or runtime length, one per distinct source. */
export async function candidatesFor(
  db: Queryable,
  bytecode: Hex,
  type: BytecodeType,
): Promise<VerifiedContractRecord[]> {
  const bytes = Buffer.from(bytecode.slice(2), "hex");
  // One per distinct source already: the statements keep one verified contract per compilation.
  return type === "CREATION_INPUT"
    ? candidatesByCreationPrefix(db, bytes)
    : candidatesByRuntimeLength(db, bytes.length);
}

/** eth-bytecode-db's artifact members (JSON text) from what the store keeps of a compilation. */
export function sourceArtifacts(c: CompiledContract) {
  return {
    compilationArtifacts: JSON.stringify({ abi: c.abi ?? null }),
    creationInputArtifacts: JSON.stringify({
      linkReferences: c.linkReferences ?? {},
      cborAuxdata: c.creationCborAuxdata ?? {},
    }),
    deployedBytecodeArtifacts: JSON.stringify({
      linkReferences: c.deployedLinkReferences ?? {},
      immutableReferences: c.immutableReferences ?? {},
      cborAuxdata: c.runtimeCborAuxdata ?? {},
    }),
  };
}

export const sourceType = (language: string): "SOLIDITY" | "VYPER" | "YUL" =>
  language === "Vyper" ? "VYPER" : language === "Yul" ? "YUL" : "SOLIDITY";

/** The parts of eth-bytecode-db's `Source` that come from the stored compilation alone. */
export function compilationSourceFields(r: VerifiedContractRecord) {
  return {
    fileName: r.fileName,
    contractName: r.contractName,
    compilerVersion: r.compilerVersion,
    compilerSettings: JSON.stringify(r.compilerSettings),
    sourceType: sourceType(r.language),
    sourceFiles: r.sources,
    abi: r.abi ? JSON.stringify(r.abi) : null,
    ...sourceArtifacts(r.compiled),
  };
}

function toSource(r: VerifiedContractRecord, m: ContractMatch): SourceMatch {
  return {
    ...compilationSourceFields(r),
    constructorArguments: m.constructorArguments ? m.constructorArguments.encoded.slice(2) : null,
    matchType: m.matchType === "full" ? "FULL" : "PARTIAL",
    isBlueprint: m.isBlueprint,
    libraries: { ...(m.creationMatch.values.libraries ?? {}), ...(m.runtimeMatch.values.libraries ?? {}) },
    chainId: r.chainId,
    address: r.address,
  };
}

/**
 * Stored sources that verify the given code, with the same matching engine as verification (so auxdata,
 * immutables, libraries and constructor arguments are handled alike). Full matches hide partial ones.
 */
export async function searchSourcesByBytecode(
  db: Queryable,
  bytecode: Hex,
  type: BytecodeType,
): Promise<SourceMatch[]> {
  const onchain = decodeOnchain(onchainFor(bytecode, type));
  const matches: SourceMatch[] = [];
  for (const r of await candidatesFor(db, bytecode, type)) {
    const m = matchContract(r.compiled, onchain);
    if (selectBestMatch([m])) matches.push(toSource(r, m));
  }
  return matches.some((m) => m.matchType === "FULL")
    ? matches.filter((m) => m.matchType === "FULL")
    : matches;
}
