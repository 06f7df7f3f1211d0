import type { ContractMatch, MismatchDiagnosis } from "../matching/index.js";
import type { CandidateContract } from "./compiled.js";
import type { FailureDiagnosis } from "./types.js";

export const NO_MATCH_MESSAGE = "No contract could be verified with provided data";

type Tried = { candidate: CandidateContract; result: ContractMatch };

/**
 * Explains why no contract of the output matched, from the candidate that came closest (latest first difference):
 * a constructor-argument problem, a different compiler version named by the on-chain CBOR, or code of a different
 * size (optimizer settings, viaIR), else the first differing byte.
 */
export function diagnoseFailure(tried: readonly Tried[], hasCreationInput: boolean): FailureDiagnosis {
  const withCode = tried.filter((t) => t.candidate.compiled.runtimeCode.length > 2);
  if (withCode.length === 0) {
    return {
      reason: "no_code_in_output",
      message: `${NO_MATCH_MESSAGE}: the compiler output has no deployable contract (only interfaces or abstract contracts).`,
    };
  }
  const ctor = withCode.find(
    (t) => t.result.creationMatch.diagnosis?.reason === "constructor_arguments_invalid",
  );
  if (ctor) {
    return {
      reason: "constructor_arguments_invalid",
      message: `${NO_MATCH_MESSAGE}: ${ctor.candidate.contractName} matches the creation code, but the bytes after it are not valid constructor arguments (${ctor.result.creationMatch.diagnosis?.message ?? "they do not ABI-decode"}).`,
      closest: closest(ctor, "creation", ctor.result.creationMatch.diagnosis),
    };
  }
  // The runtime code matches but the known creation code does not: other constructor code or initial values.
  const creationOnly = hasCreationInput
    ? withCode.find((t) => t.result.runtimeMatch.match && !t.result.creationMatch.match)
    : undefined;
  if (creationOnly) {
    const d = creationOnly.result.creationMatch.diagnosis;
    const at = d?.firstDifferingByte ?? 0;
    return {
      reason: "creation_code_mismatch",
      message: `${NO_MATCH_MESSAGE}: ${creationOnly.candidate.fileName}:${creationOnly.candidate.contractName} matches the runtime code, but its creation code differs from the on-chain creation input at byte ${at}${d?.compiledLength !== undefined ? ` (compiled ${d.compiledLength} bytes, on chain ${d.onchainLength} bytes)` : ""}: the constructor or the initial values in these sources are not the deployed ones.`,
      closest: closest(creationOnly, "creation", d),
    };
  }
  // Vyper: the code matches but the on-chain tail of immutables cannot be accounted for (matching/immutables.ts).
  const immutables = withCode.find((t) =>
    t.result.runtimeMatch.diagnosis?.reason.startsWith("vyper_immutables_"),
  );
  if (immutables && !hasCreationInput) {
    const d = immutables.result.runtimeMatch.diagnosis!;
    return {
      reason: "vyper_immutables",
      message: `${NO_MATCH_MESSAGE}: ${immutables.candidate.contractName} matches the start of the runtime code. ${d.message}`,
      closest: closest(immutables, "runtime", d),
    };
  }
  const version = withCode
    .map(
      (t) =>
        t.result.runtimeMatch.diagnosis?.compilerVersions ??
        t.result.creationMatch.diagnosis?.compilerVersions,
    )
    .find((v) => v !== undefined);
  let best: { t: Tried; side: "creation" | "runtime"; d: MismatchDiagnosis } | null = null;
  for (const t of withCode) {
    for (const side of hasCreationInput ? (["creation", "runtime"] as const) : (["runtime"] as const)) {
      const d = (side === "creation" ? t.result.creationMatch : t.result.runtimeMatch).diagnosis;
      if (!d || d.reason === "onchain_code_unavailable") continue;
      if (!best || (d.firstDifferingByte ?? -1) > (best.d.firstDifferingByte ?? -1)) best = { t, side, d };
    }
  }
  const where = best
    ? ` The closest is ${best.t.candidate.fileName}:${best.t.candidate.contractName}, whose ${best.side} code differs from the on-chain code at byte ${best.d.firstDifferingByte ?? 0}${best.d.compiledLength !== undefined ? ` (compiled ${best.d.compiledLength} bytes, on chain ${best.d.onchainLength} bytes)` : ""}.`
    : "";
  if (version) {
    return {
      reason: "wrong_compiler_version",
      message: `${NO_MATCH_MESSAGE}: the on-chain metadata names compiler ${version.onchain}, but ${version.compiled} was used. Verify with that compiler version.${where}`,
      compilerVersions: version,
      ...(best ? { closest: closest(best.t, best.side, best.d) } : {}),
    };
  }
  if (best && best.d.compiledLength !== undefined && best.d.compiledLength !== best.d.onchainLength) {
    return {
      reason: "optimizer_settings_suspected",
      message: `${NO_MATCH_MESSAGE}: the compiled code has a different size than the on-chain code, which usually means different optimizer settings (enabled, runs), viaIR or EVM version.${where}`,
      closest: closest(best.t, best.side, best.d),
    };
  }
  return {
    reason: "no_match",
    message: `${NO_MATCH_MESSAGE}: no contract of the compiler output matches the on-chain code.${where}`,
    ...(best ? { closest: closest(best.t, best.side, best.d) } : {}),
  };
}

function closest(t: Tried, side: "creation" | "runtime", d: MismatchDiagnosis | undefined) {
  return {
    contractName: t.candidate.contractName,
    fileName: t.candidate.fileName,
    side,
    ...(d?.firstDifferingByte !== undefined ? { firstDifferingByte: d.firstDifferingByte } : {}),
    ...(d?.compiledLength !== undefined ? { compiledLength: d.compiledLength } : {}),
    ...(d?.onchainLength !== undefined ? { onchainLength: d.onchainLength } : {}),
  };
}
