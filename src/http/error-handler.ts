import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { LookoutError } from "../errors/base.js";
import {
  type DialectDescriptor,
  type ErrorCause,
  type ErrorShape,
  presetAnswer,
  transientFailureReply,
} from "./dialects.js";

/** An error a dialect raises in its own words (a status and body of its own, e.g. Sourcify's `already_verified`). */
export class DialectAnswer extends LookoutError {
  override name = "DialectAnswer";
  constructor(
    readonly answer: ErrorShape,
    message: string,
  ) {
    super({ code: "dialect_answer", shortMessage: message });
  }
}

/**
 * The error handler of a dialect's plugin: every error that reaches it is sorted by where it came from (schema
 * validation, our invalid input, another client error, our own failure) and rendered by the descriptor. Bad input
 * is always a 4xx in the dialect's shape; a failure is logged and never shows internals.
 */
export function dialectErrorHandler(d: Pick<DialectDescriptor, "name" | "error">) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof DialectAnswer) return reply.code(err.answer.status).send(err.answer.body);
    const preset = presetAnswer(err);
    if (preset) return reply.code(preset.status).send(preset.body);
    const transient = transientFailureReply(err, req, reply, d);
    if (transient) return transient;
    let cause: ErrorCause;
    let message = err.message;
    if (err.validation) cause = { kind: "validation", error: err };
    else if (err instanceof LookoutError && err.code === "invalid_input") {
      cause = { kind: "invalid-input", field: (err as LookoutError & { field?: string }).field };
      message = err.shortMessage;
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
      cause = { kind: "request", error: err };
    else cause = { kind: "internal" };
    const e = d.error(cause.kind === "internal" ? 500 : (err.statusCode ?? 400), message, cause);
    if (cause.kind === "internal") req.log.error({ err, answer: e.body }, `${d.name} request failed`);
    return reply.code(e.status).send(e.body);
  };
}
