import type { FastifyBaseLogger, FastifyReply } from "fastify";
import { isTransientDbError } from "../db/failures.js";
import type { Params } from "../http/etherscan-params.js";
import { accountActions, accountParams } from "./account/actions.js";
import { accountAnswers } from "./account/answers.js";
import type { ActionAnswers } from "./answer-spec.js";
import { blockActions, blockParams } from "./block/actions.js";
import { blockAnswers } from "./block/answers.js";
import { contractListActions, contractListParams } from "./contract/actions.js";
import { contractAnswers } from "./contract/answers.js";
import {
  proxyVerificationActions,
  publishActions,
  verificationActions,
  verificationParams,
} from "./contract/verification.js";
import { logsActions, logsParams } from "./logs/actions.js";
import { logsAnswers } from "./logs/answers.js";
import type { ActionParams } from "./param-spec.js";
import { type Actions, type Answer, fail, type Handler, isReply, type RpcApiDeps } from "./reply.js";
import { statsActions, statsParams } from "./stats/actions.js";
import { statsAnswers } from "./stats/answers.js";
import { tokenActions, tokenParams } from "./token/actions.js";
import { tokenAnswers } from "./token/answers.js";
import { transactionActions, transactionParams } from "./transaction/actions.js";
import { transactionAnswers } from "./transaction/answers.js";

export type { RpcApiDeps } from "./reply.js";

/** Some actions of one module, as one file declares them. */
export type ActionGroup = {
  /** The file that declares the actions (docs/routes.md names it; test/app/route-table.test.ts checks it). */
  file: string;
  actions: Actions;
  /** Each action's parameters, declared beside its handler (the OpenAPI document's `x-actions`). */
  params: ActionParams;
  /** Each action's answers (the OpenAPI document's `x-actions` responses), declared in the module's answers.ts. */
  answers: ActionAnswers;
  /**
   * Who answers an action's failure: Blockscout's HTTP 500 envelope (`"rpc"`, the read modules), or the `/api`
   * error dialect (`"dialect"`, the verification actions: Etherscan's status "0" envelope with HTTP 200, which
   * forge and hardhat-verify read).
   */
  failures: "rpc" | "dialect";
};

const rpc = (file: string, actions: Actions, params: ActionParams, answers: ActionAnswers): ActionGroup => ({
  file,
  actions,
  params,
  answers,
  failures: "rpc",
});

/**
 * Every `/api?module=…&action=…` action, by module, then by the file that declares it: Blockscout's
 * Etherscan-compatible RPC modules served from the index, and in `contract` the verification actions of
 * src/verifier-apis/etherscan. `module` and `action` are matched case-insensitively, as Blockscout's RPCTranslator.
 */
export const RPC_MODULES: Readonly<Record<string, readonly ActionGroup[]>> = {
  account: [rpc("src/rpc-api/account/actions.ts", accountActions, accountParams, accountAnswers)],
  logs: [rpc("src/rpc-api/logs/actions.ts", logsActions, logsParams, logsAnswers)],
  token: [rpc("src/rpc-api/token/actions.ts", tokenActions, tokenParams, tokenAnswers)],
  stats: [rpc("src/rpc-api/stats/actions.ts", statsActions, statsParams, statsAnswers)],
  block: [rpc("src/rpc-api/block/actions.ts", blockActions, blockParams, blockAnswers)],
  transaction: [
    rpc("src/rpc-api/transaction/actions.ts", transactionActions, transactionParams, transactionAnswers),
  ],
  contract: [
    rpc("src/rpc-api/contract/actions.ts", contractListActions, contractListParams, contractAnswers),
    {
      file: "src/verifier-apis/etherscan/actions.ts",
      actions: verificationActions,
      params: verificationParams,
      answers: contractAnswers,
      failures: "dialect",
    },
    {
      file: "src/verifier-apis/etherscan/proxy-actions.ts",
      actions: proxyVerificationActions,
      params: verificationParams,
      answers: contractAnswers,
      failures: "dialect",
    },
    {
      file: "src/verifier-apis/etherscan/publish-actions.ts",
      actions: publishActions,
      params: verificationParams,
      answers: contractAnswers,
      failures: "dialect",
    },
  ],
};

const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** The action `module`/`action` (lower case) names, with its group; undefined when nothing serves it. */
export function findAction(
  module: string,
  action: string,
): { group: ActionGroup; handler: Handler } | undefined {
  for (const group of own(RPC_MODULES, module) ?? []) {
    const handler = own(group.actions, action);
    if (handler) return { group, handler };
  }
  return undefined;
}

/** Blockscout's answers when the request names no served module or action: HTTP 400 in its envelope. */
export const badRequest = (message: string): Answer => ({ httpStatus: 400, body: fail(message) });

/** Resolves an `/api` request to what answers it. */
export function rpcApiRoute(p: Params): (deps: RpcApiDeps, log: FastifyBaseLogger) => Promise<Answer> {
  const module = p.get("module")?.toLowerCase();
  const action = p.get("action")?.toLowerCase();
  if (module === undefined || action === undefined)
    return async () => badRequest("Params 'module' and 'action' are required parameters");
  if (!Object.hasOwn(RPC_MODULES, module)) return async () => badRequest("Unknown module");
  const found = findAction(module, action);
  if (!found) return async () => badRequest("Unknown action");
  const { group, handler } = found;
  // The verification actions' failures go to the /api dialect's error handler (src/rpc-api/plugin.ts).
  if (group.failures === "dialect") return (deps) => handler(deps, p);
  return async (deps, log) => {
    try {
      return await handler(deps, p);
    } catch (err) {
      // A lost database or a statement timeout: the dialect's 503 with Retry-After (its error handler).
      if (isTransientDbError(err)) throw err;
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
