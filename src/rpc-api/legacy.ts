import type { FastifyPluginAsync } from "fastify";
import { Params } from "../http/etherscan-params.js";
import { COMMON_ANSWERS } from "./answer-spec.js";
import { findAction, rpcApiRoute, sendAnswer } from "./index.js";
import { routeResponses } from "./openapi.js";
import type { RpcApiDeps } from "./reply.js";

/** Blockscout's `/api/legacy/...` routes: thin bridges to RPC actions, answered exactly as those are. */
const ALIASES: ReadonlyArray<{ url: string; module: string; action: string; summary: string }> = [
  {
    url: "/api/legacy/logs/get-logs",
    module: "logs",
    action: "getLogs",
    summary: "module=logs&action=getLogs",
  },
  {
    url: "/api/legacy/block/get-block-number-by-time",
    module: "block",
    action: "getblocknobytime",
    summary: "module=block&action=getblocknobytime",
  },
  {
    url: "/api/legacy/block/eth-block-number",
    module: "block",
    action: "eth_block_number",
    summary: "module=block&action=eth_block_number",
  },
];

export const legacyRoutesPlugin: FastifyPluginAsync<{ deps: RpcApiDeps }> = async (app, { deps }) => {
  // The response schemas document the answers; every member is written as the action gives it.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const a of ALIASES) {
    // The bridged action's answers, and the failures every read action shares (not its unknown-action 400).
    const action = a.action.toLowerCase();
    const answers = [
      ...(findAction(a.module, action)?.group.answers[action] ?? []),
      ...COMMON_ANSWERS.filter((c) => c.httpStatus !== 400),
    ];
    app.get(
      a.url,
      {
        schema: {
          tags: ["etherscan"],
          summary: `The same as /api?${a.summary}`,
          response: routeResponses(answers),
        },
      },
      async (req, reply) => {
        // The alias names the action; the query brings its parameters (module and action in it are ignored).
        const p = new Params(req.query, { module: a.module, action: a.action });
        return sendAnswer(reply, await rpcApiRoute(p)(deps, req.log));
      },
    );
  }
};
