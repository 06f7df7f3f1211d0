import { InvalidInputError } from "../../errors/base.js";
import type { CompilerLanguage, StandardJsonInput } from "../compilers/index.js";
import { decodeOnchain, type Hex, matchContract, selectBestMatch } from "../matching/index.js";
import type { CompileAttempt } from "../requests/solidity.js";
import { type CandidateContract, mayHoldSeveralAuxdata } from "./compiled.js";
import { diagnoseFailure } from "./diagnosis.js";
import { checkRequestLimits } from "./limits.js";
import { type CodeFacts, loadCode, loadCreation, type OnchainFacts, type ValidFacts } from "./onchain.js";
import { persist, type Winner } from "./persist.js";
import { fitsKnownCreation, storedCandidates, storedFullMatch, storedInputKeys } from "./stored.js";
import type {
  ContractRef,
  ValidationItem,
  VerificationItem,
  VerifyDeps,
  VerifyRequest,
  VerifyResponse,
} from "./types.js";
import { type Target, type VerifyPlan, VerifyRun } from "./verify-run.js";

type OnchainError = { status: "error"; message: string };
type Facts = OnchainFacts | OnchainError;

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

export const compilationFailureMessage = (errors: readonly string[]) =>
  `Compilation error: [\n${errors.map((e) => `    ${JSON.stringify(e)},\n`).join("")}]`;

/**
 * Verifies sources against N contracts on any configured chains: validates every address, compiles once, matches
 * each contract against every contract of the output, stores the matches. The three outcomes are upstream's:
 * validation results (some address is not a contract; the compile started beside that check is not waited for), a
 * compilation failure, or one verification result per contract in request order. What runs beside what is held by
 * the run (verify-run.ts); this function is the order of the steps.
 */
export async function verify(deps: VerifyDeps, req: VerifyRequest): Promise<VerifyResponse> {
  const planned = await plan(deps, req);
  if ("kind" in planned) return planned;
  const run = new VerifyRun(deps, planned);
  const storedCompiled = await storedLookup(run);
  const compiling = storedCompiled.length === 0;
  // Handed to its worker before the on-chain round trips start, which would otherwise delay the hand-off.
  if (compiling) await run.startCompile();
  const codes = await codeFacts(run);
  if (codes.some((f) => f.status === "invalid")) {
    run.decideAuxdata(false);
    return validationResult(run.plan.targets, codes);
  }
  const factsReady = creationFacts(run, codes);
  run.decideAuxdata(severalAuxdata(codes, factsReady));
  if (compiling) run.prepareStoreKeys();
  const facts = await factsReady;
  // Copies of verified contracts match the store's compiled code; when every contract is one, the answer does not
  // wait for the compiler.
  const stored = storedMatches(run, storedCompiled, facts);
  const allStored = stored.some(Boolean) && stored.every((w, i) => w || facts[i]!.status !== "valid");
  if (!allStored) {
    const first = await run.attempt(0);
    if (!first.ok) {
      return {
        kind: "compilationFailure",
        message: compilationFailureMessage(first.errors),
        errors: first.errors,
      };
    }
  }
  return matchAll(run, facts, stored, storedCompiled.length > 0);
}

/**
 * Every check made before any I/O (limits, targets, compiler version, EVM versions), and the answers that need
 * none: a VerifyPlan, or the response itself.
 */
async function plan(deps: VerifyDeps, req: VerifyRequest): Promise<VerifyPlan | VerifyResponse> {
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
  return { language: req.language, version, targets, attempts };
}

/**
 * The store's fully verifying compilations of the first attempt's inputs (same compiler version, sources and
 * settings), asked first and alone: the answer decides whether to compile at all. A copy of a verified contract
 * never compiles (a compile, or even a cache hit of large sources, beside its answer would cost several times the
 * answer) and gets the compiled code it matches in this one round trip; for new inputs the statement finds no row
 * as quickly as an existence probe would. Asked together with the request's other round trips, its answer came
 * later and the compile waited for it (docs/benchmarks.md, Verification, sessions 5 and 7). An address without code
 * still gets the validation result without waiting for the compile started on "none": that compile is for
 * nothing, but any request naming a contract with unmatched sources costs the same, so no one can make us compile
 * more.
 */
async function storedLookup(run: VerifyRun): Promise<CandidateContract[]> {
  const keys = storedInputKeys(run.storeInputs, run.plan.attempts[0]!.inputs);
  const found = await storedCandidates(run.deps.db, keys).catch((): CandidateContract[] => []);
  run.phase("storedLookup", run.started);
  return found;
}

/** First stage of the on-chain facts: is there code at every address? That alone decides a validation result. */
async function codeFacts(run: VerifyRun): Promise<Array<OnchainFacts | CodeFacts | OnchainError>> {
  const { deps } = run;
  const codes = await Promise.all(
    run.plan.targets.map(
      (t): Promise<OnchainFacts | CodeFacts | OnchainError> =>
        t.knownFacts
          ? Promise.resolve(t.knownFacts)
          : loadCode(deps.chains.get(t.chainId)!, deps.db, t.address).catch(onchainError),
    ),
  );
  run.phase("code", run.started);
  return codes;
}

function validationResult(
  targets: readonly Target[],
  codes: ReadonlyArray<OnchainFacts | CodeFacts | OnchainError>,
): VerifyResponse {
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

/** Second stage: creations missing from our index come from the node, while the compiler runs. */
function creationFacts(
  run: VerifyRun,
  codes: ReadonlyArray<OnchainFacts | CodeFacts | OnchainError>,
): Promise<Facts[]> {
  const { deps } = run;
  const creationStarted = performance.now();
  return Promise.all(
    codes.map((c, i): Promise<Facts> => {
      if (c.status !== "code") return Promise.resolve(c as Facts);
      const t = run.plan.targets[i]!;
      return loadCreation(deps.chains.get(t.chainId)!, deps.db, t.address, c, {
        creationTransactionHash: t.creationTransactionHash,
        ...(deps.creationLookup ? { lookup: deps.creationLookup } : {}),
      }).catch(onchainError);
    }),
  ).finally(() => run.phase("creation", creationStarted));
}

/**
 * Whether some contract's code holds several auxdata (a factory): known from the runtime code at once, else from
 * the creation codes once they are in.
 */
function severalAuxdata(
  codes: ReadonlyArray<OnchainFacts | CodeFacts | OnchainError>,
  factsReady: Promise<Facts[]>,
): boolean | Promise<boolean> {
  return codes.some(
    (c) => (c.status === "code" || c.status === "valid") && mayHoldSeveralAuxdata(c.runtimeCode),
  )
    ? true
    : factsReady.then((all) =>
        all.some(
          (f) => f.status === "valid" && !!f.creation && mayHoldSeveralAuxdata(f.creation.creationInput),
        ),
      );
}

/** Each contract's full match against the store's compiled code, if any (null: compile). */
function storedMatches(
  run: VerifyRun,
  storedCompiled: readonly CandidateContract[],
  facts: readonly Facts[],
): Array<Winner | null> {
  return run.matching(() =>
    facts.map((f) =>
      f.status === "valid" && storedCompiled.length > 0
        ? storedFullMatch(storedCompiled, {
            runtimeCode: f.runtimeCode,
            creationInput: f.creation?.creationInput ?? null,
          })
        : null,
    ),
  );
}

const decoded = (f: ValidFacts) =>
  decodeOnchain({ runtimeCode: f.runtimeCode, creationInput: f.creation?.creationInput ?? null });

/**
 * One verification item per contract, in request order: its stored match or the best match among the attempts'
 * outputs, stored before the next contract is matched; a failure with its diagnosis otherwise.
 */
async function matchAll(
  run: VerifyRun,
  facts: readonly Facts[],
  stored: ReadonlyArray<Winner | null>,
  storeHasInputs: boolean,
): Promise<VerifyResponse> {
  const items: VerificationItem[] = [];
  for (const [i, t] of run.plan.targets.entries()) {
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
    const onchain = decoded(f);
    const storedWinner = stored[i] ?? null;
    const { winner, firstTried } = storedWinner
      ? { winner: storedWinner, firstTried: [] }
      : await compiledMatch(run, onchain);
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
    items.push(
      await persist(run, t, f, winner, winner === storedWinner ? true : storeHasInputs ? undefined : false),
    );
  }
  run.matchDone();
  return { kind: "verification", items };
}

/**
 * The best match of `onchain` in the first attempt whose output holds one (attempts compile in order, each once
 * per request), and what the first attempt's output gave (for the diagnosis when none matches).
 */
async function compiledMatch(
  run: VerifyRun,
  onchain: ReturnType<typeof decoded>,
): Promise<{ winner: Winner | null; firstTried: Winner[] }> {
  let firstTried: Winner[] = [];
  for (let k = 0; k < run.plan.attempts.length; k++) {
    const r = await run.attempt(k);
    if (!r.ok) continue;
    const tried = run.matching(() =>
      r.candidates.map((candidate) => ({ candidate, result: matchContract(candidate.compiled, onchain) })),
    );
    if (k === 0) firstTried = tried;
    const eligible = tried.filter((x) => fitsKnownCreation(x.result, onchain.creationInput));
    const best = selectBestMatch(eligible.map((x) => x.result));
    if (best) return { winner: eligible[best.index]!, firstTried };
  }
  return { winner: null, firstTried };
}
