import type { FastifyPluginAsync } from "fastify";
import { Params } from "../http/etherscan-params.js";
import { rpcApiRoute, sendAnswer } from "./index.js";
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
  for (const a of ALIASES)
    app.get(
      a.url,
      { schema: { tags: ["etherscan"], summary: `The same as /api?${a.summary}` } },
      async (req, reply) => {
        // The alias names the action; the query brings its parameters (module and action in it are ignored).
        const p = new Params(req.query, { module: a.module, action: a.action });
        const route = rpcApiRoute(p, () => false)!;
        return sendAnswer(reply, await route(deps, req.log));
      },
    );
};
