/**
 * Vyper for the verify service: interfaces given as ABIs, search paths and version rules. Pure; the service compiles
 * and matches as for Solidity. (Requests to compiler input are built in `verifier/requests/vyper.ts`.)
 */

export { interfaceFromFile, jsonInterface, normaliseInterfaces, type VyperInterface } from "./interfaces.js";
export {
  searchPathsOf,
  selectedSources,
  VYPER_OUTPUTS,
  vyperCompilerInput,
  vyperOutputSelection,
} from "./output-selection.js";
export { parseVyperVersion, selectsPerFile } from "./version.js";
