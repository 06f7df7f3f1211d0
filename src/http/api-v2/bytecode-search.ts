import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Db } from "../../db/db.js";
import type { Hex } from "../../verifier/matching/index.js";
import { searchSourcesByBytecode } from "../../verifier/store/index.js";
import { v1ErrorHandler } from "../api-v1/errors.js";

const SearchBody = Type.Object({
  bytecode: Type.String({ pattern: "^(0x)?([0-9a-fA-F]{2})*$" }),
  bytecodeType: Type.Union([Type.Literal("CREATION_INPUT"), Type.Literal("DEPLOYED_BYTECODE")]),
});

/**
 * POST /bytecodes/sources:search (eth-bytecode-db's search by bytecode) over the verified-contract store.
 * It speaks eth-bytecode-db's `{code, message}` error dialect, not the explorer's.
 */
export const bytecodeSearchRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.setErrorHandler(v1ErrorHandler);
  app.post<{ Body: Static<typeof SearchBody> }>(
    "/bytecodes/sources:search",
    { schema: { tags: ["verifier"], body: SearchBody } },
    async (req) => {
      const raw = req.body.bytecode.toLowerCase();
      const bytecode = (raw.startsWith("0x") ? raw : `0x${raw}`) as Hex;
      return { sources: await searchSourcesByBytecode(db, bytecode, req.body.bytecodeType) };
    },
  );
};
