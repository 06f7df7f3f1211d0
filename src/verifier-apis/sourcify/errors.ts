import { randomUUID } from "node:crypto";
import { type ErrorCause, type ErrorShape, INTERNAL_FAILURE } from "../../http/dialects.js";
import { DialectAnswer } from "../../http/error-handler.js";

/** Sourcify v2 error codes (apiv2 errors.ts) that this API answers with, and their HTTP statuses. */
export const SOURCIFY_ERRORS = {
  invalid_parameter: 400,
  invalid_json: 400,
  unsupported_chain: 404,
  job_not_found: 404,
  route_not_found: 404,
  already_verified: 409,
  duplicate_verification_request: 429,
  internal_error: 500,
} as const;

export type SourcifyErrorCode = keyof typeof SOURCIFY_ERRORS;

export type SourcifyErrorBody = { customCode: string; message: string; errorId: string };

export const errorBody = (
  customCode: string,
  message: string,
  errorId: string = randomUUID(),
): SourcifyErrorBody => ({
  customCode,
  message,
  errorId,
});

/** A Sourcify-dialect error: thrown by handlers, answered with its code's status. */
export class SourcifyError extends DialectAnswer {
  override name = "SourcifyError";
  constructor(
    readonly customCode: SourcifyErrorCode,
    message: string,
  ) {
    super({ status: SOURCIFY_ERRORS[customCode], body: errorBody(customCode, message) }, message);
  }
}

/** `{customCode, message, errorId}` for every error; bad input is a 4xx, never a 5xx. */
export function sourcifyError(status: number, message: string, cause?: ErrorCause): ErrorShape {
  switch (cause?.kind ?? "framework") {
    case "internal":
      return { status: 500, body: errorBody("internal_error", "Internal error; please try again later") };
    case "unavailable":
      return { status: 503, body: errorBody("internal_error", message) };
    case "invalid-input":
      return { status: 400, body: errorBody("invalid_parameter", message) };
    case "validation":
    case "request": {
      const err = (cause as { error: Error & { code?: string } }).error;
      if (err.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err instanceof SyntaxError)
        return { status: 400, body: errorBody("invalid_json", `Invalid JSON body: ${message}`) };
      return { status: 400, body: errorBody("invalid_parameter", message) };
    }
    default:
      if (status >= 500) return INTERNAL_FAILURE;
      return status === 404
        ? { status, body: errorBody("route_not_found", message) }
        : { status: 400, body: errorBody("invalid_parameter", message) };
  }
}
