import formbody from "@fastify/formbody";
import { Type } from "@sinclair/typebox";
import type { FastifyError, FastifyPluginAsync } from "fastify";
import { LookoutError } from "../../errors/base.js";
import { transientFailureReply } from "../../http/dialects.js";
import { rpcApiRoute, sendAnswer } from "../../rpc-api/index.js";
import {
  checkVerifyStatus,
  getAbi,
  getContractCreation,
  getSourceCode,
  verifySourceCode,
} from "./actions.js";
import type { VerificationApiDeps } from "./deps.js";
import { type Envelope, notOk } from "./envelope.js";
import { Params } from "./params.js";

const ACTIONS: Record<string, (deps: VerificationApiDeps, p: Params) => Promise<Envelope>> = {
  verifysourcecode: verifySourceCode,
  checkverifystatus: checkVerifyStatus,
  getabi: getAbi,
  getsourcecode: getSourceCode,
  getcontractcreation: getContractCreation,
};

/** Routes a request by `module` and `action` (Etherscan's error texts for unknown ones). */
export async function dispatch(deps: VerificationApiDeps, p: Params): Promise<Envelope> {
  if (p.get("module")?.toLowerCase() !== "contract") return notOk("Error! Missing Or invalid Module name");
  // Own members only: `__proto__` or `constructor` must not find Object.prototype's.
  const name = p.get("action")?.toLowerCase() ?? "";
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action) return notOk("Error! Missing Or invalid Action name");
  return action(deps, p);
}

/**
 * The Etherscan-compatible API at `/api` (and `/api/`): `module=contract` actions for forge
 * (`--verifier etherscan|blockscout|custom`) and hardhat-verify. Always HTTP 200 with `{status, message, result}`:
 * bad input, unknown routes and our own failures all come back as status "0" with a message.
 */
export const etherscanPlugin: FastifyPluginAsync<{ deps: VerificationApiDeps }> = async (app, { deps }) => {
  await app.register(formbody);
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof LookoutError && err.code === "invalid_input") {
      return reply.code(200).send(notOk(err.shortMessage));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(200).send(notOk(`Invalid request: ${err.message}`));
    }
    const transient = transientFailureReply(err, req, reply);
    if (transient) return transient;
    req.log.error({ err }, "Etherscan API request failed");
    return reply.code(200).send(notOk("Internal error; please try again later"));
  });
  // Fastify's ignoreTrailingSlash (app.ts) makes this one route serve `/api/` too.
  app.route({
    method: ["GET", "POST"],
    url: "/api",
    schema: {
      tags: ["etherscan"],
      summary:
        "Etherscan-compatible API: module=contract, action=verifysourcecode|checkverifystatus|getabi|…",
      response: {
        200: Type.Object({
          status: Type.Union([Type.Literal("0"), Type.Literal("1")]),
          message: Type.String(),
          result: Type.Unknown(),
        }),
      },
    },
    handler: async (req, reply) => {
      const p = new Params(req.query, req.body);
      // The other RPC modules (src/rpc-api), and Blockscout's 400 for a missing or unknown module or action.
      const rpc = rpcApiRoute(p, (m, a) => m === "contract" && Object.hasOwn(ACTIONS, a));
      if (rpc) return sendAnswer(reply, await rpc(deps, req.log));
      return dispatch(deps, p);
    },
  });
};
