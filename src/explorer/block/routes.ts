import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Address, Hex } from "viem";
import { type ExplorerRouteOptions, explorerDeps } from "../deps.js";
import { ADDRESS_HASH_PATTERN, NOT_FOUND } from "../errors.js";
import { BLOCK_CURSOR, PAGING } from "../params.js";
import { blockTransactions } from "../transaction/service.js";
import { blockByHash, blockByNumber } from "./query.js";
import { blockDetails, blocksList, blocksValidated } from "./service.js";

const BLOCK_ID_PATTERN = "^(0x[A-Fa-f0-9]{64}|[0-9]{1,15})$";
const BlockParams = Type.Object({ block_hash_or_number_param: Type.String({ pattern: BLOCK_ID_PATTERN }) });
const AddressParams = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
const BlocksQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal("block"), Type.Literal("uncle"), Type.Literal("reorg")])),
  ...BLOCK_CURSOR,
  ...PAGING,
});
const BlockTxsQuery = Type.Object({
  ...BLOCK_CURSOR,
  index: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
  type: Type.Optional(Type.String()),
  ...PAGING,
});
const CursorQuery = Type.Object({ ...BLOCK_CURSOR, ...PAGING });

const blockId = (p: string): { number: number } | { hash: Hex } =>
  p.startsWith("0x") ? { hash: p.toLowerCase() as Hex } : { number: Number(p) };

/** /blocks, /blocks/{number or hash}, /blocks/{n}/transactions, /addresses/{h}/blocks-validated. */
export const blockRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  app.get("/blocks", { schema: { querystring: BlocksQuery, tags: ["blocks"] } }, async (req) => {
    const q = req.query as { type?: "block" | "uncle" | "reorg"; block_number?: number };
    return blocksList(deps, q.type ?? "block", q.block_number ?? null);
  });
  app.get(
    "/blocks/:block_hash_or_number_param",
    { schema: { params: BlockParams, tags: ["blocks"] } },
    async (req, reply) => {
      const { block_hash_or_number_param: id } = req.params as { block_hash_or_number_param: string };
      const block = await blockDetails(deps, blockId(id));
      return block ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/blocks/:block_hash_or_number_param/transactions",
    { schema: { params: BlockParams, querystring: BlockTxsQuery, tags: ["blocks"] } },
    async (req, reply) => {
      const { block_hash_or_number_param: id } = req.params as { block_hash_or_number_param: string };
      const q = req.query as { index?: number };
      const key = blockId(id);
      const block =
        "number" in key ? await blockByNumber(deps.db, key.number) : await blockByHash(deps.db, key.hash);
      if (!block) return reply.code(404).send(NOT_FOUND);
      return blockTransactions(deps, block.number, q.index ?? null);
    },
  );
  app.get(
    "/addresses/:address_hash_param/blocks-validated",
    { schema: { params: AddressParams, querystring: CursorQuery, tags: ["addresses"] } },
    async (req) => {
      const { address_hash_param } = req.params as { address_hash_param: string };
      const q = req.query as { block_number?: number };
      return blocksValidated(deps, address_hash_param.toLowerCase() as Address, q.block_number ?? null);
    },
  );
};
