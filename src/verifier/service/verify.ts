import { InvalidInputError } from "../../errors/base.js";
import { CompilerError } from "../compilers/errors.js";
import type { CompilerLanguage, CompilerOutput, StandardJsonInput } from "../compilers/index.js";
import {
  type ContractMatch,
  decodeOnchain,
  type Hex,
  type Language,
  matchContract,
  selectBestMatch,
} from "../matching/index.js";
import { type CompileAttempt, editedForAuxdata, withOutputSelection } from "../requests/solidity.js";
import type { VerifiedContractRecord } from "../store/types.js";
import { saveVerifiedContract } from "../store/verified-contracts.js";
import { parseVyperVersion, vyperCompilerInput } from "../vyper/index.js";
import {
  type CandidateContract,
  compileErrors,
  contractsFromOutput,
  mayHoldSeveralAuxdata,
  withDiffedAuxdata,
} from "./compiled.js";
import { diagnoseFailure } from "./diagnosis.js";
import { checkRequestLimits } from "./limits.js";
import { type CodeFacts, loadCode, loadCreation, type OnchainFacts } from "./onchain.js";
import {
  fitsKnownCreation,
  type StoreInputs,
  storedCandidates,
  storedFullMatch,
  storedInputKeys,
  storeInputs,
} from "./stored.js";
import type {
  ContractRef,
  ValidationItem,
  VerificationItem,
  VerifyDeps,
  VerifyRequest,
  VerifyResponse,
} from "./types.js";

type Target = {
  chainId: string;
  address: Hex;
  creationTransactionHash: string | null;
  knownFacts?: OnchainFacts;
};
type OnchainError = { status: "error"; message: string };
type Facts = OnchainFacts | OnchainError;

const noop = () => {};

const onchainError = (e: unknown): OnchainError => ({
  status: "error",
  message: `Error while retrieving on-chain data: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`,
});

const ADDRESS_RE = /^(0x)?[0-9a-fA-F]{40}$/;

/**
 * Checks the request before any I/O: every chain configured, every address 20 bytes of hex (checksum not
 * enforced). Throws InvalidInputError with upstream's wording (a 400 for HTTP clients).
 */
export function validateTargets(
  deps: Pick<VerifyDeps, "chains">,
  contracts: readonly ContractRef[],
): Target[] {
  return contracts.map((c) => {
    const chainId = String(c.chainId).trim();
    if (!/^\d+$/.test(chainId) || !deps.chains.has(chainId)) {
      throw new InvalidInputError(`chain_id=${String(c.chainId)}; is not supported`, { field: "chainId" });
    }
    if (typeof c.address !== "string" || !ADDRESS_RE.test(c.address)) {
      throw new InvalidInputError(
        `chain_id=${chainId}, address=${String(c.address)}; invalid address=expected 20 bytes of hex`,
        { field: "address" },
      );
    }
    const body = c.address.replace(/^0x/, "").toLowerCase();
    return {
      chainId,
      address: `0x${body}` as Hex,
      creationTransactionHash: c.creationTransactionHash ?? null,
      ...(c.knownFacts ? { knownFacts: c.knownFacts } : {}),
    };
  });
}

/** EVM versions named in the inputs must be ones this compiler version supports (else a 400). */
function checkEvmVersions(
  deps: VerifyDeps,
  language: CompilerLanguage,
  version: string,
  inputs: StandardJsonInput[],
) {
  const supported = deps.compilers.evmVersions(language, version);
  for (const input of inputs) {
    const evm = (input.settings as { evmVersion?: unknown } | undefined)?.evmVersion;
    if (evm === undefined || evm === null) continue;
    if (typeof evm !== "string" || !supported.includes(evm)) {
      throw new InvalidInputError(
        `invalid evm_version: ${String(evm)} is not supported by ${version} (supported: ${supported.join(", ")})`,
        { field: "evmVersion" },
      );
    }
  }
}

const languageOf = (input: StandardJsonInput, fallback: CompilerLanguage): Language =>
  input.language === "Yul" ? "Yul" : input.language === "Vyper" ? "Vyper" : fallback;

type AttemptResult = { ok: true; candidates: CandidateContract[] } | { ok: false; errors: string[] };

/**
 * Compiles one attempt (cached by the registry); a factory-like output is compiled a second time, edited, to find
 * where its auxdata sit. When the on-chain code shows several auxdata (`speculate`, known from the facts), that
 * second compile starts beside the first instead of after it: a factory then costs one compile's time, not two.
 */
async function compileAttempt(
  deps: VerifyDeps,
  language: CompilerLanguage,
  version: string,
  attempt: CompileAttempt,
  speculate: Promise<boolean>,
  compilerInput: (raw: StandardJsonInput) => StandardJsonInput,
  /** Told when the first compile no longer needs this thread (see CompileRequest.onStarted). */
  onStarted?: () => void,
): Promise<AttemptResult> {
  const started = performance.now();
  const engineVersion = version.replace(/^v/, "");
  const candidates: CandidateContract[] = [];
  try {
    for (const raw of attempt.inputs) {
      const input = compilerInput(raw);
      // One edited compile per input, whoever asks first (the speculation or the output's own auxdata).
      let editedRun: Promise<CompilerOutput> | undefined;
      const compileEdited = () => {
        editedRun ??= deps.compilers.compile({ language, version, input: editedForAuxdata(input) });
        return editedRun;
      };
      // Starts as soon as the facts show several auxdata, which is usually while the first compile runs. Unused
      // when the output holds one auxdata after all (its output stays cached); never an unhandled rejection.
      void speculate.then((yes) => (yes ? compileEdited().catch(() => {}) : undefined));
      const output = await deps.compilers.compile({
        language,
        version,
        input,
        ...(onStarted && raw === attempt.inputs[0] ? { onStarted } : {}),
      });
      const errors = compileErrors(output);
      if (errors.length) return { ok: false, errors: errors.map((e) => e.formattedMessage ?? e.message) };
      const lang = languageOf(input, language);
      let found = contractsFromOutput(output, raw, lang, engineVersion);
      if (
        found.some(
          (c) =>
            mayHoldSeveralAuxdata(c.compiled.creationCode) || mayHoldSeveralAuxdata(c.compiled.runtimeCode),
        )
      ) {
        const edited = await compileEdited();
        if (compileErrors(edited).length === 0) {
          found = withDiffedAuxdata(found, contractsFromOutput(edited, raw, lang, engineVersion));
        }
      }
      candidates.push(...found);
    }
    return { ok: true, candidates };
  } finally {
    deps.phases?.("compile", performance.now() - started);
  }
}

/**
 * The compiler itself failed on this input (a timeout, running out of memory, a crash): the user's input did it,
 * so it is a compilation failure in words, not a server error. Other errors (downloads) stay errors.
 */
function compilerFailure(e: unknown): AttemptResult {
  if (e instanceof CompilerError && (e.kind === "timeout" || e.kind === "memory" || e.kind === "crash")) {
    return { ok: false, errors: [e.shortMessage] };
  }
  throw e;
}

export const compilationFailureMessage = (errors: readonly string[]) =>
  `Compilation error: [\n${errors.map((e) => `    ${JSON.stringify(e)},\n`).join("")}]`;

/**
 * Verifies sources against N contracts on any configured chains: validates every address, compiles once, matches
 * each contract against every contract of the output, stores the matches. The three outcomes are upstream's:
 * validation results (some address is not a contract; the compile started beside that check is not waited for), a
 * compilation failure, or one verification result per contract in request order.
 */
export async function verify(deps: VerifyDeps, req: VerifyRequest): Promise<VerifyResponse> {
  checkRequestLimits(req);
  const targets = validateTargets(deps, req.contracts);
  await deps.compilers.settled?.();
  const version = deps.compilers.resolveVersion(req.language, req.compiler);
  if (req.inputProblem !== undefined) {
    return { kind: "compilationFailure", message: req.inputProblem, errors: [req.inputProblem] };
  }
  const attempts: readonly CompileAttempt[] = req.attempts ?? (req.input ? [{ inputs: [req.input] }] : []);
  if (attempts.length === 0 || attempts.some((a) => a.inputs.length === 0))
    throw new InvalidInputError("No sources to compile");
  checkEvmVersions(
    deps,
    req.language,
    version,
    attempts.flatMap((a) => a.inputs),
  );
  if (targets.length === 0) return { kind: "verification", items: [] };

  const phase = deps.phases;
  const since = (t: number) => performance.now() - t;
  const started = performance.now();
  // Code holding several auxdata (a factory: in its runtime code, or only in its creation code when it deploys the
  // other contract from its constructor) will need a second, edited compile: it may start beside the first. Decided
  // once the facts are in (false when the request ends in a validation result).
  let decideAuxdata!: (several: boolean | Promise<boolean>) => void;
  const severalAuxdata = new Promise<boolean>((resolve) => {
    decideAuxdata = resolve;
  });
  // What the compiler gets for each input, made once: the cache check below and the compile share it.
  const compilerInputs = new Map<StandardJsonInput, StandardJsonInput>();
  const compilerInput = (raw: StandardJsonInput) => {
    let input = compilerInputs.get(raw);
    if (!input) {
      // Vyper's selection depends on the version and on which files are contracts (src/verifier/vyper).
      input =
        req.language === "Vyper"
          ? vyperCompilerInput(raw, parseVyperVersion(version))
          : withOutputSelection(raw);
      compilerInputs.set(raw, input);
    }
    return input;
  };
  // Attempts compile lazily, once per request; the first one must compile (its errors are the user's).
  const compiled: Array<Promise<AttemptResult> | undefined> = [];
  const attemptResult = (k: number, onStarted?: () => void) => {
    compiled[k] ??= compileAttempt(
      deps,
      req.language,
      version,
      attempts[k]!,
      severalAuxdata,
      compilerInput,
      onStarted,
    ).catch(compilerFailure);
    return compiled[k]!;
  };
  // The store is asked first, alone, for its fully verifying compilations of these inputs (same compiler version,
  // sources and settings): that decides whether to compile at all. A copy of a verified contract never compiles (a
  // compile, or even a cache hit of large sources, beside its answer cost it several times the answer: bench:verify
  // corpus, "stored"), and gets the compiled code it matches against in this one round trip. For new inputs the
  // statement finds no row as quickly as an existence probe would, and the compile is handed to its worker before
  // this request's other round trips start: asked together with them, the store's answer took 1.4 ms instead of
  // 0.25, and the compile then waited behind their sends (bench:verify alliance). The answers stay those of waiting:
  // an address without code still gets the validation result without waiting for this compile (left to finish
  // alone; never an unhandled rejection); that compile is for nothing, but any request naming a contract with
  // unmatched sources costs the same, so no one can make us compile more.
  const inputsOf = storeInputs(req.language, version);
  const keys = storedInputKeys(inputsOf, attempts[0]!.inputs);
  const storedCompiled = await storedCandidates(deps.db, keys).catch((): CandidateContract[] => []);
  phase?.("storedLookup", since(started));
  const compiling = storedCompiled.length === 0;
  if (compiling) {
    let handedOver!: () => void;
    const dispatched = new Promise<void>((resolve) => {
      handedOver = resolve;
    });
    const first = attemptResult(0, handedOver);
    await Promise.race([dispatched, first.then(noop, noop)]);
  }
  // First stage: is there code at every address? That alone decides a validation result.
  const codes = await Promise.all(
    targets.map(
      (t): Promise<OnchainFacts | CodeFacts | OnchainError> =>
        t.knownFacts
          ? Promise.resolve(t.knownFacts)
          : loadCode(deps.chains.get(t.chainId)!, deps.db, t.address).catch(onchainError),
    ),
  );
  phase?.("code", since(started));
  if (codes.some((f) => f.status === "invalid")) {
    decideAuxdata(false);
    return {
      kind: "validation",
      items: targets.map((t, i): ValidationItem => {
        const f = codes[i]!;
        return f.status === "invalid"
          ? { status: "INVALID", message: f.message, chainId: t.chainId, address: t.address }
          : { status: "VALID", message: "Ok", chainId: t.chainId, address: t.address };
      }),
    };
  }
  // Second stage: creations missing from our index come from the node, while the compiler runs.
  const creationStarted = performance.now();
  const factsReady: Promise<Facts[]> = Promise.all(
    codes.map((c, i): Promise<Facts> => {
      if (c.status !== "code") return Promise.resolve(c as Facts);
      const t = targets[i]!;
      return loadCreation(deps.chains.get(t.chainId)!, deps.db, t.address, c, {
        creationTransactionHash: t.creationTransactionHash,
        ...(deps.creationLookup ? { lookup: deps.creationLookup } : {}),
      }).catch(onchainError);
    }),
  ).finally(() => phase?.("creation", since(creationStarted)));
  decideAuxdata(
    codes.some((c) => (c.status === "code" || c.status === "valid") && mayHoldSeveralAuxdata(c.runtimeCode))
      ? true
      : factsReady.then((all) =>
          all.some(
            (f) => f.status === "valid" && !!f.creation && mayHoldSeveralAuxdata(f.creation.creationInput),
          ),
        ),
  );
  // While the compiler runs: the bulk of the key the store gives the winner's compilation (settings and sources),
  // so the answer does not wait for it.
  if (compiling)
    for (const input of attempts[0]!.inputs) inputsOf(input).compilationIds(languageOf(input, req.language));
  // Copies of verified contracts match the store's compiled code; when every contract is one, the answer does not
  // wait for the compiler.
  const facts = await factsReady;
  const matchStarted = performance.now();
  const stored = facts.map((f) =>
    f.status === "valid" && storedCompiled.length > 0
      ? storedFullMatch(storedCompiled, {
          runtimeCode: f.runtimeCode,
          creationInput: f.creation?.creationInput ?? null,
        })
      : null,
  );
  let matchMs = since(matchStarted);
  const allStored = stored.some(Boolean) && stored.every((w, i) => w || facts[i]!.status !== "valid");
  const first: AttemptResult = allStored ? { ok: true, candidates: [] } : await attemptResult(0);
  if (!first.ok) {
    return {
      kind: "compilationFailure",
      message: compilationFailureMessage(first.errors),
      errors: first.errors,
    };
  }

  const items: VerificationItem[] = [];
  for (const [i, t] of targets.entries()) {
    const f = facts[i]!;
    if (f.status !== "valid") {
      items.push({
        status: "FAILURE",
        message: f.status === "error" ? f.message : "Invalid contract",
        chainId: t.chainId,
        address: t.address,
      });
      continue;
    }
    // Decoded once for every contract of every attempt's output.
    const onchain = decodeOnchain({
      runtimeCode: f.runtimeCode,
      creationInput: f.creation?.creationInput ?? null,
    });
    let firstTried: Array<{ candidate: CandidateContract; result: ContractMatch }> = [];
    let winner: { candidate: CandidateContract; result: ContractMatch } | null = stored[i] ?? null;
    for (let k = 0; k < attempts.length && !winner; k++) {
      const r = await attemptResult(k);
      if (!r.ok) continue;
      const t = performance.now();
      const tried = r.candidates.map((candidate) => ({
        candidate,
        result: matchContract(candidate.compiled, onchain),
      }));
      matchMs += since(t);
      if (k === 0) firstTried = tried;
      const eligible = tried.filter((x) => fitsKnownCreation(x.result, onchain.creationInput));
      const best = selectBestMatch(eligible.map((x) => x.result));
      if (best) winner = eligible[best.index]!;
    }
    if (!winner) {
      const diagnosis = diagnoseFailure(firstTried, onchain.creationInput !== null);
      if (f.creationUnavailable)
        diagnosis.message += ` Only the runtime code was compared: ${f.creationUnavailable}.`;
      items.push({
        status: "FAILURE",
        message: diagnosis.message,
        ...(f.creationUnavailable ? { creationUnavailable: f.creationUnavailable } : {}),
        chainId: t.chainId,
        address: t.address,
        diagnosis,
      });
      continue;
    }
    // A stored winner's compilation is in the store. A compiled one is most likely new when the store had no
    // compilation of these inputs (if it has one after all, the write keeps it and only costs the bytes sent).
    const storeStarted = performance.now();
    const storeInput = inputsOf(winner.candidate.input);
    const record = toRecord(t, f, winner, storeInput);
    const saved = await saveVerifiedContract(
      deps.db,
      record,
      winner === stored[i] ? true : storedCompiled.length === 0 ? false : undefined,
      {
        asyncCommit: deps.asyncCommit === true,
        keys: {
          inputHash: storeInput.inputHash,
          compilationId: storeInput.compilationIds(record.language)(record.fileName, record.contractName),
        },
      },
    );
    phase?.("store", since(storeStarted));
    const item = successItem(deps, t, winner, saved.record);
    items.push(f.creationUnavailable ? { ...item, creationUnavailable: f.creationUnavailable } : item);
  }
  phase?.("match", matchMs);
  return { kind: "verification", items };
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
  f: Extract<OnchainFacts, { status: "valid" }>,
  w: { candidate: CandidateContract; result: ContractMatch },
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
  w: { candidate: CandidateContract; result: ContractMatch },
  stored: VerifiedContractRecord,
): VerificationItem {
  const r = w.result;
  const keptFull = stored.matchType === "full" && r.matchType !== "full";
  const full = stored.matchType === "full";
  const link = explorerLink(deps, t);
  const name = `${w.candidate.fileName}:${w.candidate.contractName}`;
  const message = keptFull
    ? `This contract is already fully verified (exact match); these sources match only partially, so the full match is kept${link ? ` [${link}]` : ""}.`
    : (link ?? `${full ? "Fully" : "Partially"} verified as ${name}`);
  return {
    status: full ? "FULLY_VERIFIED" : "PARTIALLY_VERIFIED",
    message,
    chainId: t.chainId,
    address: t.address,
    contractName: keptFull ? stored.contractName : w.candidate.contractName,
    fileName: keptFull ? stored.fileName : w.candidate.fileName,
    matchType: stored.matchType,
    creationMatch: keptFull ? stored.creationMatch : r.creationMatch.type,
    runtimeMatch: keptFull ? stored.runtimeMatch : r.runtimeMatch.type,
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
