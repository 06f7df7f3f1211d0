import type { StandardJsonInput } from "../compilers/index.js";
import type { ContractMatch, Hex } from "../matching/index.js";
import type { VerifiedContractRecord } from "../store/types.js";
import { saveVerifiedContract } from "../store/verified-contracts.js";
import type { CandidateContract } from "./compiled.js";
import type { ValidFacts } from "./onchain.js";
import type { StoreInputs } from "./stored.js";
import type { VerificationItem, VerifyDeps } from "./types.js";
import type { Target, VerifyRun } from "./verify-run.js";

/** The contract of some output (compiled now, or the store's) that best matches a target. */
export type Winner = { candidate: CandidateContract; result: ContractMatch };

/**
 * Stores a target's winner and answers its verification item (the store keeps a better stored match; the item
 * then says so). `compilationStored` is what the run knows of the winner's compilation (saveVerifiedContract).
 */
export async function persist(
  run: VerifyRun,
  t: Target,
  f: ValidFacts,
  winner: Winner,
  compilationStored: boolean | undefined,
): Promise<VerificationItem> {
  const { deps } = run;
  const storeStarted = performance.now();
  const storeInput = run.storeInputs(winner.candidate.input);
  const record = toRecord(t, f, winner, storeInput);
  const saved = await saveVerifiedContract(deps.db, record, compilationStored, {
    asyncCommit: deps.asyncCommit === true,
    keys: {
      inputHash: storeInput.inputHash,
      compilationId: storeInput.compilationIds(record.language)(record.fileName, record.contractName),
    },
  });
  run.phase("store", storeStarted);
  const item = successItem(deps, t, winner, saved.record);
  // The store kept another (full) match: what these sources verified goes with the item, for the dialects that
  // answer with the verified source itself (eth-bytecode-db); the others leave it out.
  if (item.alreadyVerified) item.sent = { ...record, verifiedAt: saved.record.verifiedAt };
  return f.creationUnavailable ? { ...item, creationUnavailable: f.creationUnavailable } : item;
}

function librariesOf(input: StandardJsonInput, result: ContractMatch): Record<string, Hex> {
  const out: Record<string, Hex> = {};
  const linked = (input.settings as { libraries?: Record<string, Record<string, string>> } | undefined)
    ?.libraries;
  for (const [file, libs] of Object.entries(linked ?? {})) {
    for (const [name, address] of Object.entries(libs ?? {})) {
      out[file ? `${file}:${name}` : name] = address.toLowerCase() as Hex;
    }
  }
  Object.assign(out, result.creationMatch.values.libraries ?? {}, result.runtimeMatch.values.libraries ?? {});
  return out;
}

function toRecord(
  t: Target,
  f: ValidFacts,
  w: Winner,
  input: StoreInputs,
): Omit<VerifiedContractRecord, "verifiedAt"> {
  const r = w.result;
  return {
    chainId: t.chainId,
    address: t.address,
    matchType: r.matchType!,
    creationMatch: r.creationMatch.type,
    runtimeMatch: r.runtimeMatch.type,
    automatic: false,
    blockNumber: null,
    verifiedFrom: null,
    language: w.candidate.compiled.language,
    compiler: input.compiler,
    compilerVersion: input.compilerVersion,
    compilerSettings: input.compilerSettings,
    sources: input.sources,
    fileName: w.candidate.fileName,
    contractName: w.candidate.contractName,
    abi: w.candidate.compiled.abi ?? null,
    constructorArguments: r.constructorArguments?.encoded ?? null,
    libraries: librariesOf(w.candidate.input, r),
    creationTransformations: r.creationMatch.match ? r.creationMatch.transformations : null,
    creationValues: r.creationMatch.match ? r.creationMatch.values : null,
    runtimeTransformations: r.runtimeMatch.match ? r.runtimeMatch.transformations : null,
    runtimeValues: r.runtimeMatch.match ? r.runtimeMatch.values : null,
    compiled: w.candidate.compiled,
    isBlueprint: r.isBlueprint,
    onchainCreationCode: f.creation?.creationInput ?? null,
    onchainRuntimeCode: f.runtimeCode,
    creationTransactionHash: f.creation?.transactionHash ?? null,
  };
}

function explorerLink(deps: VerifyDeps, t: Target): string | null {
  const base = deps.chains.get(t.chainId)?.config.explorerUrl;
  return base ? new URL(`/address/${t.address}`, base).toString() : null;
}

function successItem(
  deps: VerifyDeps,
  t: Target,
  w: Winner,
  stored: VerifiedContractRecord,
): VerificationItem {
  const r = w.result;
  // The status describes the sources sent. When they match only partially and the store keeps a full match (the
  // user's earlier one, or an automatic copy of a verified twin), the message names the match that stays.
  const keptFull = stored.matchType === "full" && r.matchType !== "full";
  const full = r.matchType === "full";
  const link = explorerLink(deps, t);
  const name = `${w.candidate.fileName}:${w.candidate.contractName}`;
  const message = keptFull
    ? `Partially verified as ${name}; this contract is already fully verified as ${stored.fileName}:${stored.contractName} (exact match${stored.automatic ? ", verified automatically from an identical contract" : ""}), which is kept${link ? ` [${link}]` : ""}.`
    : (link ?? `${full ? "Fully" : "Partially"} verified as ${name}`);
  return {
    status: full ? "FULLY_VERIFIED" : "PARTIALLY_VERIFIED",
    message,
    chainId: t.chainId,
    address: t.address,
    contractName: w.candidate.contractName,
    fileName: w.candidate.fileName,
    matchType: r.matchType!,
    creationMatch: r.creationMatch.type,
    runtimeMatch: r.runtimeMatch.type,
    transformations: {
      creation: r.creationMatch.transformations,
      runtime: r.runtimeMatch.transformations,
      creationValues: r.creationMatch.values,
      runtimeValues: r.runtimeMatch.values,
    },
    constructorArguments: r.constructorArguments,
    ...(keptFull ? { alreadyVerified: true } : {}),
  };
}
