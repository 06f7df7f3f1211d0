import type { FastifyBaseLogger, FastifyReply } from "fastify";
import type { Queryable } from "../db/db.js";
import type { DialectDescriptor } from "../http/dialects.js";
import type { Params } from "../http/etherscan-params.js";
import type { VerifierApi } from "../verifier/api.js";

/**
 * The `/api` modules another part serves (the RPC API, src/rpc-api): the answer to a request, or undefined when it
 * is one of the verification module's own actions (`ownAction`).
 */
export type OtherApiModules = (
  p: Params,
  ownAction: (module: string, action: string) => boolean,
) => ((reply: FastifyReply, log: FastifyBaseLogger) => Promise<FastifyReply>) | undefined;

/** What every dialect's plugin is given: the app's database (searches, lookups) and the verifier, when served. */
export type DialectOptions = {
  db: Queryable;
  api: VerifierApi | undefined;
  otherApiModules?: OtherApiModules;
};

/**
 * A verification dialect's descriptor. Its plugin serves what the verifier it is given allows (nothing without
 * one, except eth-bytecode-db's searches).
 */
export type VerifierDialect = DialectDescriptor<DialectOptions>;
