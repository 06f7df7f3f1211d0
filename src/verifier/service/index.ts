/**
 * The verify service: the verifier's only I/O (chain RPC, our index, compilers, the store). HTTP dialects
 * (/api/v1, Etherscan, Sourcify) call `verify()` and render its three outcomes in their own shapes.
 */

export {
  type CompileAttempt,
  editedForAuxdata,
  librariesSetting,
  OUTPUT_SELECTION,
  type ParsedStandardJson,
  parseStandardJsonInput,
  type SolidityMultiPart,
  solidityMultiPartAttempts,
  withOutputSelection,
} from "../requests/solidity.js";
export {
  type CandidateContract,
  compileErrors,
  contractsFromOutput,
  mayHoldSeveralAuxdata,
  withDiffedAuxdata,
} from "./compiled.js";
export {
  type CreationLookup,
  type CreationLookupOptions,
  DEFAULT_CREATION_LOOKUP,
  lookUpCreation,
} from "./creation-lookup.js";
export { diagnoseFailure, NO_MATCH_MESSAGE } from "./diagnosis.js";
export { checkInputLimits, checkRequestLimits, REQUEST_LIMITS } from "./limits.js";
export {
  type CreationFacts,
  creationFromTransaction,
  indexedCreation,
  loadOnchainFacts,
  NOT_A_CONTRACT,
  type OnchainFacts,
  SELF_DESTRUCTED,
} from "./onchain.js";
export type * from "./types.js";
export { compilationFailureMessage, validateTargets, verify } from "./verify.js";
