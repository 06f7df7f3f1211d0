import { randomUUID } from "node:crypto";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { LookoutError } from "../../errors/base.js";
import { transientFailureReply } from "../../http/dialects.js";

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

/** A Sourcify-dialect error: thrown by handlers, rendered by `sourcifyErrorHandler`. */
export class SourcifyError extends LookoutError {
  override name = "SourcifyError";
  constructor(
    readonly customCode: SourcifyErrorCode,
    message: string,
  ) {
    super({ code: `sourcify_${customCode}`, shortMessage: message });
  }
}

export const errorBody = (
  customCode: string,
  message: string,
  errorId: string = randomUUID(),
): SourcifyErrorBody => ({
  customCode,
  message,
  errorId,
});

/** `{customCode, message, errorId}` for every error; bad input is a 4xx, never a 5xx. */
export function sourcifyErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof SourcifyError) {
    return reply.code(SOURCIFY_ERRORS[err.customCode]).send(errorBody(err.customCode, err.shortMessage));
  }
  if (err instanceof LookoutError && err.code === "invalid_input") {
    return reply.code(400).send(errorBody("invalid_parameter", err.shortMessage));
  }
  if (err.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err instanceof SyntaxError) {
    return reply.code(400).send(errorBody("invalid_json", `Invalid JSON body: ${err.message}`));
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return reply.code(400).send(errorBody("invalid_parameter", err.message));
  }
  const transient = transientFailureReply(err, req, reply);
  if (transient) return transient;
  const body = errorBody("internal_error", "Internal error; please try again later");
  req.log.error({ err, errorId: body.errorId }, "Sourcify API request failed");
  return reply.code(500).send(body);
}
