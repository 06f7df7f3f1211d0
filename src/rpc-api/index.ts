import type { FastifyBaseLogger, FastifyReply } from "fastify";
import type { Params } from "../http/etherscan-params.js";
import { accountActions } from "./account/actions.js";
import { blockActions } from "./block/actions.js";
import { contractListActions } from "./contract/actions.js";
import { logsActions } from "./logs/actions.js";
import { type Actions, type Answer, fail, isReply, type RpcApiDeps } from "./reply.js";
import { statsActions } from "./stats/actions.js";
import { tokenActions } from "./token/actions.js";
import { transactionActions } from "./transaction/actions.js";

export type { RpcApiDeps } from "./reply.js";

/**
 * Blockscout's Etherscan-compatible RPC modules served from the index, by `module` then `action` (both matched
 * case-insensitively, as its RPCTranslator). `contract` here holds only what src/verifier-apis/etherscan does not.
 */
export const RPC_MODULES: Readonly<Record<string, Actions>> = {
  account: accountActions,
  logs: logsActions,
  token: tokenActions,
  stats: statsActions,
  block: blockActions,
  transaction: transactionActions,
  contract: contractListActions,
};

const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** Blockscout's answers when the request names no served module or action: HTTP 400 in its envelope. */
const badRequest = (message: string): Answer => ({ httpStatus: 400, body: fail(message) });

/**
 * Resolves an `/api` request. Returns what to answer, or undefined when the request is for an action the caller
 * serves itself (`otherActions`: the verification module's `contract` actions).
 */
export function rpcApiRoute(
  p: Params,
  otherActions: (module: string, action: string) => boolean,
): ((deps: RpcApiDeps, log: FastifyBaseLogger) => Promise<Answer>) | undefined {
  const module = p.get("module")?.toLowerCase();
  const action = p.get("action")?.toLowerCase();
  if (module === undefined || action === undefined)
    return async () => badRequest("Params 'module' and 'action' are required parameters");
  if (otherActions(module, action)) return undefined;
  const actions = own(RPC_MODULES, module);
  if (!actions && module !== "contract") return async () => badRequest("Unknown module");
  const handler = actions ? own(actions, action) : undefined;
  if (!handler) return async () => badRequest("Unknown action");
  return async (deps, log) => {
    try {
      return await handler(deps, p);
    } catch (err) {
      log.error({ err, module, action }, "RPC API action failed");
      return { httpStatus: 500, body: fail("Something went wrong.") };
    }
  };
}

/** Sends an answer as plain JSON (the `/api` route's response schema describes the verification envelope only). */
export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  if (isReply(answer) && answer.contentType)
    return reply.code(answer.httpStatus).type(answer.contentType).send(answer.body);
  const { status, body } = isReply(answer)
    ? { status: answer.httpStatus, body: answer.body }
    : { status: 200, body: answer };
  return reply
    .code(status)
    .type("application/json; charset=utf-8")
    .serializer((b: unknown) => JSON.stringify(b))
    .send(body);
}
