import type { VerificationResult } from "../events/facts.js";
import type { JobOutcome } from "../verifier/jobs/index.js";

/**
 * A finished verification job as Blockscout's socket reports it (`verification_result`): success, or the errors
 * of its changeset keyed by form field (`contract_source_code`, `compiler_version`, ...), which the frontend puts
 * under that field or, when the form has no such field, above the form. Pure.
 */
export function verificationResultOf(outcome: JobOutcome): VerificationResult {
  if (outcome.result === "verified") return { status: "success" };
  const detail = [outcome.message, ...(outcome.errors ?? []).slice(0, 5)].filter(Boolean);
  switch (outcome.code) {
    case "invalid_parameter":
      return {
        status: "error",
        errors: /compiler|version/i.test(outcome.message)
          ? { compiler_version: detail }
          : { contract_source_code: detail },
      };
    case "contract_not_deployed":
      return {
        status: "error",
        errors: { contract_source_code: ["Address is not a smart-contract", ...detail] },
      };
    case "no_match":
      return {
        status: "error",
        errors: { contract_source_code: ["No contract could be verified with provided data", ...detail] },
      };
    default:
      return { status: "error", errors: { contract_source_code: detail } };
  }
}
