import formbody from "@fastify/formbody";
import { Type } from "@sinclair/typebox";
import { Params } from "../../http/etherscan-params.js";
import { dialectScope } from "../../http/scope.js";
import type { VerifierDialect } from "../dialect.js";
import {
  checkVerifyStatus,
  type EtherscanApi,
  getAbi,
  getContractCreation,
  getSourceCode,
  verifySourceCode,
} from "./actions.js";
import { checkProxyVerification, verifyProxyContract } from "./proxy-actions.js";
import { type Envelope, notOk } from "./view.js";

/** The verification module's `contract` actions this dialect serves (the route table reads them too). */
export const ETHERSCAN_ACTIONS: Record<string, (api: EtherscanApi, p: Params) => Promise<Envelope>> = {
  verifysourcecode: verifySourceCode,
  checkverifystatus: checkVerifyStatus,
  getabi: getAbi,
  getsourcecode: getSourceCode,
  getcontractcreation: getContractCreation,
  verifyproxycontract: verifyProxyContract,
  checkproxyverification: checkProxyVerification,
};

/** Routes a request by `module` and `action` (Etherscan's error texts for unknown ones). */
export async function dispatch(api: EtherscanApi, p: Params): Promise<Envelope> {
  if (p.get("module")?.toLowerCase() !== "contract") return notOk("Error! Missing Or invalid Module name");
  // Own members only: `__proto__` or `constructor` must not find Object.prototype's.
  const name = p.get("action")?.toLowerCase() ?? "";
  const action = Object.hasOwn(ETHERSCAN_ACTIONS, name) ? ETHERSCAN_ACTIONS[name] : undefined;
  if (!action) return notOk("Error! Missing Or invalid Action name");
  return action(api, p);
}

const Envelope200 = Type.Object({
  status: Type.Union([Type.Literal("0"), Type.Literal("1")]),
  message: Type.String(),
  result: Type.Unknown(),
});

/**
 * The Etherscan-compatible API at `/api` (and `/api/`): `module=contract` actions for forge
 * (`--verifier etherscan|blockscout|custom`) and hardhat-verify. Always HTTP 200 with `{status, message, result}`:
 * bad input, unknown routes and our own failures all come back as status "0" with a message.
 */
export const etherscanPlugin: VerifierDialect["plugin"] = async (app, { api, dialect, otherApiModules }) => {
  const jobs = api?.jobs;
  if (!api || !jobs) return;
  const etherscanApi: EtherscanApi = { ...api, jobs };
  await app.register(formbody);
  dialectScope(app, dialect);
  // Fastify's ignoreTrailingSlash (app.ts) makes this one route serve `/api/` too.
  app.route({
    method: ["GET", "POST"],
    url: "/api",
    schema: {
      tags: ["etherscan"],
      summary:
        "Etherscan-compatible API: module=contract, action=verifysourcecode|checkverifystatus|getabi|…",
      response: {
        200: Type.Object(Envelope200.properties, {
          description: 'status "1" with the result, or status "0" with what went wrong (bad input included)',
        }),
      },
    },
    handler: async (req, reply) => {
      const p = new Params(req.query, req.body);
      // The other modules (account, logs, …) and Blockscout's 400 for a missing or unknown module or action.
      const other = otherApiModules?.(p, (m, a) => m === "contract" && Object.hasOwn(ETHERSCAN_ACTIONS, a));
      if (other) return other(reply, req.log);
      return dispatch(etherscanApi, p);
    },
  });
};
