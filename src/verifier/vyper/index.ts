/**
 * Vyper inputs for the verify service: standard JSON and multi-part requests to compiler input (output selection,
 * interfaces given as ABIs), and version rules. Pure; the service compiles and matches as for Solidity.
 */

export { normaliseVyperStandardJson, type VyperMultiPart, vyperMultiPartInput } from "../requests/vyper.js";
export { interfaceFromFile, jsonInterface, normaliseInterfaces, type VyperInterface } from "./interfaces.js";
export {
  searchPathsOf,
  selectedSources,
  VYPER_OUTPUTS,
  vyperCompilerInput,
  vyperOutputSelection,
} from "./output-selection.js";
export { parseVyperVersion, selectsPerFile } from "./version.js";
