import type { Queryable } from "../../db/db.js";
import { type CompilerLanguage, canonicalJson, type StandardJsonInput } from "../compilers/index.js";
import { type ContractMatch, type Hex, matchContract, selectBestMatch } from "../matching/index.js";
import { fullMatchesByOnchainCode } from "../store/verified-contracts.js";
import type { CandidateContract } from "./compiled.js";
import { sourceTexts, storedSettings } from "./inputs.js";

export type StoredWinner = { candidate: CandidateContract; result: ContractMatch };

/**
 * A full match for a contract whose runtime code or creation input is already in the store, verified from the same
 * sources and settings by the same compiler: the stored compiled code is what compiling the input would give, so
 * the engine matches against it and nothing is compiled (the compilation cache may have forgotten the input; a
 * restart empties its memory tier). Null when the store has no such verification or it does not fully match (then the
 * caller compiles as usual, so every outcome other than a full match is the compiler's).
 */
export async function storedFullMatch(
  db: Queryable,
  language: CompilerLanguage,
  version: string,
  inputs: readonly StandardJsonInput[],
  onchain: { runtimeCode: Hex; creationInput: Hex | null },
): Promise<StoredWinner | null> {
  const rows = await fullMatchesByOnchainCode(db, onchain, version);
  if (rows.length === 0) return null;
  const compiler = language === "Vyper" ? "vyper" : "solc";
  for (const input of inputs) {
    // A source without content (given by URL) would not compile: the compiler must say so.
    const given = Object.values((input.sources ?? {}) as Record<string, { content?: unknown } | null>);
    if (given.some((s) => typeof s?.content !== "string")) continue;
    const sources = canonicalJson(sourceTexts(input));
    const settings = canonicalJson(storedSettings(input));
    for (const r of rows) {
      if (r.compiler !== compiler || canonicalJson(r.sources) !== sources) continue;
      if (canonicalJson(r.compilerSettings) !== settings) continue;
      const candidate: CandidateContract = {
        fileName: r.fileName,
        contractName: r.contractName,
        compiled: r.compiled,
        input,
      };
      const result = matchContract(candidate.compiled, onchain);
      const best = selectBestMatch([result]);
      if (best && result.matchType === "full") return { candidate, result };
    }
  }
  return null;
}
