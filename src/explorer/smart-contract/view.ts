import { type Abi, decodeAbiParameters, getAddress, type Hex } from "viem";
import type { VerifiedContractRecord } from "../../verifier/store/index.js";

type AbiParam = { name?: string; type: string; internalType?: string; components?: readonly unknown[] };

/** JSON-safe decoded values: big integers as decimal strings, nested tuples and arrays kept. */
function jsonValue(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x)]));
  return v;
}

/** Blockscout's `decoded_constructor_args`: `[[value, {internalType, name, type}], ...]`, or null. */
export function decodeConstructorArgs(
  abi: VerifiedContractRecord["abi"],
  args: Hex | null,
): Array<[unknown, { internalType: string; name: string; type: string }]> | null {
  const inputs = (abi?.find((i) => i.type === "constructor")?.inputs ?? []) as readonly AbiParam[];
  if (!args || args === "0x" || inputs.length === 0) return null;
  try {
    const values = decodeAbiParameters(inputs as never, args);
    return inputs.map((p, i) => [
      jsonValue(values[i]),
      { internalType: p.internalType ?? p.type, name: p.name ?? "", type: p.type },
    ]);
  } catch {
    return null;
  }
}

const libraryName = (fq: string) => fq.split(":").pop() ?? fq;

/**
 * A verified contract as Blockscout's `GET /api/v2/smart-contracts/{hash}` shows it (the frontend's
 * `SmartContract` type), plus our match details. Pure.
 */
export function smartContractView(r: VerifiedContractRecord) {
  const settings = r.compilerSettings as {
    optimizer?: { enabled?: boolean; runs?: number };
    optimize?: boolean | string;
    evmVersion?: string;
  };
  const optimizationEnabled =
    r.language === "Vyper"
      ? settings.optimize !== false && settings.optimize !== "none"
      : (settings.optimizer?.enabled ?? false);
  const additional = Object.entries(r.sources)
    .filter(([path]) => path !== r.fileName)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file_path, source_code]) => ({ file_path, source_code }));
  return {
    deployed_bytecode: r.onchainRuntimeCode,
    creation_bytecode: r.onchainCreationCode,
    is_self_destructed: false,
    abi: (r.abi ?? null) as Abi | null,
    compiler_version: r.compilerVersion,
    evm_version: settings.evmVersion ?? "default",
    optimization_enabled: optimizationEnabled,
    optimization_runs:
      r.language === "Solidity" && optimizationEnabled ? (settings.optimizer?.runs ?? 200) : null,
    name: r.contractName,
    verified_at: r.verifiedAt.toISOString(),
    is_verified: true,
    is_verified_via_eth_bytecode_db: r.automatic,
    is_changed_bytecode: false,
    is_verified_via_sourcify: false,
    is_fully_verified: r.matchType === "full",
    is_partially_verified: r.matchType === "partial",
    sourcify_repo_url: null,
    source_code: r.sources[r.fileName] ?? null,
    constructor_args: r.constructorArguments,
    decoded_constructor_args: decodeConstructorArgs(r.abi, r.constructorArguments),
    can_be_visualized_via_sol2uml: r.language === "Solidity",
    file_path: r.fileName,
    additional_sources: additional,
    external_libraries: Object.entries(r.libraries).map(([name, address]) => ({
      name: libraryName(name),
      address_hash: getAddress(address),
    })),
    compiler_settings: r.compilerSettings,
    verified_twin_address_hash: r.verifiedFrom ? getAddress(r.verifiedFrom.address) : null,
    minimal_proxy_address_hash: null,
    language: r.language.toLowerCase(),
    is_vyper_contract: r.language === "Vyper",
    is_blueprint: r.isBlueprint,
    // Lookout's own details of the match (Verifier Alliance style).
    match_type: r.matchType,
    creation_match: r.creationMatch,
    runtime_match: r.runtimeMatch,
    creation_transformations: r.creationTransformations,
    runtime_transformations: r.runtimeTransformations,
  };
}

/** An unverified contract: Blockscout answers with the code only. */
export function unverifiedContractView(runtimeCode: Hex | null, creationCode: Hex | null) {
  return {
    deployed_bytecode: runtimeCode,
    creation_bytecode: creationCode,
    is_self_destructed: runtimeCode === null || runtimeCode === "0x",
    is_verified: false,
    is_fully_verified: false,
    is_partially_verified: false,
    abi: null,
    name: null,
  };
}
