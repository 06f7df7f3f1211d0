import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { GraphQLError } from "graphql";
import mercurius from "mercurius";
import { fromBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";
import { formatGraphqlError, graphqlErrorBody } from "./errors.js";
import { defaultQuery, graphiqlPage } from "./graphiql.js";
import { checkLimits, type GraphqlLimits } from "./limits.js";
import { createLoaders } from "./loaders.js";
import { normalizeNames } from "./names.js";
import { newestTransactionHash } from "./query.js";
import { type GraphqlContext, RESOLVERS } from "./resolvers.js";
import { TYPE_DEFS } from "./schema.js";

export const GRAPHQL_PATH = "/api/v1/graphql";
export const GRAPHIQL_PATH = "/graphiql";
/** Blockscout's SchemaController: the schema in SDL, as text. */
const SCHEMA_PATH = "/schema.graphql";

export type GraphqlOptions = {
  /** The explorer's tables; on PostgreSQL a pool whose statements have the GraphQL statement timeout. */
  db: Queryable;
  limits: GraphqlLimits;
  /** Blockscout's API_GRAPHQL_TOKEN_LIMIT: the most lexical tokens of a document. */
  tokenLimit: number;
  /** Serve the GraphiQL page at /graphiql. */
  graphiql: boolean;
  /** The transaction of GraphiQL's default query; unset: the newest indexed one. */
  defaultTransactionHash?: string | undefined;
  /** Where the API is mounted (a chain's `/chains/{id}`): GraphiQL's page posts its queries there. */
  basePath?: string;
};

type Operation = { query?: unknown; variables?: unknown; operationName?: unknown };

/** A request that is not a GraphQL request at all: 400 with GraphQL's error body. */
class RequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** The limit errors of an operation, thrown from mercurius' preExecution hook (nothing has run yet). */
class LimitErrors extends Error {
  constructor(readonly errors: GraphQLError[]) {
    super(errors[0]?.message);
  }
}

/** A POST body as an operation: a JSON object (or `application/graphql` text, parsed into `{query}`). */
function operationOf(body: unknown): Operation {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body))
    throw new RequestError("The body must be a JSON object");
  return body;
}

const isGraphqlError = (x: unknown): x is GraphQLError =>
  typeof x === "object" && x !== null && (x as Error).name === "GraphQLError";

function parseVariables(v: unknown): Record<string, unknown> | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  let value = v;
  if (typeof v === "string") {
    try {
      value = JSON.parse(v);
    } catch {
      throw new RequestError("Variables are not valid JSON");
    }
  }
  if (value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw new RequestError("Variables must be a JSON object");
  return value as Record<string, unknown>;
}

/**
 * Blockscout's GraphQL API (`/api/v1/graphql`, GET and POST, JSON or `application/graphql`) and its GraphiQL page
 * (`/graphiql`), on mercurius. Every well-formed request answers 200 with `data` and/or `errors` (as Absinthe.Plug
 * does); a request without a query, with malformed variables or a batch of more than one answers 400 with GraphQL's
 * error body. Bounds: the token limit when parsing, depth, page sizes and Absinthe's complexity before executing
 * (`limits.ts`), a statement timeout on each database read (the pool given in `db`).
 */
export const graphqlPlugin: FastifyPluginAsyncTypebox<GraphqlOptions> = async (app, o) => {
  await app.register(mercurius, {
    schema: TYPE_DEFS,
    resolvers: RESOLVERS as never,
    routes: false,
    graphql: { parseOptions: { maxTokens: o.tokenLimit } },
    errorFormatter: (execution, context) => {
      const log = (context as { reply?: FastifyReply }).reply?.log ?? app.log;
      return {
        statusCode: 200,
        response: {
          data: execution.data ?? null,
          errors: (execution.errors ?? []).map((e) => formatGraphqlError(e, log)),
        },
      } as never;
    },
  });
  app.graphql.addHook("preValidation", async (_schema, document) => {
    normalizeNames(document);
  });
  app.graphql.addHook("preExecution", async (schema, document, context, variables) => {
    const { operationName } = context as unknown as { operationName?: string };
    const errors = checkLimits(schema, document, variables, operationName, o.limits);
    if (errors.length) throw new LimitErrors(errors);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = err instanceof RequestError ? err.status : (err.statusCode ?? 500);
    if (status >= 500) {
      req.log.error({ err }, "GraphQL request failed");
      return reply.code(500).send(graphqlErrorBody("Internal server error"));
    }
    return reply.code(status).send(graphqlErrorBody(err.message));
  });
  app.addContentTypeParser("application/graphql", { parseAs: "string" }, (_req, body, done) =>
    done(null, { query: body }),
  );

  const run = async (op: Operation, req: FastifyRequest, reply: FastifyReply) => {
    if (typeof op.query !== "string" || op.query.trim() === "")
      throw new RequestError("No query document supplied");
    const variables = parseVariables(op.variables);
    const operationName =
      typeof op.operationName === "string" && op.operationName ? op.operationName : undefined;
    const context: GraphqlContext & { reply: FastifyReply; operationName?: string } = {
      db: o.db,
      loaders: createLoaders(o.db),
      reply,
      ...(operationName ? { operationName } : {}),
    };
    try {
      return await app.graphql(op.query, context as never, variables, operationName);
    } catch (e) {
      // Parse, validation and limit errors: nothing ran; GraphQL's answer without data.
      const errors = (e as { errors?: unknown }).errors;
      // By shape: mercurius' errors come from its own copy of graphql when a test runner loads the ES build here.
      if (Array.isArray(errors) && errors.every(isGraphqlError))
        return { errors: errors.map((x) => formatGraphqlError(x, req.log)) };
      throw e;
    }
  };

  const querystring = Type.Object({
    query: Type.Optional(Type.String()),
    variables: Type.Optional(Type.String()),
    operationName: Type.Optional(Type.String()),
  });
  app.get(GRAPHQL_PATH, { schema: { hide: true, querystring } }, async (req, reply) =>
    run(req.query, req, reply),
  );
  app.post(GRAPHQL_PATH, { schema: { hide: true } }, async (req, reply) => {
    const body: unknown = req.body;
    if (!Array.isArray(body)) return run(operationOf(body), req, reply);
    // Blockscout's body reader: at most one operation per request.
    if (body.length !== 1) throw new RequestError("Max batch size is 1");
    return [await run(operationOf(body[0]), req, reply)];
  });

  app.get(SCHEMA_PATH, { schema: { hide: true } }, async (_req, reply) =>
    reply.type("text/plain; charset=utf-8").send(`${TYPE_DEFS.trim()}\n`),
  );

  if (o.graphiql)
    app.get(GRAPHIQL_PATH, { schema: { hide: true } }, async (_req, reply) => {
      const newest = o.defaultTransactionHash ? null : await newestTransactionHash(o.db).catch(() => null);
      const hash = o.defaultTransactionHash ?? (newest ? fromBytea(newest) : null);
      return reply
        .type("text/html; charset=utf-8")
        .send(graphiqlPage(`${o.basePath ?? ""}${GRAPHQL_PATH}`, defaultQuery(hash)));
    });
};
