import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { isStatementTimeout, isTransientDbError } from "../../db/failures.js";
import { createClientSlots } from "../../http/client-limits.js";
import { RETRY_AFTER_S } from "../../http/dialects.js";
import { fail, type RpcApiDeps } from "../reply.js";
import { INVALID_PARAMS, METHODS, RpcFailure } from "./methods.js";

/** Blockscout's default ETH_JSON_RPC_MAX_BATCH_SIZE. */
export const MAX_BATCH = 5;

type Response = {
  jsonrpc: "2.0";
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

const errorResponse = (id: unknown, code: number, message: string, data?: unknown): Response => ({
  jsonrpc: "2.0",
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

const validId = (id: unknown) =>
  id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));

const Id = Type.Union([Type.String(), Type.Number(), Type.Null()], { description: "The request's id" });
const RpcError = Type.Object(
  {
    jsonrpc: Type.Literal("2.0"),
    id: Id,
    error: Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
  },
  { additionalProperties: false },
);
const RpcResponse = Type.Union([
  Type.Object(
    {
      jsonrpc: Type.Literal("2.0"),
      id: Id,
      result: Type.Unknown({ description: "The method's result, as a node answers it" }),
    },
    { additionalProperties: false },
  ),
  RpcError,
]);

/** The route's answers (documentation: the handler serialises with JSON.stringify). */
const RESPONSES = {
  200: Type.Union([RpcResponse, Type.Array(RpcResponse, { minItems: 1, maxItems: MAX_BATCH })], {
    description:
      "A response per request (a batch: a list in the batch's order), each with its result or a JSON-RPC error (-32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params, -32000 and the node's own codes)",
  }),
  413: Type.Object(
    { status: Type.Literal("0"), message: Type.String(), result: Type.Null() },
    { description: `A batch of more than ${MAX_BATCH} requests`, additionalProperties: false },
  ),
  429: { ...RpcError, description: "The client already has its requests in flight (with Retry-After)" },
  503: { ...RpcError, description: "The database is unavailable for now (code -32000, with Retry-After)" },
};

/** One request object to its response, never throwing (a failure is the response's error). */
async function answer(
  deps: RpcApiDeps,
  req: unknown,
  log: { error: (o: object, m: string) => void },
): Promise<Response> {
  if (typeof req !== "object" || req === null || Array.isArray(req))
    return errorResponse(null, -32600, "Method, and jsonrpc are required parameters.");
  const r = req as Record<string, unknown>;
  const id = validId(r.id) ? r.id : null;
  if (!("id" in r)) return errorResponse(0, -32600, "id is a required field");
  if (r.jsonrpc !== "2.0") return errorResponse(id, -32600, "invalid rpc version");
  if (typeof r.method !== "string")
    return errorResponse(id, -32600, "Method, and jsonrpc are required parameters.");
  const params = r.params ?? [];
  if (!Array.isArray(params))
    return errorResponse(id, INVALID_PARAMS, "Invalid params. Params must be a list.");
  const method = Object.hasOwn(METHODS, r.method) ? METHODS[r.method] : undefined;
  if (!method) return errorResponse(id, -32601, "Action not found.");
  // Trailing optional parameters may be left out (viem sends eth_getBalance with its tag, others without).
  if (!method.arity.includes(params.length) && !(params.length < Math.max(...method.arity)))
    return errorResponse(id, INVALID_PARAMS, "Incorrect number of params.");
  try {
    return { jsonrpc: "2.0", result: await method.run(deps, params), id };
  } catch (e) {
    if (e instanceof RpcFailure) return errorResponse(id, e.code, e.message, e.data);
    // The plugin answers these 503 with Retry-After (the whole request: the client retries it).
    if (isTransientDbError(e)) throw e;
    log.error({ err: e, method: r.method }, "eth-rpc request failed");
    return errorResponse(id, -32603, "Something went wrong.");
  }
}

/** How many requests one client (its address, `req.ip`) may have in flight. */
export type EthRpcLimits = { concurrencyPerClient: number };

/**
 * `POST /api/eth-rpc`: JSON-RPC 2.0, one request or a batch of at
 * most MAX_BATCH (a larger batch is refused with 413, as Blockscout). Always HTTP 200 otherwise, the outcome in
 * each response; except 429 when the client already has `concurrencyPerClient` requests running (proxied calls
 * hold the node), and 503 with Retry-After when the database failed transiently. A body that is not JSON is a
 * parse error (-32700).
 */
export const ethRpcPlugin: FastifyPluginAsync<{ deps: RpcApiDeps; limits?: EthRpcLimits }> = async (
  app,
  { deps, limits },
) => {
  const slots = createClientSlots(limits?.concurrencyPerClient ?? 4);
  // The response schemas document the answers; the error handler's bodies are written as they are too.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    try {
      done(null, { parsed: JSON.parse(body as string) });
    } catch {
      done(null, { invalid: true });
    }
  });
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    // The content-type parser above wraps the JSON (`{parsed}`), or marks it `{invalid}`.
    const body: unknown = req.body;
    reply.type("application/json; charset=utf-8").serializer((b: unknown) => JSON.stringify(b));
    if (typeof body !== "object" || body === null || !("parsed" in body))
      return reply.code(200).send(errorResponse(null, -32700, "Parse error"));
    const parsed = body.parsed;
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) return reply.code(200).send(errorResponse(null, -32600, "Empty batch"));
      if (parsed.length > MAX_BATCH)
        return reply.code(413).send(fail(`Payload Too Large. Max batch size is ${MAX_BATCH}`));
    }
    // Loopback too (unlike rate limits): the node is everyone's.
    if (!slots.take(req.ip, reply))
      return reply
        .code(429)
        .header("retry-after", "1")
        .send(errorResponse(null, -32005, "Too many requests in flight from this client; retry later"));
    try {
      if (Array.isArray(parsed))
        return reply.code(200).send(await Promise.all(parsed.map((r) => answer(deps, r, req.log))));
      return reply.code(200).send(await answer(deps, parsed, req.log));
    } catch (e) {
      if (!isTransientDbError(e)) throw e;
      const timeout = isStatementTimeout(e);
      req.log.warn(
        { code: (e as { code?: string }).code },
        "eth-rpc request hit a database failure; answered 503",
      );
      const message = timeout
        ? "The database did not answer in time; please retry"
        : "The database is temporarily unavailable; please retry";
      const id = Array.isArray(parsed) ? null : ((parsed as { id?: unknown } | null)?.id ?? null);
      return reply
        .code(503)
        .header("retry-after", String(RETRY_AFTER_S))
        .send(errorResponse(validId(id) ? id : null, -32000, message));
    }
  };
  // Blockscout serves the same controller at /api/v1/eth-rpc.
  for (const url of ["/api/eth-rpc", "/api/v1/eth-rpc"])
    app.post(
      url,
      {
        schema: {
          tags: ["eth-rpc"],
          summary: `JSON-RPC 2.0 answered from the index (Blockscout's ${url})`,
          description: `Methods: ${Object.keys(METHODS).sort().join(", ")}`,
          response: RESPONSES,
        },
      },
      handler,
    );
};
