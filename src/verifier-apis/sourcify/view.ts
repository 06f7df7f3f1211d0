import { type Static, Type } from "@sinclair/typebox";
import { getAddress } from "viem";
import type { Job } from "../../verifier/jobs/index.js";
import type { MatchType } from "../../verifier/matching/index.js";
import type { VerifiedContractRecord } from "../../verifier/store/index.js";
import { errorBody } from "./errors.js";

/** Sourcify's match vocabulary for ours: full → exact_match, partial → match. */
export const sourcifyMatch = (m: MatchType | null | undefined) =>
  m === "full" ? "exact_match" : m === "partial" ? "match" : null;

const Match = Type.Union([Type.Literal("exact_match"), Type.Literal("match"), Type.Null()]);

/** Sourcify's minimal contract object (what every lookup answers, and a 404 with match null). */
export const MinimalContractObject = Type.Object({
  match: Match,
  creationMatch: Match,
  runtimeMatch: Match,
  chainId: Type.String(),
  address: Type.String(),
  verifiedAt: Type.Optional(Type.String()),
});

/** The minimal object plus the groups `fields=`/`omit=` select. */
export const ContractObject = Type.Object({
  ...MinimalContractObject.properties,
  abi: Type.Optional(Type.Unknown()),
  sources: Type.Optional(Type.Record(Type.String(), Type.Object({ content: Type.String() }))),
  compilation: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  deployment: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  creationBytecode: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  runtimeBytecode: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  stdJsonInput: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

/** A verification job: finished or not, and the error of a failed one. */
export const JobObject = Type.Object({
  isJobCompleted: Type.Boolean(),
  verificationId: Type.String(),
  jobStartTime: Type.String(),
  jobFinishTime: Type.Optional(Type.String()),
  compilationTime: Type.Optional(Type.String()),
  contract: MinimalContractObject,
  error: Type.Optional(
    Type.Object({
      customCode: Type.String(),
      message: Type.String(),
      errorId: Type.String(),
      errorData: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  ),
});

export type MinimalContract = {
  match: "exact_match" | "match" | null;
  creationMatch: "exact_match" | "match" | null;
  runtimeMatch: "exact_match" | "match" | null;
  chainId: string;
  address: string;
  verifiedAt?: string;
};

const checksummed = (a: string) => {
  try {
    return getAddress(a);
  } catch {
    return a;
  }
};

export const unverifiedContract = (chainId: string, address: string): MinimalContract => ({
  match: null,
  creationMatch: null,
  runtimeMatch: null,
  chainId,
  address: checksummed(address),
});

export const minimalContract = (r: VerifiedContractRecord): MinimalContract => ({
  match: sourcifyMatch(r.matchType),
  creationMatch: sourcifyMatch(r.creationMatch),
  runtimeMatch: sourcifyMatch(r.runtimeMatch),
  chainId: r.chainId,
  address: checksummed(r.address),
  verifiedAt: r.verifiedAt.toISOString(),
});

/** `GET /v2/verify/{id}`: 200 for every known job, finished or not, failed or not (the client reads `error`). */
export function jobView(job: Job) {
  const o = job.outcome;
  const done = job.state === "done" && o !== null;
  const contract: MinimalContract = unverifiedContract(job.chainId, job.address);
  if (done && o.result === "verified") {
    contract.match = sourcifyMatch(o.matchType);
    contract.creationMatch = sourcifyMatch(o.creationMatch);
    contract.runtimeMatch = sourcifyMatch(o.runtimeMatch);
    if (job.finishedAt) contract.verifiedAt = job.finishedAt.toISOString();
  }
  return {
    isJobCompleted: done,
    verificationId: job.id,
    jobStartTime: job.createdAt.toISOString(),
    ...(done && job.finishedAt ? { jobFinishTime: job.finishedAt.toISOString() } : {}),
    ...(done && job.durationMs !== null ? { compilationTime: String(job.durationMs) } : {}),
    contract,
    ...(done && o.result === "failed"
      ? {
          error: {
            ...errorBody(o.code, o.message, job.id),
            ...(o.errors || o.diagnosis || o.creationUnavailable
              ? {
                  errorData: {
                    compilerErrors: o.errors ?? [],
                    ...(o.diagnosis ? { diagnosis: o.diagnosis } : {}),
                    // Why only the runtime code was compared (also said at the end of `message`).
                    ...(o.creationUnavailable ? { creationUnavailable: o.creationUnavailable } : {}),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}

const FIELD_GROUPS = [
  "abi",
  "compilation",
  "sources",
  "deployment",
  "creationBytecode",
  "runtimeBytecode",
  "stdJsonInput",
] as const;
type FieldGroup = (typeof FIELD_GROUPS)[number];

/** Which optional groups `fields=`/`omit=` ask for (one level; `fields=all` is every group we have). */
export function selectedFields(
  fields: string | string[] | undefined,
  omit: string | string[] | undefined,
): Set<FieldGroup> {
  // A repeated parameter (`fields=a&fields=b`) arrives as an array: the same as `fields=a,b`.
  const list = (s: string | string[] | undefined) =>
    (Array.isArray(s) ? s.join(",") : (s ?? ""))
      .split(",")
      .map((f) => f.trim().split(".")[0]!)
      .filter(Boolean);
  if (omit) {
    const drop = new Set(list(omit));
    return new Set(FIELD_GROUPS.filter((g) => !drop.has(g)));
  }
  const want = list(fields);
  if (want.includes("all")) return new Set(FIELD_GROUPS);
  return new Set(FIELD_GROUPS.filter((g) => want.includes(g)));
}

/** `GET /v2/contract/{chainId}/{address}` for a verified contract: the minimal body plus the groups asked for. */
export function contractView(r: VerifiedContractRecord, groups: Set<FieldGroup>) {
  const out: Static<typeof ContractObject> = { ...minimalContract(r) };
  const fqn = `${r.fileName}:${r.contractName}`;
  const input = {
    language: r.language,
    sources: Object.fromEntries(Object.entries(r.sources).map(([p, content]) => [p, { content }])),
    settings: r.compilerSettings,
  };
  if (groups.has("abi")) out.abi = r.abi;
  if (groups.has("sources"))
    out.sources = Object.fromEntries(Object.entries(r.sources).map(([p, content]) => [p, { content }]));
  if (groups.has("compilation"))
    out.compilation = {
      language: r.language,
      compiler: r.compiler,
      compilerVersion: r.compilerVersion.replace(/^v/, ""),
      compilerSettings: r.compilerSettings,
      name: r.contractName,
      fullyQualifiedName: fqn,
    };
  if (groups.has("deployment"))
    out.deployment = { transactionHash: r.creationTransactionHash, chainId: r.chainId };
  if (groups.has("creationBytecode"))
    out.creationBytecode = {
      onchainBytecode: r.onchainCreationCode,
      recompiledBytecode: r.compiled.creationCode,
      transformations: r.creationTransformations,
      transformationValues: r.creationValues,
    };
  if (groups.has("runtimeBytecode"))
    out.runtimeBytecode = {
      onchainBytecode: r.onchainRuntimeCode,
      recompiledBytecode: r.compiled.runtimeCode,
      transformations: r.runtimeTransformations,
      transformationValues: r.runtimeValues,
    };
  if (groups.has("stdJsonInput")) out.stdJsonInput = input;
  return out;
}
