import { type Abi, type Address, decodeAbiParameters, getAddress, type Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import { shownCompilerSettings } from "../../verifier/requests/index.js";
import type { VerifiedContractRecord } from "../../verifier/store/index.js";
import type { AddressObject } from "../objects/address-view.js";
import { usecTimestamp } from "../timestamp.js";
import type { ContractRow, CountersRow } from "./query.js";

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
    // As creation_status says (contractFactsView): the code the contract was verified against is gone.
    is_self_destructed: r.onchainRuntimeCode === null || r.onchainRuntimeCode === "0x",
    abi: (r.abi ?? null) as Abi | null,
    compiler_version: r.compilerVersion,
    evm_version: settings.evmVersion ?? "default",
    optimization_enabled: optimizationEnabled,
    optimization_runs:
      r.language === "Solidity" && optimizationEnabled ? (settings.optimizer?.runs ?? 200) : null,
    name: r.contractName,
    verified_at: usecTimestamp(r.verifiedAt),
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
    // Blockscout says true only when its sol2uml service is configured; Lookout has none.
    can_be_visualized_via_sol2uml: false,
    file_path: r.fileName,
    additional_sources: additional,
    external_libraries: Object.entries(r.libraries).map(([name, address]) => ({
      name: libraryName(name),
      address_hash: getAddress(address),
    })),
    compiler_settings: shownCompilerSettings(r),
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

type AbiEntry = { type?: string; stateMutability?: string; constant?: boolean };

/** Read and write methods of an ABI, as Blockscout splits them (view/pure or constant reads; the rest writes). */
export function abiMethodFlags(abi: Abi | null) {
  const fns = ((abi ?? []) as readonly AbiEntry[]).filter((i) => i.type === "function");
  const isRead = (f: AbiEntry) =>
    f.stateMutability === "view" || f.stateMutability === "pure" || f.constant === true;
  return { has_methods_read: fns.some(isRead), has_methods_write: fns.some((f) => !isRead(f)) };
}

/**
 * The parts of Blockscout's smart-contract object that are facts about the address rather than the verification:
 * proxy type and implementations (our proxy index), creation status, the license the verify form named.
 */
export function contractFactsView(
  proxy: { proxy_type: string | null; implementation: Uint8Array | null } | undefined,
  license: string | null,
  names: ReadonlyMap<Address, { name: string }>,
  runtimeCode: Hex | null,
) {
  const impl = proxy?.implementation ? (fromBytea(proxy.implementation) as Address) : null;
  return {
    // A revoked EIP-7702 delegation leaves no proxy.
    proxy_type: impl ? (proxy?.proxy_type ?? null) : null,
    implementations: impl ? [{ address_hash: getAddress(impl), name: names.get(impl)?.name ?? null }] : [],
    conflicting_implementations: null,
    // Blockscout: "success", or "selfdestructed" when the code is gone.
    creation_status: runtimeCode === null || runtimeCode === "0x" ? "selfdestructed" : "success",
    license_type: license,
    certified: false,
    is_verified_via_verifier_alliance: false,
  };
}

/** One item of the list (frontend type `VerifiedContract`). */
export function contractItemView(r: ContractRow, addresses: ReadonlyMap<Address, AddressObject>) {
  return {
    address: addresses.get(fromBytea(r.address) as Address)!,
    certified: false,
    coin_balance: r.coin_balance ?? "0",
    compiler_version: r.compiler_version,
    language: r.language.toLowerCase(),
    has_constructor_args: r.constructor_arguments !== null && r.constructor_arguments.length > 0,
    optimization_enabled: r.optimizer_enabled ?? r.language === "Vyper",
    // Blockscout's Address.transactions_count: the counter the indexer keeps (a primary-key read), null if none.
    transactions_count: r.transactions_count === null ? null : Number(r.transactions_count),
    verified_at: usecTimestamp(r.verified_at),
    market_cap: null,
    license_type: r.license_type,
    // Blockscout's list item carries the address's reputation (smart_contract_view.ex): "ok" unless marked a scam,
    // which Lookout never does.
    reputation: "ok",
  };
}

/** `GET /api/v2/smart-contracts/counters` (`VerifiedContractsCounters`). Pure. */
export function contractsCountersView(r: CountersRow) {
  return {
    smart_contracts: r.contracts,
    verified_smart_contracts: r.verified,
    new_smart_contracts_24h: r.new_contracts,
    new_verified_smart_contracts_24h: r.new_verified,
  };
}
