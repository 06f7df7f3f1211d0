import type { MatchType } from "../matching/index.js";
import type { FailureDiagnosis, VerifyRequest, VerifyResponse } from "../service/index.js";

export type JobState = "pending" | "running" | "done";

/**
 * Why a job did not verify, as a stable code each API renders in its own words (Sourcify uses them as
 * `customCode`): the contract has no code, the sources do not compile, the code differs, the request was bad
 * (unknown compiler, EVM version, chain), or something broke on our side.
 */
export type JobFailureCode =
  | "contract_not_deployed"
  | "compilation_failed"
  | "no_match"
  | "invalid_parameter"
  | "internal_error";

export type JobOutcome =
  | {
      result: "verified";
      matchType: MatchType;
      creationMatch: MatchType | null;
      runtimeMatch: MatchType | null;
      contractName: string | null;
      fileName: string | null;
      /** The store already held a full match and kept it; this request matched only partially. */
      alreadyVerified: boolean;
      /** Why only the runtime code was matched (the creation could not be found). */
      creationUnavailable?: string;
    }
  | {
      result: "failed";
      code: JobFailureCode;
      message: string;
      /** Compiler messages of a compilation failure. */
      errors?: string[];
      diagnosis?: FailureDiagnosis;
      /** Why only the runtime code was compared (the creation could not be found). */
      creationUnavailable?: string;
    };

export type Job = {
  id: string;
  chainId: string;
  /** Lower-case 0x address. */
  address: string;
  state: JobState;
  /** What the job runs; null once it is done (a finished job keeps its outcome, not its request). */
  request: VerifyRequest | null;
  outcome: JobOutcome | null;
  attempts: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationMs: number | null;
};

export type SubmitResult =
  /** A new job was queued. */
  | { status: "queued"; job: Job }
  /** A job for the same contract is still pending or running; `sameRequest` when it was asked exactly this. */
  | { status: "duplicate"; job: Job; sameRequest: boolean };

/** What the HTTP dialects need: queue a verification, read a job. */
export interface VerificationJobs {
  submit(req: VerifyRequest & { contracts: [VerifyRequest["contracts"][number]] }): Promise<SubmitResult>;
  get(id: string): Promise<Job | null>;
}

export type VerifyRunner = (req: VerifyRequest) => Promise<VerifyResponse>;
