import type { FastifyPluginAsync } from "fastify";
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
    log.error({ err: e, method: r.method }, "eth-rpc request failed");
    return errorResponse(id, -32603, "Something went wrong.");
  }
}

/**
 * `POST /api/eth-rpc`: JSON-RPC 2.0, one request or a batch of at
 * most MAX_BATCH (a larger batch is refused with 413, as Blockscout). Always HTTP 200 otherwise, the outcome in
 * each response. A body that is not JSON is a parse error (-32700).
 */
export const ethRpcPlugin: FastifyPluginAsync<{ deps: RpcApiDeps }> = async (app, { deps }) => {
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    try {
      done(null, { parsed: JSON.parse(body as string) });
    } catch {
      done(null, { invalid: true });
    }
  });
  const handler = async (
    req: { body: unknown; log: { error: (o: object, m: string) => void } },
    reply: import("fastify").FastifyReply,
  ) => {
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
      return reply.code(200).send(await Promise.all(parsed.map((r) => answer(deps, r, req.log))));
    }
    return reply.code(200).send(await answer(deps, parsed, req.log));
  };
  app.post(
    "/api/eth-rpc",
    {
      schema: {
        tags: ["eth-rpc"],
        summary: "JSON-RPC 2.0 answered from the index (Blockscout's /api/eth-rpc)",
      },
    },
    handler,
  );
};
