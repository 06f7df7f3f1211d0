import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { ErrorDialect } from "../http/dialects.js";
import { Params } from "../http/etherscan-params.js";
import { multipartOptions, multipartTotalBytes, readMultipart } from "../http/multipart-body.js";
import { dialectScope } from "../http/scope.js";
import { COMMON_ANSWERS } from "./answer-spec.js";
import { etherscanError } from "./errors.js";
import { rpcApiRoute, sendAnswer } from "./index.js";
import { apiActionsExtension, apiQuerySchema } from "./openapi.js";
import type { RpcApiDeps } from "./reply.js";

/** The `/api` error dialect: Etherscan's envelope (src/rpc-api/errors.ts), for the route and the framework's errors. */
export const API_DIALECT: ErrorDialect = { name: "etherscan", paths: ["/api"], error: etherscanError };

const Envelope200 = Type.Object({
  status: Type.Union([Type.Literal("0"), Type.Literal("1"), Type.Literal("2")]),
  message: Type.String(),
  result: Type.Unknown(),
});

/** The answers every action shares, as the operation's responses by status (the rest: each action's x-actions). */
const commonResponses = Object.fromEntries(
  COMMON_ANSWERS.map((a) => [a.httpStatus, { ...a.schema, description: a.description }]),
);

/**
 * The Etherscan-compatible API at `/api` (and `/api/`): every `module`/`action` of `RPC_MODULES` (index.ts), the
 * verification actions for forge (`--verifier etherscan|blockscout|custom`) and hardhat-verify among them. Unknown
 * modules and actions are Blockscout's 400; the verification actions answer bad input and their own failures with
 * HTTP 200 and status "0".
 */
export const rpcApiPlugin: FastifyPluginAsync<{ deps: RpcApiDeps }> = async (app, { deps }) => {
  await app.register(formbody);
  // `verify_via_sourcify` sends its files as multipart `files[i]` (the verify form's bounds apply).
  const limits = deps.verification?.formLimits;
  await app.register(multipart, multipartOptions(limits));
  dialectScope(app, API_DIALECT);
  // Fastify's ignoreTrailingSlash (app.ts) makes this one route serve `/api/` too.
  // `/api/v1` too: Blockscout's RPCTranslator is forwarded there as well (older integrations use it).
  const querystring = apiQuerySchema();
  const xActions = apiActionsExtension();
  for (const url of ["/api", "/api/v1"])
    app.route({
      method: ["GET", "POST"],
      url,
      // The query schema documents; the dispatcher answers unknown modules and actions itself (Blockscout's 400).
      validatorCompiler: () => () => true,
      schema: {
        tags: ["etherscan"],
        summary:
          url === "/api"
            ? "Etherscan-compatible API: `module` and `action` (in the query or the form body) pick the action"
            : "Blockscout's /api/v1 alias of /api (the same modules and actions: /api's x-actions)",
        querystring,
        // Each action's parameters and answers once, on /api (the alias serves the same table).
        ...(url === "/api" ? { "x-actions": xActions } : {}),
        response: {
          200: Type.Object(Envelope200.properties, {
            description:
              'The action\'s answer: status "1" with the result, "0" with what went wrong (bad input included), "2" not processed yet; the eth_* actions answer JSON-RPC. Each action\'s exact answers: x-actions["module.action"].responses',
          }),
          ...commonResponses,
        },
      },
      handler: async (req, reply) => {
        let p: Params;
        if (req.isMultipart()) {
          const body = await readMultipart(req, multipartTotalBytes(limits));
          p = new Params(req.query, body.fields);
          p.files = body.files;
        } else p = new Params(req.query, req.body);
        return sendAnswer(reply, await rpcApiRoute(p)(deps, req.log));
      },
    });
};
