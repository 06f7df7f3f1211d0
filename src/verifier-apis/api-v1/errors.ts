import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { LookoutError } from "../../errors/base.js";
import { transientFailureReply } from "../../http/dialects.js";

/** gRPC-style codes of Blockscout's actix-prost services, and their HTTP statuses. */
export const GRPC = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, INTERNAL: 13, UNAVAILABLE: 14 } as const;

export type V1ErrorBody = { code: number; message: string };

export const v1Error = (code: number, message: string): V1ErrorBody => ({ code, message });

/** The `/api/v1` error dialect: `{code, message}`; bad input is 400 code 3, never a 5xx. */
export function v1ErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err.validation) {
    const v = err.validation[0];
    const missing = (v?.params as { missingProperty?: string } | undefined)?.missingProperty;
    const path = `${err.validationContext ?? "body"}${v?.instancePath ? v.instancePath.replace(/\//g, ".") : ""}`;
    const message = missing
      ? `Json deserialize error: missing field \`${missing}\``
      : `Json deserialize error: ${path} ${v?.message ?? "is invalid"}`;
    return reply.code(400).send(v1Error(GRPC.INVALID_ARGUMENT, message));
  }
  if (err instanceof LookoutError && err.code === "invalid_input") {
    return reply.code(400).send(v1Error(GRPC.INVALID_ARGUMENT, err.shortMessage));
  }
  // Fastify's own client errors: malformed JSON, body too large, wrong content type.
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return reply.code(400).send(v1Error(GRPC.INVALID_ARGUMENT, err.message));
  }
  const transient = transientFailureReply(err, req, reply);
  if (transient) return transient;
  req.log.error({ err }, "api/v1 request failed");
  return reply.code(500).send(v1Error(GRPC.INTERNAL, "Internal error"));
}
