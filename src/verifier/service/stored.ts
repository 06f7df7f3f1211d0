import type { Queryable } from "../../db/db.js";
import type { CompilerLanguage, StandardJsonInput } from "../compilers/index.js";
import { type ContractMatch, decodeOnchain, type Hex, matchContract } from "../matching/index.js";
import { sourceTexts, storedSettings } from "../requests/solidity.js";
import { type CompilationInputs, compilationIds, inputHash } from "../store/keys.js";
import { fullyVerifiedCompilations } from "../store/verified-contracts.js";
import type { CandidateContract } from "./compiled.js";

export type StoredWinner = { candidate: CandidateContract; result: ContractMatch };

/** What the store keeps of one input (compiler, version, settings without the output selection, sources), and its keys. */
export type StoreInputs = CompilationInputs & {
  inputHash: Buffer;
  /** compilationId of the contracts of this input's output in one language, by their names (memoised). */
  compilationIds(language: string): (fileName: string, contractName: string) => Buffer;
};

/**
 * StoreInputs of a request's inputs, each computed once however often asked: the store's lookup before compiling,
 * and the record and keys of the winner after matching, read the same settings and sources, and hash their bulk
 * once (the repeated passes cost time after the compile; figures in docs/benchmarks.md).
 */
export function storeInputs(
  language: CompilerLanguage,
  version: string,
): (input: StandardJsonInput) => StoreInputs {
  const compiler = language === "Vyper" ? "vyper" : "solc";
  const memo = new Map<StandardJsonInput, StoreInputs>();
  return (input) => {
    let found = memo.get(input);
    if (!found) {
      const base: CompilationInputs = {
        compiler,
        compilerVersion: version,
        compilerSettings: storedSettings(input),
        sources: sourceTexts(input),
      };
      const byLanguage = new Map<string, ReturnType<typeof compilationIds>>();
      found = {
        ...base,
        inputHash: inputHash(base),
        compilationIds(lang) {
          let ids = byLanguage.get(lang);
          if (!ids) {
            ids = compilationIds({ ...base, language: lang });
            byLanguage.set(lang, ids);
          }
          return ids;
        },
      };
      memo.set(input, found);
    }
    return found;
  };
}

/**
 * The store's keys of these inputs (same compiler version, sources and settings) by hex. Inputs with a source
 * given only by URL are left out (compiling them must fail, and the compiler must say so).
 */
export function storedInputKeys(
  inputsOf: (input: StandardJsonInput) => StoreInputs,
  inputs: readonly StandardJsonInput[],
): Map<string, StandardJsonInput> {
  const byHash = new Map<string, StandardJsonInput>();
  for (const input of inputs) {
    const given = Object.values((input.sources ?? {}) as Record<string, { content?: unknown } | null>);
    if (given.some((s) => typeof s?.content !== "string")) continue;
    byHash.set(inputsOf(input).inputHash.toString("hex"), input);
  }
  return byHash;
}

const keyBuffers = (keys: ReadonlyMap<string, StandardJsonInput>) =>
  [...keys.keys()].map((h) => Buffer.from(h, "hex"));

/**
 * Contracts the store already compiled from one of these inputs and that fully verified somewhere: compiling the
 * input again would give the same code.
 */
export async function storedCandidates(
  db: Queryable,
  keys: ReadonlyMap<string, StandardJsonInput>,
): Promise<CandidateContract[]> {
  const out: CandidateContract[] = [];
  for (const stored of await fullyVerifiedCompilations(db, keyBuffers(keys))) {
    const input = keys.get(stored.inputHash.toString("hex"));
    if (input)
      out.push({
        fileName: stored.fileName,
        contractName: stored.contractName,
        compiled: stored.compiled,
        input,
      });
  }
  return out;
}

/**
 * When the creation input is known, a match must include it: sources whose runtime code matches but whose creation
 * code does not (other constructor code or initial values) do not describe this contract.
 */
export function fitsKnownCreation(result: ContractMatch, creationInput: Hex | null): boolean {
  return creationInput === null || result.creationMatch.match;
}

/**
 * A full match of the on-chain contract against a stored candidate, so nothing needs compiling; null otherwise (the
 * caller then compiles, so every outcome other than a full match is the compiler's). Pure.
 */
export function storedFullMatch(
  candidates: readonly CandidateContract[],
  given: { runtimeCode: Hex; creationInput: Hex | null },
): StoredWinner | null {
  const onchain = decodeOnchain(given);
  for (const candidate of candidates) {
    const result = matchContract(candidate.compiled, onchain);
    if (result.matchType === "full" && fitsKnownCreation(result, onchain.creationInput))
      return { candidate, result };
  }
  return null;
}
