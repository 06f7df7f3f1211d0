import { apiV1 } from "./api-v1/index.js";
import { bytecodeDb } from "./bytecode-db/index.js";
import type { VerifierDialect } from "./dialect.js";
import { etherscan } from "./etherscan/index.js";
import { sourcify } from "./sourcify/index.js";
import { verifyForm } from "./verify-form/index.js";

export type { DialectOptions, VerifierDialect } from "./dialect.js";

/**
 * Every verification front door, in registration order. A new dialect is a folder beside these (plugin.ts,
 * parse.ts, view.ts, errors.ts, index.ts with its descriptor) and one line here; src/app registers the list.
 */
export const DIALECTS: readonly VerifierDialect[] = [verifyForm, bytecodeDb, apiV1, etherscan, sourcify];
