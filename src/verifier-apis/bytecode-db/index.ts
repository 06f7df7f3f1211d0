import type { VerifierDialect } from "../dialect.js";
import { bytecodeDbError } from "./errors.js";
import { bytecodeDbPlugin } from "./plugin.js";

/**
 * eth-bytecode-db's v2 API under `/api/v2` (`/bytecodes`, `/verifier`). It claims no paths of its own: errors
 * outside its routes under `/api/v2` are the explorer's (Blockscout's dialect).
 */
export const bytecodeDb: VerifierDialect = {
  name: "eth-bytecode-db",
  prefix: "/api/v2",
  paths: [],
  plugin: bytecodeDbPlugin,
  error: bytecodeDbError,
};
