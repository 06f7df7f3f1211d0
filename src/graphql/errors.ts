import type { FastifyBaseLogger } from "fastify";
import type { GraphQLError, GraphQLFormattedError } from "graphql";
import { isStatementTimeout, isTransientDbError } from "../db/failures.js";
import { type ErrorDialect, statusMessage } from "../http/dialects.js";

/** GraphQL's error body: `{"errors":[{"message":…}]}` (what Absinthe.Plug answers for a request it cannot run). */
export const graphqlErrorBody = (message: string) => ({ errors: [{ message }] });

/** Framework errors (a malformed URL, an unknown route) under the GraphQL paths, in GraphQL's shape. */
export const GRAPHQL_ERRORS: ErrorDialect = {
  name: "graphql",
  paths: ["/api/v1/graphql", "/graphiql"],
  error: (status, message, cause) => {
    if (cause?.kind === "unavailable") return { status: 503, body: graphqlErrorBody(message) };
    if (status >= 500) return { status: 500, body: graphqlErrorBody("Internal server error") };
    return { status, body: graphqlErrorBody(cause?.kind === "not-found" ? statusMessage(404) : message) };
  },
};

/**
 * One error of a result as the client sees it: ours (GraphQLError, Blockscout's wording) as they are; a database
 * that did not answer in time, or not at all, says so (retry); anything else is logged and answered without its
 * internals.
 */
export function formatGraphqlError(err: GraphQLError, log: FastifyBaseLogger): GraphQLFormattedError {
  const original = err.originalError;
  const json = err.toJSON();
  if (!original || original.name === "GraphQLError") return json;
  if (isStatementTimeout(original))
    return {
      ...json,
      message: "The database did not answer in time; please retry",
      extensions: { code: "TIMEOUT" },
    };
  if (isTransientDbError(original))
    return {
      ...json,
      message: "The database is temporarily unavailable; please retry",
      extensions: { code: "UNAVAILABLE" },
    };
  log.error({ err: original }, "GraphQL resolver failed");
  return { ...json, message: "Internal server error", extensions: { code: "INTERNAL" } };
}
