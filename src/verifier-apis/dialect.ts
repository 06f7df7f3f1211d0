import type { Queryable } from "../db/db.js";
import type { DialectDescriptor } from "../http/dialects.js";
import type { VerifierApi } from "../verifier/api.js";

/** What every dialect's plugin is given: the app's database (searches, lookups) and the verifier, when served. */
export type DialectOptions = {
  db: Queryable;
  api: VerifierApi | undefined;
};

/**
 * A verification dialect's descriptor. Its plugin serves what the verifier it is given allows (nothing without
 * one, except eth-bytecode-db's searches).
 */
export type VerifierDialect = DialectDescriptor<DialectOptions>;
