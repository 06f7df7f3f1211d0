import { LookoutError } from "../../errors/base.js";
import type { VerifyResponse } from "../service/index.js";
import type { JobOutcome } from "./types.js";

/** Longest text an outcome keeps (a message, one compiler error, a name), and the most compiler errors. */
export const OUTCOME_TEXT_MAX = 2_000;
export const OUTCOME_ERRORS_MAX = 20;

const cut = (s: string, max: number) =>
  s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;

/**
 * The outcome with every text at most OUTCOME_TEXT_MAX characters (the message at twice that) and at most
 * OUTCOME_ERRORS_MAX compiler errors. A finished job keeps its outcome for good, and a compiler's message quotes
 * the source it points at: a 1 MB string literal assigned to a uint left a 2 MB outcome (and status answer).
 */
export function boundOutcome(o: JobOutcome): JobOutcome {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return cut(v, OUTCOME_TEXT_MAX);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const bounded = walk(o) as JobOutcome;
  if (o.result === "failed" && bounded.result === "failed") {
    bounded.message = cut(o.message, 2 * OUTCOME_TEXT_MAX);
    if (o.errors && o.errors.length > OUTCOME_ERRORS_MAX)
      bounded.errors = [
        ...bounded.errors!.slice(0, OUTCOME_ERRORS_MAX),
        `… and ${o.errors.length - OUTCOME_ERRORS_MAX} more errors`,
      ];
  }
  return bounded;
}

/**
 * A job's outcome from what the verify service answered for its single contract, bounded (boundOutcome). Pure: the
 * HTTP dialects render outcomes, the runner stores them.
 */
export function outcomeOf(r: VerifyResponse): JobOutcome {
  return boundOutcome(unboundedOutcomeOf(r));
}

function unboundedOutcomeOf(r: VerifyResponse): JobOutcome {
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

/** The outcome of a job whose verify call threw: bad input is the user's, anything else ours (bounded). */
export function outcomeOfError(e: unknown): JobOutcome {
  if (e instanceof LookoutError && e.code === "invalid_input") {
    return boundOutcome({ result: "failed", code: "invalid_parameter", message: e.shortMessage });
  }
  const message = e instanceof LookoutError ? e.shortMessage : e instanceof Error ? e.message : String(e);
  return boundOutcome({
    result: "failed",
    code: "internal_error",
    message: `Internal error: ${message.split("\n")[0]}`,
  });
}
