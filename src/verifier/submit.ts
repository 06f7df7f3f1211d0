import { InvalidInputError } from "../errors/base.js";
import type { VerifierApi } from "./api.js";
import type { VerifierChain } from "./chain-clients.js";
import type { Job, VerificationJobs } from "./jobs/index.js";
import { checkRequestLimits, type VerifyRequest } from "./service/index.js";
import { getVerifiedContract, type VerifiedContractRecord } from "./store/index.js";

/** A request for one contract, as the asynchronous front doors queue it. */
export type SingleContractRequest = VerifyRequest & { contracts: [VerifyRequest["contracts"][number]] };

/**
 * The chain a request names (trimmed), else the indexed chain, else the only configured one; `chain` is absent when
 * the named id is not configured. Null when nothing is named and no chain stands out.
 */
export function pickChain(
  chains: VerifierApi["chains"],
  requested: string | number | null | undefined,
): { id: string; chain: VerifierChain | undefined } | null {
  const named = requested === null || requested === undefined ? "" : String(requested).trim();
  if (named !== "") return { id: named, chain: chains.get(named) };
  const all = [...chains.values()];
  const c = all.find((x) => x.config.indexed) ?? (all.length === 1 ? all[0] : undefined);
  return c ? { id: c.config.id, chain: c } : null;
}

/**
 * A configured chain for a request (`pickChain`); InvalidInputError naming the supported ids when the named one is
 * not configured or none is named and none stands out.
 */
export function chainFor(chains: VerifierApi["chains"], requested: string | undefined): VerifierChain {
  const picked = pickChain(chains, requested);
  const supported = [...chains.keys()].join(", ") || "none";
  if (!picked) throw new InvalidInputError(`Missing chainid (supported: ${supported})`);
  if (!picked.chain)
    throw new InvalidInputError(`Unsupported chainid ${requested} (supported: ${supported})`);
  return picked.chain;
}

/**
 * The one "already verified" rule of every front door: a user's verification (not an automatic copy) that matched
 * both the creation and the runtime code fully. Only then can no submission improve the record: the store replaces
 * a full match by another full one, so a contract fully matched on one side only (say runtime-only, its creation
 * not found at the time) may still gain its other side. Clients look before they submit (forge's getabi and
 * Sourcify lookup, hardhat-verify's getsourcecode), so the rule decides only forced or racing submissions.
 */
export function alreadyVerified(stored: VerifiedContractRecord | null): boolean {
  return (
    stored !== null && !stored.automatic && stored.creationMatch === "full" && stored.runtimeMatch === "full"
  );
}

export type SubmitOptions = {
  /**
   * Settle compiler discovery and refuse an unknown compiler version before queueing (Etherscan, Sourcify). The
   * verify form leaves that to the job, whose result reaches the socket.
   */
  checkCompiler: boolean;
  /**
   * Ask the chain for code at the address first: "required" refuses when the chain does not answer (Etherscan,
   * whose clients retry on that answer), "if-answered" goes on then (the form), "skip" never asks (Sourcify, whose
   * job reports a contract that is not deployed).
   */
  code: "required" | "if-answered" | "skip";
  /** After every check passed and before the job is queued (the form keeps the license it names). */
  beforeQueue?: () => Promise<void>;
};

export type SubmitOutcome =
  | { status: "queued"; job: Job }
  /** A job for the same contract is pending or running; `sameRequest` when it was asked exactly this. */
  | { status: "duplicate"; job: Job; sameRequest: boolean }
  /** No code at the address; `chainError` when the chain did not answer (under `code: "required"`). */
  | { status: "no-code"; chainError?: string }
  | { status: "already-verified"; stored: VerifiedContractRecord };

/**
 * The asynchronous front doors' submission: request limits, the compiler version, code at the address, the
 * "already verified" rule, then the job (a second job for a contract already in the queue is a duplicate).
 * Invalid input throws InvalidInputError; each dialect renders the outcomes in its own words.
 */
export async function submitVerification(
  api: Pick<VerifierApi, "db" | "chains" | "compilers"> & { jobs: VerificationJobs },
  request: SingleContractRequest,
  options: SubmitOptions,
): Promise<SubmitOutcome> {
  const chainId = String(request.contracts[0].chainId);
  const { address } = request.contracts[0];
  checkRequestLimits(request);
  if (options.checkCompiler) {
    await api.compilers.settled?.();
    api.compilers.resolveVersion(request.language, request.compiler);
  }
  if (options.code !== "skip") {
    const chain = api.chains.get(chainId);
    const code = chain
      ? await chain.rpc
          .request<string>("eth_getCode", [address, "latest"])
          .catch((e: unknown) => ({ error: e instanceof Error ? e.message.split("\n")[0]! : String(e) }))
      : { error: `chain ${chainId} is not configured` };
    if (typeof code !== "string" && options.code === "required")
      return { status: "no-code", chainError: code.error };
    if (code === "0x" || code === "0x0") return { status: "no-code" };
  }
  const stored = await getVerifiedContract(api.db, chainId, address);
  if (stored && alreadyVerified(stored)) return { status: "already-verified", stored };
  await options.beforeQueue?.();
  const submitted = await api.jobs.submit(request);
  return submitted.status === "queued"
    ? { status: "queued", job: submitted.job }
    : { status: "duplicate", job: submitted.job, sameRequest: submitted.sameRequest };
}

/**
 * The job once done, or as it is after `waitMs` (read from the table every 100 ms, so the job may run in any
 * process); null for an unknown id.
 */
export async function settledJob(jobs: VerificationJobs, id: string, waitMs: number): Promise<Job | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const job = await jobs.get(id);
    if (!job || job.state === "done" || Date.now() >= deadline) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}
