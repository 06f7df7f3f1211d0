import { matchBlueprintCode, parseBlueprint, stripBlueprintDeployer } from "./blueprint.js";
import { failed } from "./compare-code.js";
import { hexToBytes } from "./hex.js";
import { matchCreationCode } from "./match-creation.js";
import { matchRuntimeCode } from "./match-runtime.js";
import { prepareContract } from "./prepare-compiled.js";
import type { BytecodeMatch, CompiledContract, ContractMatch, MatchType, OnchainContract } from "./types.js";

type DecodedOnchain = OnchainContract & Required<Pick<OnchainContract, "bytes">>;

/**
 * The on-chain codes with their bytes, decoded once: every compiled contract of an output is matched against the
 * same code, and decoding it for each (lowercase, check, parse; three times per candidate) cost more than matching
 * the candidates that cannot match (19 in an OpenZeppelin ERC-721's output).
 */
export function decodeOnchain<T extends OnchainContract>(onchain: T): T & DecodedOnchain {
  if (onchain.bytes) return onchain as T & DecodedOnchain;
  return {
    ...onchain,
    bytes: {
      runtime: hexToBytes(onchain.runtimeCode),
      creation: onchain.creationInput ? hexToBytes(onchain.creationInput) : null,
    },
  };
}

/**
 * Matches one compiled contract against one on-chain contract, creation input and runtime code independently.
 * Pure: every input is a plain value, the result is JSON-serialisable.
 */
export function matchContract(compiled: CompiledContract, given: OnchainContract): ContractMatch {
  const prepared = prepareContract(compiled);
  const onchain = decodeOnchain(given);
  const runtimeBytes = onchain.bytes.runtime;
  if (runtimeBytes && parseBlueprint(runtimeBytes) && !compiledIsBlueprint(compiled)) {
    const runtimeMatch = matchBlueprintCode(prepared, runtimeBytes);
    const input = onchain.bytes.creation;
    const deployed = input ? stripBlueprintDeployer(input) : null;
    const creationMatch: BytecodeMatch = deployed
      ? matchBlueprintCode(prepared, deployed)
      : failed({
          reason: onchain.creationInput ? "bytecode_mismatch" : "onchain_code_unavailable",
          message: onchain.creationInput
            ? "The creation input is not a blueprint deployer followed by the blueprint."
            : "No creation input is known for this contract.",
        });
    return {
      creationMatch,
      runtimeMatch,
      matchType: overallType(creationMatch, runtimeMatch),
      constructorArguments: null,
      isBlueprint: true,
    };
  }
  const { constructorArguments, ...creationMatch } = matchCreationCode(
    prepared,
    onchain.creationInput,
    onchain.bytes.creation,
  );
  const runtimeMatch = matchRuntimeCode(prepared, onchain.runtimeCode, onchain.bytes.runtime);
  return {
    creationMatch,
    runtimeMatch,
    matchType: overallType(creationMatch, runtimeMatch),
    constructorArguments,
    isBlueprint: false,
  };
}

/** A compiled runtime that itself starts with the preamble is matched as ordinary code. */
function compiledIsBlueprint(compiled: CompiledContract): boolean {
  return compiled.runtimeCode.replace(/^0x/i, "").toLowerCase().startsWith("fe71");
}

/** Either side full makes the contract a full match (its code is bound to these sources). */
export function overallType(creation: BytecodeMatch, runtime: BytecodeMatch): MatchType | null {
  if (creation.type === "full" || runtime.type === "full") return "full";
  if (creation.match || runtime.match) return "partial";
  return null;
}
