import type { Queryable } from "../../db/db.js";
import type { CompilerLanguage, StandardJsonInput } from "../compilers/index.js";
import { type ContractMatch, type Hex, matchContract } from "../matching/index.js";
import { inputHash } from "../store/keys.js";
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
  const compiler = language === "Vyper" ? "vyper" : "solc";
  const byHash = new Map<string, StandardJsonInput>();
  for (const input of inputs) {
    // A source without content (given by URL) would not compile: the compiler must say so.
    const given = Object.values((input.sources ?? {}) as Record<string, { content?: unknown } | null>);
    if (given.some((s) => typeof s?.content !== "string")) continue;
    const key = inputHash({
      compiler,
      compilerVersion: version,
      compilerSettings: storedSettings(input),
      sources: sourceTexts(input),
    });
    byHash.set(key.toString("hex"), input);
  }
  const hashes = [...byHash.keys()].map((h) => Buffer.from(h, "hex"));
  for (const stored of await fullMatchesByOnchainCode(db, onchain, hashes)) {
    const input = byHash.get(stored.inputHash.toString("hex"));
    if (!input) continue;
    const candidate: CandidateContract = {
      fileName: stored.fileName,
      contractName: stored.contractName,
      compiled: stored.compiled,
      input,
    };
    const result = matchContract(candidate.compiled, onchain);
    if (result.matchType === "full") return { candidate, result };
  }
  return null;
}
