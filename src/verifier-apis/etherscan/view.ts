import type { Job, JobOutcome } from "../../verifier/jobs/index.js";
import { shownCompilerSettings } from "../../verifier/requests/index.js";
import type { VerifiedContractRecord } from "../../verifier/store/index.js";
/**
 * The Etherscan response envelope: always HTTP 200, `status` "1" or "0", and the exact `result` strings that
 * forge and hardhat-verify compare against (spec: verification-engines-and-clients.md §3).
 */
export type Envelope = { status: "0" | "1"; message: string; result: unknown };

export const ok = (result: unknown): Envelope => ({ status: "1", message: "OK", result });
export const notOk = (result: string, message = "NOTOK"): Envelope => ({ status: "0", message, result });

export const TEXT = {
  pending: "Pending in queue",
  pass: "Pass - Verified",
  fail: "Fail - Unable to verify",
  alreadyVerifiedStatus: "Already Verified",
  unknownGuid: "Unknown UID",
  alreadyVerifiedSubmit: "Contract source code already verified",
  notVerified: "Contract source code not verified",
  noCode: (address: string) => `Unable to locate ContractCode at ${address}`,
  noData: "No data found",
} as const;

/**
 * One `getsourcecode` item in Blockscout's shape (its RPC ContractView): the address, then for a verified contract
 * its main file as `SourceCode` and the other files as `AdditionalSources`. Members Blockscout leaves out when
 * empty (runs without the optimizer, constructor arguments, libraries, implementations) are left out here too.
 * No Etherscan `Proxy`/`Implementation` beside `IsProxy`: foundry reads `IsProxy` as an alias of `Proxy` and fails
 * on an item carrying both.
 */
export type SourceCodeItem = {
  Address: string;
  SourceCode?: string;
  ABI?: string;
  ContractName?: string;
  CompilerVersion?: string;
  OptimizationUsed?: "true" | "false";
  OptimizationRuns?: number;
  EVMVersion?: string;
  FileName?: string;
  ConstructorArguments?: string;
  ExternalLibraries?: { name: string; address_hash: string }[];
  AdditionalSources?: { Filename: string; SourceCode: string }[];
  IsProxy?: "true" | "false";
  ImplementationAddress?: string;
  ImplementationAddresses?: string[];
  CompilerSettings?: unknown;
};

/** Blockscout's item for an address without verified sources: the address alone (clients read "not verified"). */
export const unverifiedSourceItem = (address: string): SourceCodeItem => ({ Address: address.toLowerCase() });

type Settings = {
  optimizer?: { enabled?: boolean; runs?: number };
  optimize?: boolean | string;
  evmVersion?: string;
};

/** A stored verified contract as a `getsourcecode` item (Blockscout's shape, above). */
export function sourceCodeItem(
  address: string,
  r: VerifiedContractRecord,
  implementation: string | null = null,
): SourceCodeItem {
  const settings = (r.compilerSettings ?? {}) as Settings;
  const optimized =
    r.language === "Vyper"
      ? settings.optimize !== false && settings.optimize !== "none"
      : settings.optimizer?.enabled === true;
  // Vyper versions go out as `vyper:0.4.0` (no commit): foundry tells a Vyper contract by this prefix.
  const version =
    r.language === "Vyper"
      ? `vyper:${r.compilerVersion.replace(/^v/, "").replace(/\+commit\..*$/, "")}`
      : r.compilerVersion;
  const others = Object.entries(r.sources).filter(([path]) => path !== r.fileName);
  const libraries = Object.entries(r.libraries);
  const args = (r.constructorArguments ?? "").replace(/^0x/, "");
  return {
    Address: address.toLowerCase(),
    SourceCode: r.sources[r.fileName] ?? "",
    ABI: JSON.stringify(r.abi ?? []),
    ContractName: r.contractName,
    CompilerVersion: version,
    OptimizationUsed: optimized ? "true" : "false",
    ...(optimized
      ? { OptimizationRuns: settings.optimizer?.runs ?? (r.language === "Vyper" ? 0 : 200) }
      : {}),
    EVMVersion: settings.evmVersion ?? "default",
    FileName: r.fileName,
    ...(args ? { ConstructorArguments: args } : {}),
    ...(libraries.length > 0
      ? {
          ExternalLibraries: libraries.map(([name, a]) => ({
            name: name.slice(name.lastIndexOf(":") + 1),
            address_hash: a.toLowerCase(),
          })),
        }
      : {}),
    ...(others.length > 0
      ? { AdditionalSources: others.map(([Filename, SourceCode]) => ({ Filename, SourceCode })) }
      : {}),
    IsProxy: implementation ? "true" : "false",
    ...(implementation
      ? { ImplementationAddress: implementation, ImplementationAddresses: [implementation] }
      : {}),
    CompilerSettings: shownCompilerSettings(r),
  };
}

const firstLine = (s: string) => s.split("\n").find((l) => l.trim() !== "") ?? s;

/**
 * `checkverifystatus` for a job: pending and failed are status "0" (Etherscan's convention; forge and hardhat read
 * only `result`), a pass "1". A failure says why after the fixed prefix, which clients match with startsWith.
 */
export function jobStatusEnvelope(job: Job | null): Envelope {
  if (!job) return notOk(TEXT.unknownGuid);
  if (job.state !== "done" || !job.outcome) return notOk(TEXT.pending);
  const o = job.outcome;
  if (o.result === "verified") return ok(o.alreadyVerified ? TEXT.alreadyVerifiedStatus : TEXT.pass);
  return notOk(`${TEXT.fail}. ${failureReason(o)}`);
}

/** Why a job failed, in one line: the compiler's first message for a compilation failure. */
export function failureReason(o: Extract<JobOutcome, { result: "failed" }>): string {
  return o.code === "compilation_failed"
    ? `Compilation failed: ${firstLine(o.errors?.[0] ?? o.message)}`
    : firstLine(o.message);
}
