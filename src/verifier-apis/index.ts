import { apiV1 } from "./api-v1/index.js";
import { bytecodeDb } from "./bytecode-db/index.js";
import type { VerifierDialect } from "./dialect.js";
import { sourcify } from "./sourcify/index.js";
import { verifyForm } from "./verify-form/index.js";

export type { DialectOptions, VerifierDialect } from "./dialect.js";

/**
 * Every verification front door with a plugin of its own, in registration order. A new dialect is a folder beside
 * these (plugin.ts, parse.ts, view.ts, errors.ts, index.ts with its descriptor) and one line here; src/app registers
 * the list. Etherscan's verification (`etherscan/`) has no plugin: its actions are the `contract` module's in the
 * one `/api` dispatcher (src/rpc-api/index.ts `RPC_MODULES`).
 */
export const DIALECTS: readonly VerifierDialect[] = [verifyForm, bytecodeDb, apiV1, sourcify];

/**
 * The front doors whose requests name no chain (the frontend's verify form): each chain's prefix (`/chains/{id}`)
 * serves them again for that chain, so a frontend reading one chain verifies on it.
 */
export const PER_CHAIN_DIALECTS: readonly VerifierDialect[] = [verifyForm];
