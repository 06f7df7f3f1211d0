import { CompilerError } from "../compilers/errors.js";
import type { CompilerLanguage, CompilerOutput, StandardJsonInput } from "../compilers/index.js";
import type { Hex, Language } from "../matching/index.js";
import { type CompileAttempt, editedForAuxdata, withOutputSelection } from "../requests/solidity.js";
import { parseVyperVersion, vyperCompilerInput } from "../vyper/index.js";
import {
  type CandidateContract,
  compileErrors,
  contractsFromOutput,
  mayHoldSeveralAuxdata,
  withDiffedAuxdata,
} from "./compiled.js";
import type { OnchainFacts } from "./onchain.js";
import { type StoreInputs, storeInputs } from "./stored.js";
import type { VerifyDeps, VerifyPhase } from "./types.js";

/** One contract of the request, checked (see validateTargets). */
export type Target = {
  chainId: string;
  address: Hex;
  creationTransactionHash: string | null;
  knownFacts?: OnchainFacts;
};

/** A request that passed every check made before any I/O: what the run works from. */
export type VerifyPlan = {
  language: CompilerLanguage;
  /** Canonical `v…` name. */
  version: string;
  targets: readonly Target[];
  /** At least one, none empty; the first must compile (its errors are the user's). */
  attempts: readonly CompileAttempt[];
};

export type AttemptResult = { ok: true; candidates: CandidateContract[] } | { ok: false; errors: string[] };

export const languageOf = (input: StandardJsonInput, fallback: CompilerLanguage): Language =>
  input.language === "Yul" ? "Yul" : input.language === "Vyper" ? "Vyper" : fallback;

const noop = () => {};

/**
 * The concurrency plan of one request, in one place. The request's phases (verify.ts) run in order; what runs
 * beside them lives here: the compiles (each attempt once, started when first asked, the first one possibly before
 * the on-chain round trips), the decision whether a factory's second compile may start early, and the phase times.
 */
export class VerifyRun {
  /** When the request's I/O began: the `storedLookup` and `code` phases are measured from here. */
  readonly started = performance.now();
  /** The store's view of each input (settings, sources, keys), computed once for the lookup and the winner's record. */
  readonly storeInputs: (input: StandardJsonInput) => StoreInputs;
  /**
   * Code holding several auxdata (a factory: in its runtime code, or only in its creation code when it deploys the
   * other contract from its constructor) will need a second, edited compile: it may start beside the first. Decided
   * once the facts are in (false when the request ends in a validation result).
   */
  private readonly severalAuxdata: Promise<boolean>;
  private settleAuxdata!: (several: boolean | Promise<boolean>) => void;
  /** What the compiler gets for each input, made once per input. */
  private readonly compilerInputs = new Map<StandardJsonInput, StandardJsonInput>();
  /** Each attempt's compile, started when first asked. */
  private readonly compiled: Array<Promise<AttemptResult> | undefined> = [];
  private matchMs = 0;

  constructor(
    readonly deps: VerifyDeps,
    readonly plan: VerifyPlan,
  ) {
    this.storeInputs = storeInputs(plan.language, plan.version);
    this.severalAuxdata = new Promise<boolean>((resolve) => {
      this.settleAuxdata = resolve;
    });
  }

  /** Tells `deps.phases` the time since `from` (nothing is measured without a listener). */
  phase(name: VerifyPhase, from: number): void {
    this.deps.phases?.(name, performance.now() - from);
  }

  /** Runs `fn`, counting its time as matching (told once, by `matchDone`). */
  matching<T>(fn: () => T): T {
    const from = performance.now();
    try {
      return fn();
    } finally {
      this.matchMs += performance.now() - from;
    }
  }

  matchDone(): void {
    this.deps.phases?.("match", this.matchMs);
  }

  decideAuxdata(several: boolean | Promise<boolean>): void {
    this.settleAuxdata(several);
  }

  private readonly compilerInput = (raw: StandardJsonInput): StandardJsonInput => {
    let input = this.compilerInputs.get(raw);
    if (!input) {
      // Vyper's selection depends on the version and on which files are contracts (src/verifier/vyper).
      input =
        this.plan.language === "Vyper"
          ? vyperCompilerInput(raw, parseVyperVersion(this.plan.version))
          : withOutputSelection(raw);
      this.compilerInputs.set(raw, input);
    }
    return input;
  };

  /** Attempt `k`'s compile, started on the first call; compiler failures caused by the input become errors. */
  attempt(k: number, onStarted?: () => void): Promise<AttemptResult> {
    this.compiled[k] ??= compileAttempt(
      this.deps,
      this.plan.language,
      this.plan.version,
      this.plan.attempts[k]!,
      this.severalAuxdata,
      this.compilerInput,
      onStarted,
    ).catch(compilerFailure);
    return this.compiled[k]!;
  }

  /**
   * Starts the first attempt's compile; resolves once the compile no longer needs this thread (posted to its
   * worker, queued, running natively, answered by the cache, or failed), so that the request's other round trips,
   * sent after it, do not delay the hand-off. An answer that needs no compile (a validation result) does not wait
   * for it: it finishes alone, never an unhandled rejection.
   */
  startCompile(): Promise<void> {
    let handedOver!: () => void;
    const dispatched = new Promise<void>((resolve) => {
      handedOver = resolve;
    });
    const first = this.attempt(0, handedOver);
    return Promise.race([dispatched, first.then(noop, noop)]);
  }

  /**
   * While the compiler runs: the bulk of the key the store gives the winner's compilation (settings and sources),
   * so the answer does not wait for it.
   */
  prepareStoreKeys(): void {
    for (const input of this.plan.attempts[0]!.inputs)
      this.storeInputs(input).compilationIds(languageOf(input, this.plan.language));
  }
}

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
