/** The bytecode matching engine: pure functions from compiled and on-chain code to match results. */
export {
  type AuxdataDiffResult,
  auxdataHasMetadataHash,
  cborAuxdataPositionsFromDiff,
  deriveCborAuxdataPositions,
} from "./auxdata-positions.js";
export { type Blueprint, parseBlueprint } from "./blueprint.js";
export { type ConstructorArgumentsResult, validateConstructorArguments } from "./constructor-arguments.js";
export { decodeOnchain, matchContract, overallType } from "./match-contract.js";
export { type CreationMatch, matchCreationCode } from "./match-creation.js";
export { matchRuntimeCode } from "./match-runtime.js";
export { type PreparedContract, prepareContract } from "./prepare-compiled.js";
export { selectBestMatch } from "./select-best-match.js";
export {
  decodeSolidityAuxdataValue,
  findTrailingSolidityAuxdata,
  type SolidityMetadata,
  type TrailingAuxdata,
} from "./solidity-auxdata.js";
export type * from "./types.js";
export {
  decodeVyperAuxdataValue,
  findTrailingVyperAuxdata,
  type VyperAuxdataStyle,
  type VyperMetadata,
  vyperAuxdataStyle,
} from "./vyper-auxdata.js";
