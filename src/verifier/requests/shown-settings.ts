import { parseVersion } from "../compilers/index.js";
import type { VerifiedContractRecord } from "../store/types.js";
import { VYPER_OUTPUTS, vyperOutputSelection } from "../vyper/output-selection.js";

/** Every output of every contract and file: what Blockscout's Solidity verifier compiles with (foundry's "complete"). */
const SOLIDITY_SELECTION = { "*": { "": ["*"], "*": ["*"] } };

/**
 * A verified contract's compiler settings as Blockscout shows them (`compiler_settings`, getsourcecode's
 * `CompilerSettings`): the stored settings with the `outputSelection` its verifier compiled with. The store keeps
 * them without one (its keys are the Verifier Alliance's, which leave it out), so it is added when shown: Solidity's
 * complete selection, Vyper's per-file or `"*"` selection of the stored sources (as for a request without one).
 */
export function shownCompilerSettings(
  r: Pick<VerifiedContractRecord, "language" | "compilerVersion" | "compilerSettings" | "sources">,
): Record<string, unknown> {
  const settings = r.compilerSettings ?? {};
  if (r.language !== "Vyper") return { ...settings, outputSelection: SOLIDITY_SELECTION };
  const version = parseVersion(r.compilerVersion);
  const sources = Object.fromEntries(Object.entries(r.sources).map(([path, content]) => [path, { content }]));
  return {
    ...settings,
    outputSelection: version
      ? vyperOutputSelection({ language: "Vyper", sources, settings }, version)
      : { "*": [...VYPER_OUTPUTS] },
  };
}
