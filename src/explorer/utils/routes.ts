import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Static } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import type { Address, Hex } from "viem";
import type { ExplorerDeps, ResourceOptions } from "../deps.js";
import { lower } from "../params.js";
import {
  ADDRESS_PATTERN,
  CALLDATA_PATTERN,
  DecodeCalldataInput,
  DecodeCalldataSchema,
  InvalidParametersSchema,
} from "./schema.js";
import { decodeCalldata } from "./service.js";

const response = { 200: DecodeCalldataSchema, 422: InvalidParametersSchema };

function answer(
  deps: ExplorerDeps,
  input: Static<typeof DecodeCalldataInput> | undefined,
  reply: FastifyReply,
) {
  const calldata = input?.calldata;
  const address = input?.address_hash;
  if (
    !calldata ||
    !CALLDATA_PATTERN.test(calldata) ||
    (address !== undefined && !ADDRESS_PATTERN.test(address))
  )
    return reply.code(422).send({ message: "Invalid parameter(s)" });
  return decodeCalldata(deps, lower<Hex>(calldata), address === undefined ? null : lower<Address>(address));
}

/** GET and POST /utils/decode-calldata (`calldata`, optional `address_hash`), as Blockscout's UtilsController. */
export const utilsRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/utils/decode-calldata",
    { schema: { querystring: DecodeCalldataInput, tags: ["utils"], response } },
    async (req, reply) => answer(deps, req.query, reply),
  );
  app.post(
    "/utils/decode-calldata",
    { schema: { body: DecodeCalldataInput, tags: ["utils"], response } },
    async (req, reply) => answer(deps, req.body, reply),
  );
};
