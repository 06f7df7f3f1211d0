/** The verified-contract store ("bytecode database"): SQL over `verified_contracts` and `verified_compilations` (migrations 004, 006). */
export { verifyAutomatically } from "./auto-verify.js";
export { saveContractLicense } from "./licenses.js";
export {
  type BytecodeType,
  compilationSourceFields,
  type SourceMatch,
  searchSourcesByBytecode,
  sourceArtifacts,
  sourceType,
} from "./search.js";
export type * from "./types.js";
export {
  candidatesByCreationPrefix,
  candidatesByRuntimeLength,
  createVerifiedContractLookup,
  getVerifiedContract,
  getVerifiedContracts,
  revertAutomaticVerifications,
  saveVerifiedContract,
} from "./verified-contracts.js";
