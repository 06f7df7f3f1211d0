import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { ADDRESS_PARAMS, BLOCK_CURSOR, BLOCK_PARAMS, blockId, lower, PAGING } from "../params.js";
import { BlockListSchema, BlockSchema, BlocksPageSchema } from "./schema.js";
import { blockDetails, blocksList, blocksValidated, recentBlocks } from "./service.js";

const BlocksQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal("block"), Type.Literal("uncle"), Type.Literal("reorg")])),
  ...BLOCK_CURSOR,
  ...PAGING,
});
const CursorQuery = Type.Object({ ...BLOCK_CURSOR, ...PAGING });

/** /blocks, /blocks/{number or hash}, /addresses/{h}/blocks-validated, /main-page/blocks. */
export const blockRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/blocks",
    { schema: { querystring: BlocksQuery, tags: ["blocks"], response: answers(BlocksPageSchema) } },
    async (req) => blocksList(deps, req.query.type ?? "block", req.query.block_number ?? null),
  );
  app.get(
    "/blocks/:block_hash_or_number_param",
    {
      schema: { params: BLOCK_PARAMS, tags: ["blocks"], response: answers(BlockSchema, { notFound: true }) },
    },
    async (req, reply) => {
      const block = await blockDetails(deps, blockId(req.params.block_hash_or_number_param));
      return block ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/addresses/:address_hash_param/blocks-validated",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: CursorQuery,
        tags: ["addresses"],
        response: answers(BlocksPageSchema),
      },
    },
    async (req) =>
      blocksValidated(deps, lower(req.params.address_hash_param), req.query.block_number ?? null),
  );
  // Blockscout's home page shows the newest 4 blocks.
  app.get(
    "/main-page/blocks",
    { schema: { tags: ["main-page"], response: answers(BlockListSchema) } },
    async () => recentBlocks(deps, 4),
  );
};
