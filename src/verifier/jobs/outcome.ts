import { LookoutError } from "../../errors/base.js";
import type { VerifyResponse } from "../service/index.js";
import type { JobOutcome } from "./types.js";

/**
 * A job's outcome from what the verify service answered for its single contract. Pure: the HTTP dialects render
 * outcomes, the runner stores them.
 */
export function outcomeOf(r: VerifyResponse): JobOutcome {
  switch (r.kind) {
    case "validation": {
      const bad = r.items.find((i) => i.status === "INVALID");
      return {
        result: "failed",
        code: "contract_not_deployed",
        message: bad ? `${bad.message} (${bad.address})` : "The address is not a smart contract",
      };
    }
    case "compilationFailure":
      return { result: "failed", code: "compilation_failed", message: r.message, errors: r.errors };
    case "verification": {
      const item = r.items[0];
      if (!item) return { result: "failed", code: "internal_error", message: "No verification result" };
      if (item.status === "FAILURE") {
        return {
          result: "failed",
          code: item.diagnosis ? "no_match" : "internal_error",
          message: item.message,
          ...(item.diagnosis ? { diagnosis: item.diagnosis } : {}),
          ...(item.creationUnavailable ? { creationUnavailable: item.creationUnavailable } : {}),
        };
      }
      return {
        result: "verified",
        matchType: item.matchType ?? (item.status === "FULLY_VERIFIED" ? "full" : "partial"),
        creationMatch: item.creationMatch ?? null,
        runtimeMatch: item.runtimeMatch ?? null,
        contractName: item.contractName ?? null,
        fileName: item.fileName ?? null,
        alreadyVerified: item.alreadyVerified === true,
        ...(item.creationUnavailable ? { creationUnavailable: item.creationUnavailable } : {}),
      };
    }
  }
}

/** The outcome of a job whose verify call threw: bad input is the user's, anything else ours. */
export function outcomeOfError(e: unknown): JobOutcome {
  if (e instanceof LookoutError && e.code === "invalid_input") {
    return { result: "failed", code: "invalid_parameter", message: e.shortMessage };
  }
  const message = e instanceof LookoutError ? e.shortMessage : e instanceof Error ? e.message : String(e);
  return { result: "failed", code: "internal_error", message: `Internal error: ${message.split("\n")[0]}` };
}
