import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Db } from "../../db/db.js";
import { v1ErrorHandler } from "../api-v1/errors.js";
import type { VerifierHttpDeps } from "../api-v1/plugin.js";
import { searchRoutes } from "./search-routes.js";
import { verifyRoutes } from "./verify-routes.js";

export type BytecodeDbOptions = { db: Db; verifier?: VerifierHttpDeps | undefined };

const Versions = Type.Object({ compilerVersions: Type.Array(Type.String()) });

/**
 * eth-bytecode-db's v2 API (blockscout-rs), which Blockscout's backend calls with
 * MICROSERVICE_SC_VERIFIER_TYPE=eth_bytecode_db: verification, compiler lists and source search over Lookout's
 * own verifier and store. Registered under `/api/v2` beside the explorer routes; errors are actix-prost's
 * `{code, message}` (bad input 400 code 3), the same dialect as `/api/v1`.
 */
export const bytecodeDbPlugin: FastifyPluginAsync<BytecodeDbOptions> = async (app, { db, verifier }) => {
  app.setErrorHandler(v1ErrorHandler);
  const chains = verifier?.chains ?? [];
  await app.register(searchRoutes, { db, chains });
  if (!verifier) return;
  if (verifier.verify) await app.register(verifyRoutes, { db, chains, verify: verifier.verify });
  const versions = (list: () => Array<{ version: string }>) => async () => {
    await verifier.compilers.settled?.();
    return { compilerVersions: list().map((c) => c.version) };
  };
  const schema = { tags: ["eth-bytecode-db"], response: { 200: Versions } };
  app.get(
    "/verifier/solidity/versions",
    { schema },
    versions(() => verifier.compilers.listSolidity()),
  );
  app.get(
    "/verifier/vyper/versions",
    { schema },
    versions(() => verifier.compilers.listVyper()),
  );
};
