import type { Queryable } from "../../db/db.js";
import type { CompilerLanguage, StandardJsonInput } from "../compilers/index.js";
import { type ContractMatch, type Hex, matchContract } from "../matching/index.js";
import { inputHash } from "../store/keys.js";
import { fullyVerifiedCompilations } from "../store/verified-contracts.js";
import type { CandidateContract } from "./compiled.js";
import { sourceTexts, storedSettings } from "./inputs.js";

export type StoredWinner = { candidate: CandidateContract; result: ContractMatch };

/**
 * The store's keys of these inputs (same compiler version, sources and settings) by hex. Inputs with a source
 * given only by URL are left out (compiling them must fail, and the compiler must say so).
 */
export function storedInputKeys(
  language: CompilerLanguage,
  version: string,
  inputs: readonly StandardJsonInput[],
): Map<string, StandardJsonInput> {
  const compiler = language === "Vyper" ? "vyper" : "solc";
  const byHash = new Map<string, StandardJsonInput>();
  for (const input of inputs) {
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
  onchain: { runtimeCode: Hex; creationInput: Hex | null },
): StoredWinner | null {
  for (const candidate of candidates) {
    const result = matchContract(candidate.compiled, onchain);
    if (result.matchType === "full" && fitsKnownCreation(result, onchain.creationInput))
      return { candidate, result };
  }
  return null;
}
