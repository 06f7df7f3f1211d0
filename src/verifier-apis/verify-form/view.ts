import { Type } from "@sinclair/typebox";
import { ALL_SOLIDITY_EVM_VERSIONS } from "../../verifier/compilers/evm-versions.js";
import type { CompilerVersionInfo } from "../../verifier/compilers/index.js";
import { FORM_METHODS } from "./parse.js";

/** Blockscout's license types and their stored numbers (`SmartContract.license_types_enum`). */
export const LICENSE_TYPES = {
  none: 1,
  unlicense: 2,
  mit: 3,
  gnu_gpl_v2: 4,
  gnu_gpl_v3: 5,
  gnu_lgpl_v2_1: 6,
  gnu_lgpl_v3: 7,
  bsd_2_clause: 8,
  bsd_3_clause: 9,
  mpl_2_0: 10,
  osl_3_0: 11,
  apache_2_0: 12,
  gnu_agpl_v3: 13,
  bsl_1_1: 14,
} as const;

/** The EVM versions Blockscout offers for Vyper by default (CONTRACT_VERIFICATION_ALLOWED_VYPER_EVM_VERSIONS). */
const VYPER_EVM_VERSIONS = [
  "byzantium",
  "constantinople",
  "petersburg",
  "istanbul",
  "berlin",
  "paris",
  "shanghai",
  "cancun",
  "osaka",
];

const Strings = Type.Array(Type.String());

/** The config's members, for the OpenAPI document. */
export const ConfigBody = Type.Object({
  solidity_compiler_versions: Strings,
  solidity_evm_versions: Strings,
  verification_options: Strings,
  vyper_compiler_versions: Strings,
  vyper_evm_versions: Strings,
  is_rust_verifier_microservice_enabled: Type.Boolean(),
  license_types: Type.Record(Type.String(), Type.Integer()),
});

/**
 * `GET /api/v2/smart-contracts/verification/config` (frontend type `SmartContractVerificationConfigRaw`): every
 * method of the form (the multi-file ones are the "Rust verifier" methods upstream, which Lookout has built in),
 * compiler versions newest first, EVM versions with "default" last. Pure.
 */
export function verificationConfigView(solidity: CompilerVersionInfo[], vyper: CompilerVersionInfo[]) {
  return {
    solidity_compiler_versions: solidity.map((c) => c.version),
    solidity_evm_versions: [...ALL_SOLIDITY_EVM_VERSIONS, "default"],
    verification_options: [...FORM_METHODS],
    vyper_compiler_versions: vyper.map((c) => c.version),
    vyper_evm_versions: [...VYPER_EVM_VERSIONS, "default"],
    is_rust_verifier_microservice_enabled: true,
    license_types: LICENSE_TYPES,
  };
}
