import type { FastifyInstance } from "fastify";
import type { DialectDescriptor } from "./dialects.js";
import { dialectErrorHandler } from "./error-handler.js";

/**
 * Sets up a dialect's plugin scope: its error handler, and a serializer that writes every member of the answer
 * (JSON.stringify): response schemas document the answers, they never filter them.
 */
export function dialectScope(app: FastifyInstance, d: Pick<DialectDescriptor, "name" | "error">): void {
  app.setErrorHandler(dialectErrorHandler(d));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
