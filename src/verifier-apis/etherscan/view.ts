import type { Job } from "../../verifier/jobs/index.js";
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

/** One `getsourcecode` item, Etherscan's keys in Etherscan's order, plus our match type (clients ignore extras). */
export type SourceCodeItem = {
  SourceCode: string;
  ABI: string;
  ContractName: string;
  CompilerVersion: string;
  OptimizationUsed: string;
  Runs: string;
  ConstructorArguments: string;
  EVMVersion: string;
  Library: string;
  LicenseType: string;
  Proxy: string;
  Implementation: string;
  SwarmSource: string;
  MatchType?: "full" | "partial";
};

/** What Etherscan answers for an address without verified sources (status "1", as Etherscan does). */
export const unverifiedSourceItem = (): SourceCodeItem => ({
  SourceCode: "",
  ABI: TEXT.notVerified,
  ContractName: "",
  CompilerVersion: "",
  OptimizationUsed: "",
  Runs: "",
  ConstructorArguments: "",
  EVMVersion: "",
  Library: "",
  LicenseType: "",
  Proxy: "0",
  Implementation: "",
  SwarmSource: "",
});

type Settings = {
  optimizer?: { enabled?: boolean; runs?: number };
  optimize?: boolean | string;
  evmVersion?: string;
};

const SPDX = /SPDX-License-Identifier:\s*([^\s*]+)/;

/**
 * A stored verified contract as a `getsourcecode` item. Several files (or any Vyper JSON) go out as standard JSON
 * wrapped in double braces, Etherscan's convention that clients recognise; one Solidity file as its plain text.
 */
export function sourceCodeItem(
  r: VerifiedContractRecord,
  implementation: string | null = null,
): SourceCodeItem {
  const settings = r.compilerSettings as Settings;
  const files = Object.entries(r.sources);
  const single = files.length === 1 && r.language === "Solidity";
  const sourceCode = single
    ? files[0]![1]
    : `{${JSON.stringify({ language: r.language, sources: Object.fromEntries(files.map(([p, content]) => [p, { content }])), settings })}}`;
  const optimized =
    r.language === "Vyper"
      ? settings.optimize !== false && settings.optimize !== "none"
      : settings.optimizer?.enabled === true;
  // Etherscan writes Vyper versions as `vyper:0.4.0` (no commit), the way clients submit them.
  const version =
    r.language === "Vyper"
      ? `vyper:${r.compilerVersion.replace(/^v/, "").replace(/\+commit\..*$/, "")}`
      : r.compilerVersion;
  const mainSource = r.sources[r.fileName] ?? "";
  return {
    SourceCode: sourceCode,
    ABI: JSON.stringify(r.abi ?? []),
    ContractName: r.contractName,
    CompilerVersion: version,
    OptimizationUsed: optimized ? "1" : "0",
    Runs: String(settings.optimizer?.runs ?? (r.language === "Vyper" ? 0 : 200)),
    ConstructorArguments: (r.constructorArguments ?? "").replace(/^0x/, ""),
    EVMVersion: settings.evmVersion ?? "Default",
    Library: Object.entries(r.libraries)
      .map(([name, address]) => `${name.slice(name.lastIndexOf(":") + 1)}:${address.replace(/^0x/, "")}`)
      .join(";"),
    LicenseType: SPDX.exec(mainSource)?.[1] ?? "",
    Proxy: implementation ? "1" : "0",
    Implementation: implementation ?? "",
    SwarmSource: "",
    MatchType: r.matchType,
    // Not Blockscout's IsProxy/ImplementationAddress beside these: foundry reads those as aliases of Proxy and
    // Implementation, and an item with both fails to parse (`cast source` fails).
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
  const reason =
    o.code === "compilation_failed"
      ? `Compilation failed: ${firstLine(o.errors?.[0] ?? o.message)}`
      : firstLine(o.message);
  return notOk(`${TEXT.fail}. ${reason}`);
}
